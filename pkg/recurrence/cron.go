// Package recurrence turns the schedule trigger nodes (Cron, Interval, Schedule Trigger) into rules
// and computes their next firing time in a time zone. Cron expressions follow the `cron` npm
// package that n8n 0.x runs them with: six fields (seconds first; five fields mean second 0),
// months 0-11 when taken from those nodes, day of month and day of week both required to match,
// names such as jan or mon allowed. Times are wall-clock times in the zone: a time skipped by a
// daylight-saving jump fires at the shifted instant, a repeated time fires once (first occurrence)
// unless the rule fires in every hour of the day, which keeps firing by real time through the
// repeated hour.
package recurrence

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// spec is a parsed cron expression: one bit set per field.
type spec struct {
	second, minute, hour, dom, month, dow uint64
}

type field struct {
	name     string
	min, max int
	names    map[string]int
}

var (
	monthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}
	dayNames   = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}
	fields     = []field{
		{"second", 0, 59, nil}, {"minute", 0, 59, nil}, {"hour", 0, 23, nil},
		{"day of month", 1, 31, nil}, {"month", 1, 12, monthNames}, {"day of week", 0, 7, dayNames},
	}
)

// parseCron reads a five- or six-field expression. With zeroBasedMonths, numeric months count
// from 0 (January) as in the cron package n8n 0.x uses.
func parseCron(expr string, zeroBasedMonths bool) (*spec, error) {
	parts := strings.Fields(expr)
	switch len(parts) {
	case 5:
		parts = append([]string{"0"}, parts...)
	case 6:
	default:
		return nil, fmt.Errorf("cron expression %q: want 5 or 6 fields, got %d", expr, len(parts))
	}
	var bits [6]uint64
	for i, p := range parts {
		f := fields[i]
		offset := 0
		if i == 4 && zeroBasedMonths {
			f.min, f.max, offset = 0, 11, 1
		}
		b, err := parseField(p, f, offset)
		if err != nil {
			return nil, fmt.Errorf("cron expression %q: %w", expr, err)
		}
		bits[i] = b
	}
	if bits[5]&(1<<7) != 0 { // 7 is Sunday too
		bits[5] |= 1
	}
	return &spec{bits[0], bits[1], bits[2], bits[3], bits[4], bits[5]}, nil
}

// parseField reads a comma list of *, n, a-b with an optional /step; offset shifts numbers
// (zero-based months) while names keep their own values.
func parseField(s string, f field, offset int) (uint64, error) {
	var bits uint64
	for _, part := range strings.Split(strings.ToLower(s), ",") {
		rng, stepStr, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepStr)
			if err != nil || n <= 0 {
				return 0, fmt.Errorf("%s: bad step %q", f.name, stepStr)
			}
			step = n
		}
		lo, hi := f.min, f.max
		if rng != "*" && rng != "?" {
			a, b, isRange := strings.Cut(rng, "-")
			var err error
			if lo, err = value(a, f, offset); err != nil {
				return 0, err
			}
			hi = lo
			if isRange {
				if hi, err = value(b, f, offset); err != nil {
					return 0, err
				}
			} else if hasStep {
				hi = f.max + offset
			}
		} else {
			lo, hi = f.min+offset, f.max+offset
		}
		if lo > hi {
			return 0, fmt.Errorf("%s: range %q runs backwards", f.name, rng)
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << uint(v)
		}
	}
	return bits, nil
}

func value(s string, f field, offset int) (int, error) {
	if v, ok := f.names[s]; ok {
		return v, nil // names carry their calendar value whatever the numbering
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s: bad value %q", f.name, s)
	}
	if n < f.min || n > f.max {
		return 0, fmt.Errorf("%s: %d is out of range %d-%d", f.name, n, f.min, f.max)
	}
	return n + offset, nil
}

func has(bits uint64, v int) bool { return bits&(1<<uint(v)) != 0 }

// maxYears bounds the search for expressions that never match (such as 30 February).
const maxYears = 8

// next returns the first wall-clock match strictly after `after`, or the zero time.
func (s *spec) next(after time.Time, loc *time.Location) time.Time {
	local := after.In(loc)
	y, mo, d := local.Date()
	day := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC) // calendar arithmetic without zone effects
	limit := day.AddDate(maxYears, 0, 0)
	for ; !day.After(limit); day = day.AddDate(0, 0, 1) {
		if !has(s.month, int(day.Month())) || !has(s.dom, day.Day()) || !has(s.dow, int(day.Weekday())) {
			continue
		}
		if t := s.inDay(day, after, loc); !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// allHours is a spec.hour with every hour set.
const allHours = 1<<24 - 1

// inDay finds the first matching time of one calendar day after `after`. A wall time that a
// fall-back repeats counts at its first instant, except in rules that fire in every hour of the
// day: those also fire at the second one, so an hourly rule goes on firing every real hour (and
// a 15-minute rule every 15 real minutes) through the repeated hour instead of leaving it out.
func (s *spec) inDay(day time.Time, after time.Time, loc *time.Location) time.Time {
	y, mo, d := day.Date()
	everyHour := s.hour&allHours == allHours
	// last is the latest instant a wall time shows that the rule may fire at.
	last := func(h, m, sec int) time.Time {
		first, second := wall(y, mo, d, h, m, sec, loc)
		if everyHour && !second.IsZero() {
			return second
		}
		return first
	}
	// repeat is the earliest second instant of a repeated time after `after`. Matches come in
	// wall-clock order, so the first instants only grow; a second instant comes after every
	// first one of the same hour, hence the comparison below.
	var repeat time.Time
	for h := 0; h < 24; h++ {
		if !has(s.hour, h) || !last(h, 59, 59).After(after) {
			continue
		}
		for m := 0; m < 60; m++ {
			if !has(s.minute, m) || !last(h, m, 59).After(after) {
				continue
			}
			for sec := 0; sec < 60; sec++ {
				if !has(s.second, sec) {
					continue
				}
				first, second := wall(y, mo, d, h, m, sec, loc)
				if first.After(after) {
					if !repeat.IsZero() && repeat.Before(first) {
						return repeat
					}
					return first
				}
				if everyHour && repeat.IsZero() && second.After(after) {
					repeat = second
				}
			}
		}
	}
	return repeat
}

// wall is the instant of a wall-clock time in loc. A time inside a daylight-saving gap does
// not exist; it becomes the instant the clock shows after jumping forward (02:30 → 03:30). A time
// that a fall-back repeats has two instants: first is the earlier, second the later one (zero for
// every other time).
func wall(y int, mo time.Month, d, h, m, s int, loc *time.Location) (first, second time.Time) {
	t := time.Date(y, mo, d, h, m, s, 0, loc)
	if t.Hour() != h || t.Minute() != m {
		_, before := t.Zone()
		_, after := t.Add(6 * time.Hour).Zone()
		if shifted := t.Add(time.Duration(after-before) * time.Second); shifted.After(t) {
			return shifted, time.Time{}
		}
		return t, time.Time{}
	}
	// time.Date picks either instant of a repeated time (the later one east of UTC): look for
	// an instant with the other offset that shows the same wall clock.
	_, off := t.Zone()
	for _, probe := range []time.Time{t.Add(-12 * time.Hour), t.Add(12 * time.Hour)} {
		_, other := probe.Zone()
		if other == off {
			continue
		}
		u := t.Add(time.Duration(off-other) * time.Second)
		if l := u.In(loc); l.Day() != d || l.Hour() != h || l.Minute() != m || l.Second() != s {
			continue
		}
		if u.Before(t) {
			return u, t
		}
		return t, u
	}
	return t, time.Time{}
}
