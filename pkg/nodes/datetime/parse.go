package datetime

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
)

// parseString is moment(s) (utc false) or moment.utc(s) (utc true) for a string: ISO 8601,
// then RFC 2822, then JavaScript's Date parser. zoned reports whether the string named its
// offset; without one, moment-timezone reads the wall time in the zone it is given.
func parseString(s string, utc bool) (m moment, zoned bool) {
	if m, zoned, ok := parseISO(s, utc); ok {
		return m, zoned
	}
	if t, ok := parseRFC2822(s); ok {
		return wrap(t, utc), true
	}
	t, ok := jsv.ParseDate(s)
	if !ok {
		return invalidMoment(), true
	}
	if utc && t.Location() == time.Local {
		// moment.utc falls back to new Date(s + " UTC"): the wall time is UTC.
		t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	}
	// The Date fallback gives an instant; moment-timezone does not shift it.
	return wrap(t, utc), true
}

func wrap(t time.Time, utc bool) moment {
	if utc {
		return moment{t: t.UTC(), valid: true, utc: true}
	}
	return localMoment(t)
}

var (
	isoExtended = regexp.MustCompile(`^\s*((?:[+-]\d{6}|\d{4})-(?:\d\d-\d\d|W\d\d-\d|W\d\d|\d\d\d|\d\d))(?:(T| )(\d\d(?::\d\d(?::\d\d(?:[.,]\d+)?)?)?)([+-]\d\d(?::?\d\d)?|\s*Z)?)?$`)
	isoBasic    = regexp.MustCompile(`^\s*((?:[+-]\d{6}|\d{4})(?:\d\d\d\d|W\d\d\d|W\d\d|\d\d\d|\d\d|))(?:(T| )(\d\d(?:\d\d(?:\d\d(?:[.,]\d+)?)?)?)([+-]\d\d(?::?\d\d)?|\s*Z)?)?$`)
	digits      = regexp.MustCompile(`\d+`)
)

// parseISO reads the ISO 8601 forms moment accepts (calendar, week and ordinal dates, basic
// and extended). ok is false when s is not ISO; a matching string with impossible values is
// an invalid moment.
func parseISO(s string, utc bool) (m moment, zoned, ok bool) {
	g := isoExtended.FindStringSubmatch(s)
	if g == nil {
		g = isoBasic.FindStringSubmatch(s)
	}
	if g == nil {
		return moment{}, false, false
	}
	date, clock, zone := strings.ReplaceAll(g[1], "-", ""), strings.ReplaceAll(g[3], ":", ""), strings.TrimSpace(g[4])
	sign := 1
	if date[0] == '+' || date[0] == '-' {
		if date[0] == '-' {
			sign = -1
		}
		date = date[1:]
		date = date[:6] + "|" + date[6:]
	} else {
		date = date[:4] + "|" + date[4:]
	}
	yearStr, rest, _ := strings.Cut(date, "|")
	year, _ := strconv.Atoi(yearStr)
	year *= sign
	month, day := 1, 1
	var base time.Time
	switch {
	case strings.HasPrefix(rest, "W"):
		w, _ := strconv.Atoi(rest[1:3])
		wd := 1
		if len(rest) > 3 {
			wd, _ = strconv.Atoi(rest[3:])
		}
		if w < 1 || w > 53 || wd < 1 || wd > 7 {
			return invalidMoment(), true, true
		}
		jan4 := time.Date(year, 1, 4, 0, 0, 0, 0, time.UTC)
		monday := jan4.AddDate(0, 0, -((int(jan4.Weekday()) + 6) % 7))
		base = monday.AddDate(0, 0, (w-1)*7+wd-1)
		month, day = int(base.Month()), base.Day()
		year = base.Year()
	case len(rest) == 3:
		doy, _ := strconv.Atoi(rest)
		if doy < 1 || doy > 366 || doy == 366 && daysIn(year, 2) == 28 {
			return invalidMoment(), true, true
		}
		base = time.Date(year, 1, doy, 0, 0, 0, 0, time.UTC)
		month, day = int(base.Month()), base.Day()
	case len(rest) >= 2:
		month, _ = strconv.Atoi(rest[:2])
		if len(rest) == 4 {
			day, _ = strconv.Atoi(rest[2:])
		}
	}
	var hour, minute, sec, ns int
	if clock != "" {
		whole, frac, _ := strings.Cut(strings.ReplaceAll(clock, ",", "."), ".")
		parts := []*int{&hour, &minute, &sec}
		for i := 0; i+2 <= len(whole) && i/2 < 3; i += 2 {
			*parts[i/2], _ = strconv.Atoi(whole[i : i+2])
		}
		if frac != "" {
			f, _ := strconv.ParseFloat("0."+frac, 64)
			ns = int(math.Floor(f*1000)) * 1e6
		}
	}
	if !validParts(year, month, day, hour, minute, sec, ns) {
		return invalidMoment(), true, true
	}
	loc := time.Local
	if utc {
		loc = time.UTC
	}
	if zone != "" {
		loc, zoned = offsetZone(zone), true
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, ns, loc)
	return wrap(t, utc), zoned, true
}

