package expr

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// goja has no Intl. Luxon needs Intl.DateTimeFormat for time-zone offsets (IANAZone.offset
// formats a date in the zone and reads the parts back), zone validation, zone names (the
// ZZZZ/ZZZZZ tokens) and localised output (toLocaleString, the D/t/f macro tokens). This is a
// Go implementation of that constructor, backed by time.LoadLocation, that renders the en-US
// locale only (whatever locale is asked for). Intl.NumberFormat, RelativeTimeFormat, Locale
// and PluralRules are absent on purpose: Luxon then takes its English fallbacks.

// dtfOptions are the resolved options of one Intl.DateTimeFormat.
type dtfOptions struct {
	loc      *time.Location
	zoneName string
	hour12   bool
	cycle    string // h11, h12, h23 or h24

	year, month, day, weekday, era string
	hour, minute, second           string
	timeZoneName                   string
	fractionalSecondDigits         int
}

var locations sync.Map // zone name → *time.Location; LoadLocation reads the zone files each time

func loadLocation(name string) (*time.Location, error) {
	if l, ok := locations.Load(name); ok {
		return l.(*time.Location), nil
	}
	var (
		l   *time.Location
		err error
	)
	switch strings.ToUpper(name) {
	case "UTC", "ETC/UTC", "GMT", "ETC/GMT", "Z":
		l = time.UTC
	default:
		l, err = time.LoadLocation(name)
		if err != nil {
			return nil, err
		}
	}
	locations.Store(name, l)
	return l, nil
}

// systemZoneName is the zone that Intl reports as the system's, and that a DateTimeFormat
// without a timeZone option uses.
func systemZoneName() string {
	if n := time.Local.String(); n != "" && n != "Local" {
		return n
	}
	return "UTC"
}

