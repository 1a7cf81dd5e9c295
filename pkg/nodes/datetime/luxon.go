package datetime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// This file holds the parts of Luxon that Date & Time version 2 uses: its ISO output
// (DateTime.toString), its format tokens (toFormat, English locale), startOf, calendar
// arithmetic (plus/minus), and diff with a Duration's toObject and ISO form.

// luxonISO is DateTime.toString(): ISO 8601 with milliseconds and the zone's offset.
func luxonISO(t time.Time) string {
	return t.Format("2006-01-02T15:04:05.000-07:00")
}

// formatPart is one piece of a Luxon format: a token (a run of one letter) or literal text.
type formatPart struct {
	text    string
	literal bool
}

// splitFormat cuts a Luxon format into tokens and literals: text in single quotes is literal
// (two quotes in a row give one), and so is a run of letters Luxon has no token for.
func splitFormat(f string) []formatPart {
	var parts []formatPart
	for i := 0; i < len(f); {
		c := f[i]
		if c == '\'' {
			j := strings.IndexByte(f[i+1:], '\'')
			if j < 0 {
				parts = append(parts, formatPart{f[i+1:], true})
				break
			}
			if j == 0 {
				parts = append(parts, formatPart{"'", true})
			} else {
				parts = append(parts, formatPart{f[i+1 : i+1+j], true})
			}
			i += j + 2
			continue
		}
		j := i
		for j < len(f) && f[j] == c {
			j++
		}
		parts = append(parts, formatPart{text: f[i:j]})
		i = j
	}
	return parts
}