// validParts is moment's overflow check; 24:00:00.000 is the start of the next day.
func validParts(year, month, day, hour, minute, sec, ns int) bool {
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, time.Month(month)) {
		return false
	}
	if hour == 24 {
		return minute == 0 && sec == 0 && ns == 0
	}
	return hour >= 0 && hour < 24 && minute >= 0 && minute < 60 && sec >= 0 && sec < 60
}

// offsetZone reads "Z", "+05", "+0530" or "+05:30".
func offsetZone(z string) *time.Location {
	if z == "" || z == "Z" || z == "z" {
		return time.UTC
	}
	ds := digits.FindAllString(z, -1)
	d := strings.Join(ds, "")
	h, _ := strconv.Atoi(d[:2])
	mins := 0
	if len(d) >= 4 {
		mins, _ = strconv.Atoi(d[2:4])
	}
	off := (h*60 + mins) * 60
	if z[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off)
}

var rfc2822 = regexp.MustCompile(`^(?:(Mon|Tue|Wed|Thu|Fri|Sat|Sun),?\s)?(\d{1,2})\s(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s(\d{2,4})\s(\d\d):(\d\d)(?::(\d\d))?\s(?:(UT|GMT|[ECMP][SD]T)|([Zz])|([+-]\d{4}))$`)

var rfcZones = map[string]int{"UT": 0, "GMT": 0, "EDT": -4, "EST": -5, "CDT": -5, "CST": -6, "MDT": -6, "MST": -7, "PDT": -7, "PST": -8}

// parseRFC2822 reads RFC 2822 dates as moment does (comments and extra spaces removed).
func parseRFC2822(s string) (time.Time, bool) {
	s = regexp.MustCompile(`\([^)]*\)|[\n\t]`).ReplaceAllString(s, " ")
	s = strings.TrimSpace(regexp.MustCompile(`(\s\s+)`).ReplaceAllString(s, " "))
	g := rfc2822.FindStringSubmatch(s)
	if g == nil {
		return time.Time{}, false
	}
	day, _ := strconv.Atoi(g[2])
	month := strings.Index("JanFebMarAprMayJunJulAugSepOctNovDec", g[3])/3 + 1
	year, _ := strconv.Atoi(g[4])
	if len(g[4]) == 2 {
		year += 1900
		if year < 1950 {
			year += 100
		}
	}
	hour, _ := strconv.Atoi(g[5])
	minute, _ := strconv.Atoi(g[6])
	sec, _ := strconv.Atoi(g[7])
	off := 0
	switch {
	case g[8] != "":
		off = rfcZones[g[8]] * 3600
	case g[10] != "":
		n, _ := strconv.Atoi(g[10][1:])
		off = (n/100*60 + n%100) * 60
		if g[10][0] == '-' {
			off = -off
		}
	}
	if !validParts(year, month, day, hour, minute, sec, 0) {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.FixedZone("", off))
	if g[1] != "" && t.Weekday().String()[:3] != g[1] {
		return time.Time{}, false
	}
	return t, true
}
