package datetime

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// tokenPattern is the text a format token reads, non-strict and strict (moment's
// addRegexToken). Like moment's, the patterns are not anchored: a token reads its first match
// in what is left of the input, skipping anything before it.
type tokenPattern struct{ lenient, strict *regexp.Regexp }

const (
	monthNamesRe = `(?i)(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)`
	dayNamesRe   = `(?i)(Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sun|Mon|Tue|Wed|Thu|Fri|Sat|Su|Mo|Tu|We|Th|Fr|Sa)`
)

func pat(lenient, strict string) tokenPattern {
	return tokenPattern{regexp.MustCompile(lenient), regexp.MustCompile(strict)}
}

// tokenPatterns is the pattern of every format token, compiled on the first parse with a
// format (a process that never runs the node does not hold them), each distinct expression once.
var tokenPatterns = sync.OnceValue(func() map[string]tokenPattern {
	compiled := map[string]*regexp.Regexp{}
	re := func(expr string) *regexp.Regexp {
		if compiled[expr] == nil {
			compiled[expr] = regexp.MustCompile(expr)
		}
		return compiled[expr]
	}
	pat := func(lenient, strict string) tokenPattern { return tokenPattern{re(lenient), re(strict)} }
	return map[string]tokenPattern{
		"M": pat(`\d\d?`, `\d\d?`), "MM": pat(`\d\d?`, `\d\d`), "MMM": pat(monthNamesRe, monthNamesRe), "MMMM": pat(monthNamesRe, monthNamesRe),
		"D": pat(`\d\d?`, `\d\d?`), "DD": pat(`\d\d?`, `\d\d`), "Do": pat(`\d{1,2}(th|st|nd|rd)|\d{1,2}`, `\d{1,2}(th|st|nd|rd)`),
		"DDD": pat(`\d{1,3}`, `\d{1,3}`), "DDDD": pat(`\d{1,3}`, `\d{3}`),
		"Y": pat(`[+-]?\d+`, `[+-]?\d+`), "YY": pat(`\d\d?`, `\d\d`), "YYYY": pat(`\d{1,4}`, `\d{4}`),
		"YYYYY": pat(`[+-]?\d{1,6}`, `[+-]?\d{6}`), "YYYYYY": pat(`[+-]?\d{1,6}`, `[+-]?\d{6}`),
		"Q": pat(`\d`, `\d`),
		"H": pat(`\d\d?`, `\d\d?`), "HH": pat(`\d\d?`, `\d\d`), "h": pat(`\d\d?`, `\d\d?`), "hh": pat(`\d\d?`, `\d\d`),
		"k": pat(`\d\d?`, `\d\d?`), "kk": pat(`\d\d?`, `\d\d`),
		"hmm": pat(`\d\d\d\d?`, `\d\d\d\d?`), "hmmss": pat(`\d\d\d\d\d\d?`, `\d\d\d\d\d\d?`),
		"Hmm": pat(`\d\d\d\d?`, `\d\d\d\d?`), "Hmmss": pat(`\d\d\d\d\d\d?`, `\d\d\d\d\d\d?`),
		"m": pat(`\d\d?`, `\d\d?`), "mm": pat(`\d\d?`, `\d\d`), "s": pat(`\d\d?`, `\d\d?`), "ss": pat(`\d\d?`, `\d\d`),
		"a": pat(`(?i)[ap]\.?m?\.?`, `(?i)[ap]\.?m?\.?`), "A": pat(`(?i)[ap]\.?m?\.?`, `(?i)[ap]\.?m?\.?`),
		"Z": pat(`(?i)Z|[+-]\d\d(?::?\d\d)?`, `(?i)Z|[+-]\d\d(?::?\d\d)?`), "ZZ": pat(`(?i)Z|[+-]\d\d(?::?\d\d)?`, `(?i)Z|[+-]\d\d(?::?\d\d)?`),
		"X": pat(`[+-]?\d+(\.\d{1,3})?`, `[+-]?\d+(\.\d{1,3})?`), "x": pat(`[+-]?\d+`, `[+-]?\d+`),
		"d": pat(`\d`, `\d`), "e": pat(`\d`, `\d`), "E": pat(`\d`, `\d`),
		"dd": pat(dayNamesRe, dayNamesRe), "ddd": pat(dayNamesRe, dayNamesRe), "dddd": pat(dayNamesRe, dayNamesRe),
		"w": pat(`\d\d?`, `\d\d?`), "ww": pat(`\d\d?`, `\d\d`), "W": pat(`\d\d?`, `\d\d?`), "WW": pat(`\d\d?`, `\d\d`),
		"gg": pat(`\d\d?`, `\d\d`), "gggg": pat(`\d{1,4}`, `\d{4}`), "GG": pat(`\d\d?`, `\d\d`), "GGGG": pat(`\d{1,4}`, `\d{4}`),
	}
})