// luxonFormat is DateTime.toFormat(f).
func luxonFormat(t time.Time, f string) string {
	var b strings.Builder
	for _, p := range splitFormat(f) {
		if s, ok := luxonToken(t, p.text); ok && !p.literal {
			b.WriteString(s)
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

func pad(n, width int) string {
	s := strconv.Itoa(int(math.Abs(float64(n))))
	for len(s) < width {
		s = "0" + s
	}
	if n < 0 {
		return "-" + s
	}
	return s
}

func luxonOffset(t time.Time, sep bool, short bool) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	h, m := off/3600, off%3600/60
	if short {
		if m == 0 {
			return sign + strconv.Itoa(h)
		}
		return sign + strconv.Itoa(h) + ":" + pad(m, 2)
	}
	if sep {
		return sign + pad(h, 2) + ":" + pad(m, 2)
	}
	return sign + pad(h, 2) + pad(m, 2)
}

func hour12(t time.Time) int {
	h := t.Hour() % 12
	if h == 0 {
		return 12
	}
	return h
}

// luxonToken formats one token of Luxon's table; false for a run that is not a token.
func luxonToken(t time.Time, tok string) (string, bool) {
	year, week := t.ISOWeek()
	switch tok {
	case "S":
		return strconv.Itoa(t.Nanosecond() / 1e6), true
	case "u", "SSS":
		return pad(t.Nanosecond()/1e6, 3), true
	case "s":
		return strconv.Itoa(t.Second()), true
	case "ss":
		return pad(t.Second(), 2), true
	case "m":
		return strconv.Itoa(t.Minute()), true
	case "mm":
		return pad(t.Minute(), 2), true
	case "h":
		return strconv.Itoa(hour12(t)), true
	case "hh":
		return pad(hour12(t), 2), true
	case "H":
		return strconv.Itoa(t.Hour()), true
	case "HH":
		return pad(t.Hour(), 2), true
	case "Z":
		return luxonOffset(t, true, true), true
	case "ZZ":
		return luxonOffset(t, true, false), true
	case "ZZZ":
		return luxonOffset(t, false, false), true
	case "ZZZZ", "ZZZZZ":
		name, _ := t.Zone()
		return name, true
	case "z":
		return t.Location().String(), true
	case "a":
		if t.Hour() < 12 {
			return "AM", true
		}
		return "PM", true
	case "d":
		return strconv.Itoa(t.Day()), true
	case "dd":
		return pad(t.Day(), 2), true
	case "c", "E":
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		return strconv.Itoa(wd), true
	case "ccc", "EEE":
		return t.Weekday().String()[:3], true
	case "cccc", "EEEE":
		return t.Weekday().String(), true
	case "ccccc", "EEEEE":
		return t.Weekday().String()[:1], true
	case "L", "M":
		return strconv.Itoa(int(t.Month())), true
	case "LL", "MM":
		return pad(int(t.Month()), 2), true
	case "LLL", "MMM":
		return t.Month().String()[:3], true
	case "LLLL", "MMMM":
		return t.Month().String(), true
	case "LLLLL", "MMMMM":
		return t.Month().String()[:1], true
	case "y":
		return strconv.Itoa(t.Year()), true
	case "yy":
		return pad(t.Year()%100, 2), true
	case "yyyy":
		return pad(t.Year(), 4), true
	case "yyyyyy":
		return pad(t.Year(), 6), true
	case "G":
		return "AD", true
	case "kk":
		return pad(year%100, 2), true
	case "kkkk":
		return pad(year, 4), true
	case "W":
		return strconv.Itoa(week), true
	case "WW":
		return pad(week, 2), true
	case "o":
		return strconv.Itoa(t.YearDay()), true
	case "ooo":
		return pad(t.YearDay(), 3), true
	case "q":
		return strconv.Itoa((int(t.Month())-1)/3 + 1), true
	case "qq":
		return pad((int(t.Month())-1)/3+1, 2), true
	case "X":
		return strconv.FormatInt(t.Unix(), 10), true
	case "x":
		return strconv.FormatInt(t.UnixMilli(), 10), true
	case "D":
		return fmt.Sprintf("%d/%d/%d", t.Month(), t.Day(), t.Year()), true
	case "DD":
		return fmt.Sprintf("%s %d, %d", t.Month().String()[:3], t.Day(), t.Year()), true
	case "DDD":
		return fmt.Sprintf("%s %d, %d", t.Month(), t.Day(), t.Year()), true
	case "DDDD":
		return fmt.Sprintf("%s, %s %d, %d", t.Weekday(), t.Month(), t.Day(), t.Year()), true
	case "t":
		return fmt.Sprintf("%d:%s %s", hour12(t), pad(t.Minute(), 2), ampm(t)), true
	case "tt":
		return fmt.Sprintf("%d:%s:%s %s", hour12(t), pad(t.Minute(), 2), pad(t.Second(), 2), ampm(t)), true
	case "T":
		return pad(t.Hour(), 2) + ":" + pad(t.Minute(), 2), true
	case "TT":
		return pad(t.Hour(), 2) + ":" + pad(t.Minute(), 2) + ":" + pad(t.Second(), 2), true
	}
	return "", false
}

func ampm(t time.Time) string {
	if t.Hour() < 12 {
		return "AM"
	}
	return "PM"
}

// luxonUnits are Luxon's duration units, largest first, with their singular names.
var luxonUnits = []struct{ plural, singular string }{
	{"years", "year"}, {"quarters", "quarter"}, {"months", "month"}, {"weeks", "week"},
	{"days", "day"}, {"hours", "hour"}, {"minutes", "minute"}, {"seconds", "second"},
	{"milliseconds", "millisecond"},
}

// normUnit turns "day" or "days" into "days"; "" for an unknown unit.
func normUnit(u string) string {
	for _, x := range luxonUnits {
		if u == x.plural || u == x.singular {
			return x.plural
		}
	}
	return ""
}

var unitMillis = map[string]float64{
	"hours": 3600e3, "minutes": 60e3, "seconds": 1e3, "milliseconds": 1,
}

// luxonPlus is DateTime.plus({unit: n}): calendar units move the wall time (the day of month
// clamped to the month's length), time units move the instant. A fractional amount of a
// calendar unit is not supported by Luxon either; it is truncated.
func luxonPlus(t time.Time, unit string, n float64) time.Time {
	switch unit {
	case "years":
		return addCalendarMonths(t, int(n)*12)
	case "quarters":
		return addCalendarMonths(t, int(n)*3)
	case "months":
		return addCalendarMonths(t, int(n))
	case "weeks":
		return t.AddDate(0, 0, int(n)*7)
	case "days":
		return t.AddDate(0, 0, int(n))
	}
	return t.Add(time.Duration(math.Round(n * unitMillis[unit] * float64(time.Millisecond))))
}

func addCalendarMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	if last := daysIn(first.Year(), first.Month()); d > last {
		d = last
	}
	return time.Date(first.Year(), first.Month(), d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

// luxonStartOf is DateTime.startOf(unit); weeks start on Monday.
func luxonStartOf(t time.Time, unit string) time.Time {
	y, m, d := t.Date()
	loc := t.Location()
	switch normUnit(unit) {
	case "years":
		return time.Date(y, 1, 1, 0, 0, 0, 0, loc)
	case "quarters":
		return time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, loc)
	case "months":
		return time.Date(y, m, 1, 0, 0, 0, 0, loc)
	case "weeks":
		wd := (int(t.Weekday()) + 6) % 7
		return time.Date(y, m, d-wd, 0, 0, 0, 0, loc)
	case "days":
		return time.Date(y, m, d, 0, 0, 0, 0, loc)
	case "hours":
		return time.Date(y, m, d, t.Hour(), 0, 0, 0, loc)
	case "minutes":
		return time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, loc)
	case "seconds":
		return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, loc)
	}
	return t
}

