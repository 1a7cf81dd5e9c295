package datetime

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// moment is the part of a moment.js object the Date & Time node uses: an instant shown in
// local time, in UTC (moment.utc) or in a named zone (moment-timezone's tz).
type moment struct {
	t     time.Time
	valid bool
	utc   bool // UTC mode: moment.utc(), or a zone set with tz()
	named bool // a moment-timezone zone is set; z and zz give its abbreviation
}

func invalidMoment() moment { return moment{} }

func localMoment(t time.Time) moment { return moment{t: t.In(time.Local), valid: true} }

// tz is moment-timezone's tz(name): the same instant, shown in the zone.
func (m moment) tz(loc *time.Location) moment {
	if !m.valid {
		return m
	}
	return moment{t: m.t.In(loc), valid: true, utc: true, named: true}
}

// toUTC is moment's utc(): the same instant, shown in UTC.
func (m moment) toUTC() moment {
	if !m.valid {
		return m
	}
	return moment{t: m.t.UTC(), valid: true, utc: true}
}

// add is moment's add(amount, unit): calendar units move the wall-clock date (months keep
// the day, clamped to the month's length), time units move the instant.
func (m moment) add(amount float64, unit string) moment {
	if !m.valid {
		return m
	}
	switch unit {
	case "milliseconds", "seconds", "minutes", "hours":
		ms := map[string]float64{"milliseconds": 1, "seconds": 1e3, "minutes": 6e4, "hours": 36e5}[unit]
		m.t = m.t.Add(time.Duration(math.Round(amount*ms)) * time.Millisecond)
	case "days", "weeks":
		days := amount
		if unit == "weeks" {
			days *= 7
		}
		m.t = m.t.AddDate(0, 0, int(absRound(days)))
	case "months", "quarters", "years":
		months := amount * map[string]float64{"months": 1, "quarters": 3, "years": 12}[unit]
		m.t = addMonths(m.t, int(absRound(months)))
	}
	return m
}

// absRound rounds half away from zero, as moment does for calendar amounts.
func absRound(f float64) float64 {
	if f < 0 {
		return -math.Round(-f)
	}
	return math.Round(f)
}