func sPattern(n int) tokenPattern {
	switch n {
	case 1:
		return pat(`\d{1,3}`, `\d`)
	case 2:
		return pat(`\d{1,3}`, `\d\d`)
	case 3:
		return pat(`\d{1,3}`, `\d{3}`)
	}
	return pat(`\d+`, `\d+`)
}

// parts collects what the tokens read (moment's config._a and flags).
type parts struct {
	year, month, day, hour, minute, sec, ms *int
	pm                                      *bool
	offset                                  *int // minutes east of UTC
	unixMs                                  *float64
	weekday                                 *int
	empty                                   bool
}

func set(p **int, v int) { *p = &v }

// parseFormat is moment(s, format, strict), or moment.utc(…) with utc (the wall time of a
// string without an offset is then UTC). zoned reports whether the input gave an offset.
func parseFormat(s, format string, strict, utc bool, now time.Time) (m moment, zoned bool) {
	tokens := formatTokens.FindAllString(expandFormat(format), -1)
	var p parts
	p.empty = true
	rest, consumed := s, 0
	var unusedTokens bool
	for _, tok := range tokens {
		known := true
		var re *regexp.Regexp
		if tp, ok := tokenPatterns()[tok]; ok {
			re = choose(tp, strict)
		} else if tok[0] == 'S' && strings.Trim(tok, "S") == "" {
			re = choose(sPattern(len(tok)), strict)
		} else {
			known = false
			re = regexp.MustCompile(regexp.QuoteMeta(literal(tok)))
		}
		loc := re.FindStringIndex(rest)
		input := ""
		if loc != nil && loc[1] > loc[0] {
			input = rest[loc[0]:loc[1]]
			rest = rest[loc[1]:]
			consumed += len(input)
		}
		if !known {
			if strict && input == "" {
				unusedTokens = true
			}
			continue
		}
		if input == "" {
			unusedTokens = true
			continue
		}
		p.empty = false
		if !p.read(tok, input) {
			return invalidMoment(), true
		}
	}
	if p.empty || strict && (unusedTokens || consumed != len(s)) {
		return invalidMoment(), true
	}
	return p.moment(utc, now)
}

func choose(tp tokenPattern, strict bool) *regexp.Regexp {
	if strict {
		return tp.strict
	}
	return tp.lenient
}

