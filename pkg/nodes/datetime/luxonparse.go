package datetime

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// luxonTokenPatterns are the tokens DateTime.fromFormat reads, with what each matches.
var luxonTokenPatterns = map[string]string{
	"yyyy": `(\d{4})`, "yy": `(\d{2})`, "y": `(\d{1,6})`,
	"MM": `(\d{2})`, "M": `(\d{1,2})`, "LL": `(\d{2})`, "L": `(\d{1,2})`,
	"MMM": `([A-Za-z]{3})`, "LLL": `([A-Za-z]{3})`, "MMMM": `([A-Za-z]+)`, "LLLL": `([A-Za-z]+)`,
	"dd": `(\d{2})`, "d": `(\d{1,2})`,
	"HH": `(\d{2})`, "H": `(\d{1,2})`, "hh": `(\d{2})`, "h": `(\d{1,2})`,
	"mm": `(\d{2})`, "m": `(\d{1,2})`, "ss": `(\d{2})`, "s": `(\d{1,2})`,
	"SSS": `(\d{3})`, "S": `(\d{1,3})`, "u": `(\d{3})`,
	"a":   `([AaPp][Mm])`,
	"EEE": `[A-Za-z]{3}`, "EEEE": `[A-Za-z]+`, "ccc": `[A-Za-z]{3}`, "cccc": `[A-Za-z]+`,
	"X": `(-?\d+)`, "x": `(-?\d+)`,
	"Z": `([+-]\d{1,2}(?::?\d{2})?|Z)`, "ZZ": `([+-]\d{2}:\d{2}|Z)`, "ZZZ": `([+-]\d{4}|Z)`,
}

// luxonParse is DateTime.fromFormat(s, f, {zone}): the whole string must match the format.
// As in Luxon, the date units larger than the largest one the string gives come from now (a
// time alone is today), the smaller ones start at their minimum. The result is in loc unless
// the string names an offset.
func luxonParse(s, f string, loc *time.Location, now time.Time) (time.Time, bool) {
	var re strings.Builder
	var groups []string
	re.WriteString("^")
	for _, part := range splitFormat(f) {
		p, ok := luxonTokenPatterns[part.text]
		switch {
		case part.literal || !ok:
			re.WriteString(regexp.QuoteMeta(part.text))
		default:
			re.WriteString(p)
			if strings.HasPrefix(p, "(") {
				groups = append(groups, part.text)
			}
		}
	}
	re.WriteString("$")
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return time.Time{}, false
	}
	m := rx.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}, false
	}
	year, month, day, hour, minute, sec, ms := 0, 1, 1, 0, 0, 0, 0
	pm, hasAmPm := false, false
	// largest is the largest unit given: 3 year, 2 month, 1 day, 0 none.
	largest := 0
	for _, tok := range groups {
		switch tok[0] {
		case 'y':
			largest = max(largest, 3)
		case 'M', 'L':
			largest = max(largest, 2)
		case 'd':
			largest = max(largest, 1)
		}
	}
	today := now.In(loc)
	if largest < 3 {
		year = today.Year()
	}
	if largest < 2 {
		month = int(today.Month())
	}
	if largest < 1 {
		day = today.Day()
	}
	for gi, tok := range groups {
		v := m[gi+1]
		n, _ := strconv.Atoi(v)
		switch tok {
		case "yyyy", "y":
			year = n
		case "yy":
			year = 2000 + n
			if n > 60 {
				year = 1900 + n
			}
		case "MM", "M", "LL", "L":
			month = n
		case "MMM", "LLL", "MMMM", "LLLL":
			found := false
			for mo := time.January; mo <= time.December; mo++ {
				name := mo.String()
				if strings.EqualFold(v, name) || strings.EqualFold(v, name[:3]) {
					month, found = int(mo), true
				}
			}
			if !found {
				return time.Time{}, false
			}
		case "dd", "d":
			day = n
		case "HH", "H", "hh", "h":
			hour = n
		case "mm", "m":
			minute = n
		case "ss", "s":
			sec = n
		case "SSS", "S", "u":
			ms = n
		case "a":
			hasAmPm, pm = true, strings.EqualFold(v, "pm")
		case "X", "x":
			i, _ := strconv.ParseInt(v, 10, 64)
			if tok == "X" {
				return time.Unix(i, 0).In(loc), true
			}
			return time.UnixMilli(i).In(loc), true
		case "Z", "ZZ", "ZZZ":
			if v != "Z" {
				v = strings.ReplaceAll(v, ":", "")
				sign := 1
				if v[0] == '-' {
					sign = -1
				}
				h, _ := strconv.Atoi(v[1:min(3, len(v))])
				mins := 0
				if len(v) > 3 {
					mins, _ = strconv.Atoi(v[3:])
				}
				loc = time.FixedZone("", sign*(h*3600+mins*60))
			} else {
				loc = time.UTC
			}
		}
	}
	if hasAmPm {
		hour %= 12
		if pm {
			hour += 12
		}
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, time.Month(month)) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, ms*1e6, loc), true
}