// luxonDiff is later.diff(earlier, units).toObject(): whole calendar units from the largest
// down, then the remaining time in the time units, the smallest unit taking the fraction.
// The result holds every requested unit (plural names), in Luxon's order.
func luxonDiff(later, earlier time.Time, units []string) []durationPart {
	if later.Before(earlier) {
		parts := luxonDiff(earlier, later, units)
		for i := range parts {
			parts[i].value = -parts[i].value
			if parts[i].value == 0 {
				parts[i].value = 0 // no negative zero
			}
		}
		return parts
	}
	want := map[string]bool{}
	for _, u := range units {
		if n := normUnit(u); n != "" {
			want[n] = true
		}
	}
	var parts []durationPart
	cursor := earlier
	lowestCalendar := ""
	var highWater time.Time
	for _, u := range []string{"years", "quarters", "months", "weeks", "days"} {
		if !want[u] {
			continue
		}
		n := calendarDiff(cursor, later, u)
		highWater = luxonPlus(cursor, u, float64(n))
		if highWater.After(later) {
			n--
			highWater = luxonPlus(cursor, u, float64(n))
		}
		cursor = highWater
		parts = append(parts, durationPart{u, float64(n)})
		lowestCalendar = u
	}
	remaining := float64(later.Sub(cursor)) / float64(time.Millisecond)
	var timeUnits []string
	for _, u := range []string{"hours", "minutes", "seconds", "milliseconds"} {
		if want[u] {
			timeUnits = append(timeUnits, u)
		}
	}
	if len(timeUnits) == 0 {
		if lowestCalendar != "" && remaining > 0 {
			next := luxonPlus(cursor, lowestCalendar, 1)
			parts[len(parts)-1].value += remaining / (float64(next.Sub(cursor)) / float64(time.Millisecond))
		}
		return parts
	}
	for i, u := range timeUnits {
		v := remaining / unitMillis[u]
		if i < len(timeUnits)-1 {
			v = math.Trunc(v)
		}
		remaining -= v * unitMillis[u]
		parts = append(parts, durationPart{u, v})
	}
	return parts
}

// calendarDiff is a first guess at the whole units from a to b (a <= b); luxonDiff corrects
// it by one when adding it overshoots.
func calendarDiff(a, b time.Time, unit string) int {
	months := (b.Year()-a.Year())*12 + int(b.Month()) - int(a.Month())
	days := int(math.Floor(float64(dateOnly(b).Sub(dateOnly(a)).Hours() / 24)))
	switch unit {
	case "years":
		return b.Year() - a.Year()
	case "quarters":
		return months / 3
	case "months":
		return months
	case "weeks":
		return days / 7
	}
	return days
}

func dateOnly(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

type durationPart struct {
	unit  string
	value float64
}

// durationObject is Duration.toObject().
func durationObject(parts []durationPart) map[string]any {
	out := make(map[string]any, len(parts))
	for _, p := range parts {
		out[p.unit] = p.value
	}
	return out
}

// durationISO is Duration.toISO(): PnYnMnWnDTnHnMnS, quarters counted as 3 months and
// milliseconds as fractions of a second; PT0S when empty.
func durationISO(parts []durationPart) string {
	v := map[string]float64{}
	for _, p := range parts {
		v[p.unit] = p.value
	}
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	s := "P"
	if v["years"] != 0 {
		s += num(v["years"]) + "Y"
	}
	if m := v["months"] + v["quarters"]*3; m != 0 {
		s += num(m) + "M"
	}
	if v["weeks"] != 0 {
		s += num(v["weeks"]) + "W"
	}
	if v["days"] != 0 {
		s += num(v["days"]) + "D"
	}
	sec := v["seconds"] + v["milliseconds"]/1000
	if v["hours"] != 0 || v["minutes"] != 0 || sec != 0 {
		s += "T"
	}
	if v["hours"] != 0 {
		s += num(v["hours"]) + "H"
	}
	if v["minutes"] != 0 {
		s += num(v["minutes"]) + "M"
	}
	if sec != 0 {
		s += strconv.FormatFloat(math.Round(sec*1000)/1000, 'f', -1, 64) + "S"
	}
	if s == "P" {
		s = "PT0S"
	}
	return s
}