// literal is the text a non-token stands for: bracketed text without brackets, escapes
// without backslashes.
func literal(tok string) string {
	if len(tok) > 1 && tok[0] == '[' && tok[len(tok)-1] == ']' {
		return tok[1 : len(tok)-1]
	}
	return strings.ReplaceAll(tok, `\`, "")
}

// read stores what one token read; false for a value moment rejects outright.
func (p *parts) read(tok, in string) bool {
	n, _ := strconv.Atoi(strings.TrimLeft(in, "+"))
	switch tok {
	case "M", "MM":
		set(&p.month, n)
	case "MMM", "MMMM":
		lower := strings.ToLower(in)
		for i, name := range monthNames {
			if strings.HasPrefix(strings.ToLower(name), lower[:3]) {
				set(&p.month, i+1)
				return true
			}
		}
		return false
	case "D", "DD":
		set(&p.day, n)
	case "Do":
		d, _ := strconv.Atoi(strings.TrimRight(in, "thsndr"))
		set(&p.day, d)
	case "DDD", "DDDD":
		set(&p.month, 1)
		set(&p.day, n)
	case "YY":
		if n > 68 {
			n += 1900
		} else {
			n += 2000
		}
		set(&p.year, n)
	case "YYYY":
		if len(in) == 2 {
			return p.read("YY", in)
		}
		set(&p.year, n)
	case "Y", "YYYYY", "YYYYYY":
		if strings.HasPrefix(in, "-") {
			n = -n
		}
		set(&p.year, n)
	case "Q":
		set(&p.month, (n-1)*3+1)
	case "H", "HH", "h", "hh", "k", "kk":
		set(&p.hour, n)
	case "hmm", "Hmm", "hmmss", "Hmmss":
		cut := len(in) - 2
		if strings.HasSuffix(tok, "ss") {
			cut = len(in) - 4
			sec, _ := strconv.Atoi(in[len(in)-2:])
			set(&p.sec, sec)
			mins, _ := strconv.Atoi(in[cut : cut+2])
			set(&p.minute, mins)
		} else {
			mins, _ := strconv.Atoi(in[cut:])
			set(&p.minute, mins)
		}
		h, _ := strconv.Atoi(in[:cut])
		set(&p.hour, h)
	case "m", "mm":
		set(&p.minute, n)
	case "s", "ss":
		set(&p.sec, n)
	case "a", "A":
		pm := strings.ToLower(in)[0] == 'p'
		p.pm = &pm
	case "Z", "ZZ":
		_, off := time.Date(2000, 1, 1, 0, 0, 0, 0, offsetZone(in)).Zone()
		set(&p.offset, off/60)
	case "X":
		f, _ := strconv.ParseFloat(in, 64)
		f *= 1000
		p.unixMs = &f
	case "x":
		f := float64(n)
		if strings.HasPrefix(in, "-") {
			f = -f
		}
		p.unixMs = &f
	case "d", "e":
		set(&p.weekday, n)
	case "dd", "ddd", "dddd":
		lower := strings.ToLower(in)
		for i, name := range dayNames {
			if strings.HasPrefix(strings.ToLower(name), lower) {
				set(&p.weekday, i)
				break
			}
		}
	default:
		if tok[0] == 'S' {
			f, _ := strconv.ParseFloat("0."+in, 64)
			set(&p.ms, int(math.Floor(f*1000)))
		}
		// Week-based tokens (w, W, gggg, GGGG, E) are read but not applied.
	}
	return true
}

// moment builds the date as moment's configFromArray: date parts missing before the first
// given one come from today, the others default to the start of their range.
func (p *parts) moment(utc bool, now time.Time) (moment, bool) {
	if p.unixMs != nil {
		t := time.UnixMilli(int64(math.Floor(*p.unixMs)))
		return wrap(t, utc), true
	}
	loc := time.Local
	if utc {
		loc = time.UTC
	}
	now = now.In(loc)
	y, mo, d := now.Year(), int(now.Month()), now.Day()
	switch {
	case p.year != nil:
		mo, d = 1, 1
	case p.month != nil:
		d = 1
	}
	if p.year != nil {
		y = *p.year
	}
	if p.month != nil {
		mo = *p.month
	}
	if p.day != nil {
		d = *p.day
	}
	val := func(v *int) int {
		if v == nil {
			return 0
		}
		return *v
	}
	hour := val(p.hour)
	if p.pm != nil {
		if *p.pm && hour < 12 {
			hour += 12
		} else if !*p.pm && hour == 12 {
			hour = 0
		}
	}
	minute, sec, ms := val(p.minute), val(p.sec), val(p.ms)
	if !validParts(y, mo, d, hour, minute, sec, ms*1e6) || ms > 999 {
		return invalidMoment(), true
	}
	zoned := p.offset != nil
	if zoned {
		loc = time.FixedZone("", *p.offset*60)
	}
	t := time.Date(y, time.Month(mo), d, hour, minute, sec, ms*1e6, loc)
	if p.weekday != nil && int(t.Weekday()) != *p.weekday {
		return invalidMoment(), true
	}
	return wrap(t, utc), zoned
}