func installIntl(rt *goja.Runtime) error {
	intl := rt.NewObject()
	ctor := rt.ToValue(func(call goja.ConstructorCall) *goja.Object {
		opts, err := resolveDTFOptions(rt, call.Argument(1))
		if err != nil {
			panic(rt.NewGoError(err))
		}
		newDateTimeFormat(rt, call.This, opts)
		return nil
	}).(*goja.Object)
	if err := ctor.Set("supportedLocalesOf", func(call goja.FunctionCall) goja.Value {
		return rt.NewArray("en-US")
	}); err != nil {
		return err
	}
	if err := intl.Set("DateTimeFormat", ctor); err != nil {
		return err
	}
	return rt.GlobalObject().DefineDataProperty("Intl", intl, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func resolveDTFOptions(rt *goja.Runtime, arg goja.Value) (*dtfOptions, error) {
	o := &dtfOptions{hour12: true, cycle: "h12"}
	var obj *goja.Object
	if arg != nil && !goja.IsUndefined(arg) && !goja.IsNull(arg) {
		obj = arg.ToObject(rt)
	}
	str := func(name string) string {
		if obj == nil {
			return ""
		}
		v := obj.Get(name)
		if v == nil || goja.IsUndefined(v) {
			return ""
		}
		return v.String()
	}

	o.zoneName = str("timeZone")
	if o.zoneName == "" {
		o.zoneName = systemZoneName()
	}
	loc, err := loadLocation(o.zoneName)
	if err != nil {
		return nil, fmt.Errorf("RangeError: Invalid time zone specified: %s", o.zoneName)
	}
	o.loc = loc

	if c := str("hourCycle"); c != "" {
		o.cycle = c
		o.hour12 = c == "h11" || c == "h12"
	}
	if obj != nil {
		if h := obj.Get("hour12"); h != nil && !goja.IsUndefined(h) {
			o.hour12 = h.ToBoolean()
			if o.hour12 {
				o.cycle = "h12"
			} else {
				o.cycle = "h23"
			}
		}
	}

	o.year, o.month, o.day = str("year"), str("month"), str("day")
	o.weekday, o.era = str("weekday"), str("era")
	o.hour, o.minute, o.second = str("hour"), str("minute"), str("second")
	o.timeZoneName = str("timeZoneName")
	if obj != nil {
		if f := obj.Get("fractionalSecondDigits"); f != nil && !goja.IsUndefined(f) {
			o.fractionalSecondDigits = int(f.ToInteger())
		}
	}
	applyStyles(o, str("dateStyle"), str("timeStyle"))

	if o.year == "" && o.month == "" && o.day == "" && o.weekday == "" && o.hour == "" &&
		o.minute == "" && o.second == "" && o.fractionalSecondDigits == 0 {
		o.year, o.month, o.day = "numeric", "numeric", "numeric"
	}
	return o, nil
}

// applyStyles maps dateStyle/timeStyle to the components en-US uses for them.
func applyStyles(o *dtfOptions, dateStyle, timeStyle string) {
	switch dateStyle {
	case "full":
		o.weekday, o.month, o.day, o.year = "long", "long", "numeric", "numeric"
	case "long":
		o.month, o.day, o.year = "long", "numeric", "numeric"
	case "medium":
		o.month, o.day, o.year = "short", "numeric", "numeric"
	case "short":
		o.month, o.day, o.year = "numeric", "numeric", "2-digit"
	}
	switch timeStyle {
	case "full":
		o.hour, o.minute, o.second, o.timeZoneName = "numeric", "2-digit", "2-digit", "long"
	case "long":
		o.hour, o.minute, o.second, o.timeZoneName = "numeric", "2-digit", "2-digit", "short"
	case "medium":
		o.hour, o.minute, o.second = "numeric", "2-digit", "2-digit"
	case "short":
		o.hour, o.minute = "numeric", "2-digit"
	}
}

func newDateTimeFormat(rt *goja.Runtime, this *goja.Object, o *dtfOptions) {
	timeOf := func(call goja.FunctionCall) time.Time {
		ms := float64(time.Now().UnixMilli())
		if d := call.Argument(0); !goja.IsUndefined(d) {
			ms = d.ToFloat()
		}
		if math.IsNaN(ms) || math.IsInf(ms, 0) {
			panic(rt.NewGoError(fmt.Errorf("RangeError: Invalid time value")))
		}
		return time.UnixMilli(int64(ms)).In(o.loc)
	}
	_ = this.Set("format", func(call goja.FunctionCall) goja.Value {
		var b strings.Builder
		for _, p := range o.parts(timeOf(call)) {
			b.WriteString(p.value)
		}
		return rt.ToValue(b.String())
	})
	_ = this.Set("formatToParts", func(call goja.FunctionCall) goja.Value {
		parts := o.parts(timeOf(call))
		out := make([]any, len(parts))
		for i, p := range parts {
			obj := rt.NewObject()
			_ = obj.Set("type", p.typ)
			_ = obj.Set("value", p.value)
			out[i] = obj
		}
		return rt.NewArray(out...)
	})
	_ = this.Set("resolvedOptions", func(goja.FunctionCall) goja.Value {
		r := rt.NewObject()
		_ = r.Set("locale", "en-US")
		_ = r.Set("calendar", "gregory")
		_ = r.Set("numberingSystem", "latn")
		_ = r.Set("timeZone", o.zoneName)
		for name, val := range map[string]string{
			"year": o.year, "month": o.month, "day": o.day, "weekday": o.weekday, "era": o.era,
			"hour": o.hour, "minute": o.minute, "second": o.second, "timeZoneName": o.timeZoneName,
		} {
			if val != "" {
				_ = r.Set(name, val)
			}
		}
		if o.hour != "" {
			_ = r.Set("hourCycle", o.cycle)
			_ = r.Set("hour12", o.hour12)
		}
		return r
	})
}

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
	if o.minute != "" {
		if wroteAny {
			lit(":")
		}
		style := o.minute
		if wroteAny {
			style = "2-digit"
		}
		add("minute", numeric(t.Minute(), style))
		wroteAny = true
	}
	if o.second != "" {
		if wroteAny {
			lit(":")
		}
		style := o.second
		if wroteAny {
			style = "2-digit"
		}
		add("second", numeric(t.Second(), style))
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
