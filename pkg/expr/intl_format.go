package expr

import (
	"fmt"
	"strings"
	"time"
)

// This file renders dates as ICU does for en-US: the parts of Intl.DateTimeFormat's
// formatToParts, and time-zone names.

type part struct{ typ, value string }

var (
	monthsLong = [...]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	weekdaysLong = [...]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// parts renders t as en-US does for the resolved components.
func (o *dtfOptions) parts(t time.Time) []part {
	var ps []part
	lit := func(s string) { ps = append(ps, part{"literal", s}) }
	add := func(typ, v string) { ps = append(ps, part{typ, v}) }

	textMonth := o.month == "short" || o.month == "long" || o.month == "narrow"
	hasDate := o.year != "" || o.month != "" || o.day != "" || o.weekday != ""
	hasTime := o.hour != "" || o.minute != "" || o.second != "" || o.fractionalSecondDigits > 0

	if o.weekday != "" {
		add("weekday", weekdayText(t.Weekday(), o.weekday))
		if o.year != "" || o.month != "" || o.day != "" {
			lit(", ")
		}
	}
	year := func() { add("year", numeric(yearOf(t), o.year)) }
	if textMonth {
		if o.month != "" {
			add("month", monthText(t.Month(), o.month))
		}
		if o.day != "" {
			lit(" ")
			add("day", numeric(t.Day(), o.day))
		}
		if o.year != "" {
			if o.day != "" {
				lit(", ")
			} else {
				lit(" ")
			}
			year()
		}
	} else {
		sep := false
		for _, c := range []struct{ typ, style string }{{"month", o.month}, {"day", o.day}, {"year", o.year}} {
			if c.style == "" {
				continue
			}
			if sep {
				lit("/")
			}
			sep = true
			switch c.typ {
			case "month":
				add("month", numeric(int(t.Month()), c.style))
			case "day":
				add("day", numeric(t.Day(), c.style))
			default:
				year()
			}
		}
	}
	if o.era != "" {
		lit(" ")
		add("era", eraText(t, o.era))
	}

	if hasDate && hasTime {
		if o.month == "long" {
			lit(" at ")
		} else {
			lit(", ")
		}
	}
	if hasTime {
		o.timeParts(t, add, lit)
	}
	if o.timeZoneName != "" {
		if len(ps) > 0 {
			lit(" ")
		}
		add("timeZoneName", zoneName(t, o.zoneName, o.timeZoneName))
	}
	return ps
}

func (o *dtfOptions) timeParts(t time.Time, add func(typ, v string), lit func(string)) {
	wroteAny := false
	if o.hour != "" {
		h := t.Hour()
		style := o.hour
		switch o.cycle {
		case "h11":
			h %= 12
		case "h12":
			if h %= 12; h == 0 {
				h = 12
			}
		case "h24":
			if h == 0 {
				h = 24
			}
			style = "2-digit"
		default: // h23: en-US pads the 24-hour clock
			style = "2-digit"
		}
		add("hour", numeric(h, style))
		wroteAny = true
	}
	// Minutes and seconds after another field are always two digits ("3:04:05").
	for _, f := range []struct {
		typ, style string
		n          int
	}{{"minute", o.minute, t.Minute()}, {"second", o.second, t.Second()}} {
		if f.style == "" {
			continue
		}
		style := f.style
		if wroteAny {
			lit(":")
			style = "2-digit"
		}
		add(f.typ, numeric(f.n, style))
		wroteAny = true
	}
	if d := o.fractionalSecondDigits; d > 0 && d <= 3 {
		if wroteAny {
			lit(".")
		}
		ms := fmt.Sprintf("%03d", t.Nanosecond()/1e6)
		add("fractionalSecond", ms[:d])
	}
	if o.hour != "" && o.hour12 {
		lit(" ")
		if t.Hour() < 12 {
			add("dayPeriod", "AM")
		} else {
			add("dayPeriod", "PM")
		}
	}
}

func yearOf(t time.Time) int {
	if y := t.Year(); y > 0 {
		return y
	}
	return 1 - t.Year() // 1 BC is year 0
}

func numeric(n int, style string) string {
	if style == "2-digit" {
		return fmt.Sprintf("%02d", n%100)
	}
	return fmt.Sprint(n)
}

func monthText(m time.Month, style string) string {
	name := monthsLong[m-1]
	switch style {
	case "short":
		return name[:3]
	case "narrow":
		return name[:1]
	}
	return name
}

func weekdayText(d time.Weekday, style string) string {
	name := weekdaysLong[d]
	switch style {
	case "short":
		return name[:3]
	case "narrow":
		return name[:1]
	}
	return name
}

func eraText(t time.Time, style string) string {
	ad := t.Year() > 0
	switch {
	case style == "long" && ad:
		return "Anno Domini"
	case style == "long":
		return "Before Christ"
	case style == "narrow" && ad:
		return "A"
	case style == "narrow":
		return "B"
	case ad:
		return "AD"
	}
	return "BC"
}

// usAbbreviations are the zone abbreviations en-US shows by name; every other zone is shown
// as a GMT offset ("GMT+1"), as ICU does.
var usAbbreviations = map[string]string{
	"EST": "Eastern Standard Time", "EDT": "Eastern Daylight Time",
	"CST": "Central Standard Time", "CDT": "Central Daylight Time",
	"MST": "Mountain Standard Time", "MDT": "Mountain Daylight Time",
	"PST": "Pacific Standard Time", "PDT": "Pacific Daylight Time",
	"AKST": "Alaska Standard Time", "AKDT": "Alaska Daylight Time",
	"HST": "Hawaii-Aleutian Standard Time", "HDT": "Hawaii-Aleutian Daylight Time",
}

// longNames are the long names of common non-US zones, by Go abbreviation.
var longNames = map[string]string{
	"UTC": "Coordinated Universal Time", "GMT": "Greenwich Mean Time", "BST": "British Summer Time",
	"CET": "Central European Standard Time", "CEST": "Central European Summer Time",
	"EET": "Eastern European Standard Time", "EEST": "Eastern European Summer Time",
	"WET": "Western European Standard Time", "WEST": "Western European Summer Time",
	"MSK": "Moscow Standard Time", "JST": "Japan Standard Time", "KST": "Korean Standard Time",
	"AEST": "Australian Eastern Standard Time", "AEDT": "Australian Eastern Daylight Time",
	"ACST": "Australian Central Standard Time", "ACDT": "Australian Central Daylight Time",
	"AWST": "Australian Western Standard Time", "NZST": "New Zealand Standard Time",
	"NZDT": "New Zealand Daylight Time", "SAST": "South Africa Standard Time",
}

func isUSZone(name string) bool {
	return strings.HasPrefix(name, "America/") || strings.HasPrefix(name, "US/") ||
		name == "Pacific/Honolulu" || name == "EST5EDT" || name == "CST6CDT" ||
		name == "MST7MDT" || name == "PST8PDT" || name == "EST" || name == "MST" || name == "HST"
}

// zoneName renders the timeZoneName part: short ("EST", "GMT+1"), long ("Eastern Standard
// Time"), shortOffset ("GMT-5") or longOffset ("GMT-05:00").
func zoneName(t time.Time, zone, style string) string {
	abbr, offset := t.Zone()
	isUTC := t.Location() == time.UTC
	switch style {
	case "short":
		if isUTC {
			return "UTC"
		}
		if _, ok := usAbbreviations[abbr]; ok && isUSZone(zone) {
			return abbr
		}
		return gmtOffset(offset, false)
	case "long":
		if isUTC {
			return longNames["UTC"]
		}
		if n, ok := usAbbreviations[abbr]; ok && isUSZone(zone) {
			return n
		}
		switch {
		case abbr == "IST" && zone == "Asia/Kolkata", abbr == "IST" && zone == "Asia/Calcutta":
			return "India Standard Time"
		case abbr == "IST" && zone == "Europe/Dublin":
			return "Irish Standard Time"
		case abbr == "CST" && (zone == "Asia/Shanghai" || zone == "Asia/Taipei"):
			return "China Standard Time"
		}
		if n, ok := longNames[abbr]; ok {
			return n
		}
		return gmtOffset(offset, true)
	case "longOffset":
		return gmtOffset(offset, true)
	default: // shortOffset and anything else
		return gmtOffset(offset, false)
	}
}

func gmtOffset(seconds int, long bool) string {
	if seconds == 0 {
		return "GMT"
	}
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	h, m := seconds/3600, seconds%3600/60
	if long {
		return fmt.Sprintf("GMT%s%02d:%02d", sign, h, m)
	}
	if m != 0 {
		return fmt.Sprintf("GMT%s%d:%02d", sign, h, m)
	}
	return fmt.Sprintf("GMT%s%d", sign, h)
}

func joinParts(ps []part) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.value)
	}
	return b.String()
}