func addMonths(t time.Time, n int) time.Time {
	y, mo, d := t.Date()
	first := time.Date(y, mo+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	if last := daysIn(first.Year(), first.Month()); d > last {
		d = last
	}
	return first.AddDate(0, 0, d-1)
}

func daysIn(year int, month time.Month) int {
	return time.Date(year, month+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// toISOString is moment's toISOString(): UTC with milliseconds, "" for an invalid moment.
func (m moment) toISOString() (string, bool) {
	if !m.valid {
		return "", false
	}
	u := m.toUTC()
	if y := u.t.Year(); y < 0 || y > 9999 {
		return u.format("YYYYYY-MM-DD[T]HH:mm:ss.SSS[Z]"), true
	}
	return u.format("YYYY-MM-DD[T]HH:mm:ss.SSS[Z]"), true
}

var (
	localFormats = regexp.MustCompile(`(\[[^\[]*\])|(\\)?(LTS|LT|LL?L?L?|l{1,4})`)
	formatTokens = regexp.MustCompile(`(\[[^\[]*\])|(\\)?([Hh]mm(ss)?|Mo|MM?M?M?|Do|DDDo|DD?D?D?|ddd?d?|do?|w[o|w]?|W[o|W]?|Qo?|N{1,5}|YYYYYY|YYYYY|YYYY|YY|y{2,4}|yo?|gg(ggg?)?|GG(GGG?)?|e|E|a|A|hh?|HH?|kk?|mm?|ss?|S{1,9}|x|X|zz?|ZZ?|.)`)
	longDates    = map[string]string{
		"LTS": "h:mm:ss A", "LT": "h:mm A", "L": "MM/DD/YYYY", "LL": "MMMM D, YYYY",
		"LLL": "MMMM D, YYYY h:mm A", "LLLL": "dddd, MMMM D, YYYY h:mm A",
	}
)

// expandFormat replaces moment's localized tokens (L, LL, LT, …) with the English formats.
func expandFormat(f string) string {
	for range 5 {
		next := localFormats.ReplaceAllStringFunc(f, func(tok string) string {
			if strings.HasPrefix(tok, "[") || strings.HasPrefix(tok, `\`) {
				return tok
			}
			if long, ok := longDates[tok]; ok {
				return long
			}
			// l, ll, … are the short forms of L, LL, …
			long := longDates[strings.ToUpper(tok)]
			return strings.NewReplacer("MMMM", "MMM", "MM", "M", "DD", "D", "dddd", "ddd").Replace(long)
		})
		if next == f {
			break
		}
		f = next
	}
	return f
}

var (
	monthNames = []string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	dayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// format is moment's format(f) with the English locale.
func (m moment) format(f string) string {
	if !m.valid {
		return "Invalid date"
	}
	if f == "" {
		f = "YYYY-MM-DDTHH:mm:ssZ"
		if m.utc && m.offset() == 0 {
			f = "YYYY-MM-DDTHH:mm:ss[Z]"
		}
	}
	var b strings.Builder
	for _, tok := range formatTokens.FindAllString(expandFormat(f), -1) {
		if v, ok := m.token(tok); ok {
			b.WriteString(v)
			continue
		}
		// Brackets and backslashes escape literal text.
		if len(tok) > 1 && tok[0] == '[' && tok[len(tok)-1] == ']' {
			b.WriteString(tok[1 : len(tok)-1])
		} else {
			b.WriteString(strings.ReplaceAll(tok, `\`, ""))
		}
	}
	return b.String()
}

func (m moment) offset() int {
	_, off := m.t.Zone()
	return off / 60
}

func zeroFill(n, width int, forceSign bool) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	} else if forceSign {
		sign = "+"
	}
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return sign + s
}

func ordinal(n int) string {
	suffix := "th"
	if (n%100)/10 != 1 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// token formats one moment token; ok is false for literal text.
func (m moment) token(tok string) (string, bool) {
	t := m.t
	hour, minute, sec := t.Hour(), t.Minute(), t.Second()
	ms := t.Nanosecond() / 1e6
	h12 := hour % 12
	if h12 == 0 {
		h12 = 12
	}
	isoYear, isoWeek := t.ISOWeek()
	weekYear, week := localeWeek(t)
	switch tok {
	case "M":
		return strconv.Itoa(int(t.Month())), true
	case "Mo":
		return ordinal(int(t.Month())), true
	case "MM":
		return zeroFill(int(t.Month()), 2, false), true
	case "MMM":
		return monthNames[t.Month()-1][:3], true
	case "MMMM":
		return monthNames[t.Month()-1], true
	case "Q":
		return strconv.Itoa((int(t.Month()) + 2) / 3), true
	case "Qo":
		return ordinal((int(t.Month()) + 2) / 3), true
	case "D":
		return strconv.Itoa(t.Day()), true
	case "Do":
		return ordinal(t.Day()), true
	case "DD":
		return zeroFill(t.Day(), 2, false), true
	case "DDD":
		return strconv.Itoa(t.YearDay()), true
	case "DDDo":
		return ordinal(t.YearDay()), true
	case "DDDD":
		return zeroFill(t.YearDay(), 3, false), true
	case "d", "e":
		return strconv.Itoa(int(t.Weekday())), true
	case "do":
		return ordinal(int(t.Weekday())), true
	case "dd":
		return dayNames[t.Weekday()][:2], true
	case "ddd":
		return dayNames[t.Weekday()][:3], true
	case "dddd":
		return dayNames[t.Weekday()], true
	case "E":
		return strconv.Itoa((int(t.Weekday())+6)%7 + 1), true
	case "w":
		return strconv.Itoa(week), true
	case "wo":
		return ordinal(week), true
	case "ww":
		return zeroFill(week, 2, false), true
	case "W":
		return strconv.Itoa(isoWeek), true
	case "Wo":
		return ordinal(isoWeek), true
	case "WW":
		return zeroFill(isoWeek, 2, false), true
	case "Y":
		if y := t.Year(); y > 9999 {
			return "+" + strconv.Itoa(y), true
		}
		return zeroFill(t.Year(), 4, false), true
	case "YY", "yy":
		return zeroFill(t.Year()%100, 2, false), true
	case "YYYY", "yyyy", "y":
		return zeroFill(t.Year(), 4, false), true
	case "YYYYY":
		return zeroFill(t.Year(), 5, false), true
	case "YYYYYY":
		return zeroFill(t.Year(), 6, true), true
	case "yo":
		return ordinal(t.Year()), true
	case "N", "NN", "NNN", "NNNNN":
		return "AD", true
	case "NNNN":
		return "Anno Domini", true
	case "gg":
		return zeroFill(weekYear%100, 2, false), true
	case "gggg":
		return zeroFill(weekYear, 4, false), true
	case "ggggg":
		return zeroFill(weekYear, 5, false), true
	case "GG":
		return zeroFill(isoYear%100, 2, false), true
	case "GGGG":
		return zeroFill(isoYear, 4, false), true
	case "GGGGG":
		return zeroFill(isoYear, 5, false), true
	case "a", "A":
		s := "AM"
		if hour > 11 {
			s = "PM"
		}
		if tok == "a" {
			s = strings.ToLower(s)
		}
		return s, true
	case "H":
		return strconv.Itoa(hour), true
	case "HH":
		return zeroFill(hour, 2, false), true
	case "h":
		return strconv.Itoa(h12), true
	case "hh":
		return zeroFill(h12, 2, false), true
	case "k", "kk":
		k := hour
		if k == 0 {
			k = 24
		}
		if tok == "kk" {
			return zeroFill(k, 2, false), true
		}
		return strconv.Itoa(k), true
	case "hmm", "hmmss", "Hmm", "Hmmss":
		h := strconv.Itoa(h12)
		if tok[0] == 'H' {
			h = strconv.Itoa(hour)
		}
		s := h + zeroFill(minute, 2, false)
		if strings.HasSuffix(tok, "ss") {
			s += zeroFill(sec, 2, false)
		}
		return s, true
	case "m":
		return strconv.Itoa(minute), true
	case "mm":
		return zeroFill(minute, 2, false), true
	case "s":
		return strconv.Itoa(sec), true
	case "ss":
		return zeroFill(sec, 2, false), true
	case "z", "zz":
		switch {
		case m.named:
			name, _ := t.Zone()
			return name, true
		case m.utc && tok == "z":
			return "UTC", true
		case m.utc:
			return "Coordinated Universal Time", true
		}
		return "", true
	case "Z", "ZZ":
		off := m.offset()
		sign := "+"
		if off < 0 {
			sign, off = "-", -off
		}
		sep := ":"
		if tok == "ZZ" {
			sep = ""
		}
		return sign + zeroFill(off/60, 2, false) + sep + zeroFill(off%60, 2, false), true
	case "X":
		return strconv.FormatInt(int64(math.Floor(float64(t.UnixMilli())/1000)), 10), true
	case "x":
		return strconv.FormatInt(t.UnixMilli(), 10), true
	}
	if tok[0] == 'S' && strings.Trim(tok, "S") == "" {
		// S is tenths, SS hundredths, SSS milliseconds, more digits pad with zeros.
		n := len(tok)
		if n <= 3 {
			return zeroFill(ms/int(math.Pow10(3-n)), n, false), true
		}
		return fmt.Sprintf("%03d%s", ms, strings.Repeat("0", n-3)), true
	}
	return "", false
}

// localeWeek is the English locale's week of the year: weeks start on Sunday and the week
// holding January 1st is week 1 (moment's dow 0, doy 6).
func localeWeek(t time.Time) (year, week int) {
	date := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	start := func(y int) time.Time {
		jan1 := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		return jan1.AddDate(0, 0, -int(jan1.Weekday()))
	}
	year = t.Year()
	if next := start(year + 1); !date.Before(next) {
		return year + 1, 1
	}
	return year, int(date.Sub(start(year)).Hours()/24)/7 + 1
}
