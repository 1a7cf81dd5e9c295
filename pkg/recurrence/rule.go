package recurrence

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Rule is one way a trigger node fires: a cron expression or a fixed period.
type Rule struct {
	// Cron is the cron expression (empty for interval rules), as the node gives it.
	Cron string
	// ZeroBasedMonths says numeric months in Cron count from 0, as in the nodes' expressions.
	ZeroBasedMonths bool
	// Every is the period of interval rules (Interval node; Schedule Trigger seconds and
	// minutes), counted from when the trigger was activated.
	Every time.Duration
	// WeeksInterval is the Schedule Trigger's "weeks between triggers"; above 1 the scheduler
	// fires only in weeks for which WeekDue is true.
	WeeksInterval int
	// Recurrence, when set, drops firings that come before the interval has passed since the
	// last one (Schedule Trigger from version 1.1, as n8n 1.x's recurrence check).
	Recurrence *Recurrence

	spec *spec
}

// Recurrence is an interval the cron of a rule fires more often than: "minutes", "hours",
// "days", "weeks" or "months", and the number of them between firings.
type Recurrence struct {
	Unit string
	Size int
}

// Due reports whether the rule may fire at t when it last fired at last (zero: never): the
// week interval of version 1 rules, the recurrence of later ones.
func (r Rule) Due(last, t time.Time, loc *time.Location) bool {
	if r.Recurrence == nil {
		return r.WeekDue(last, t, loc)
	}
	if last.IsZero() || r.Recurrence.Size <= 1 {
		return true
	}
	if loc == nil {
		loc = time.UTC
	}
	now, prev, size := t.In(loc), last.In(loc), r.Recurrence.Size
	switch r.Recurrence.Unit {
	case "minutes":
		return int(now.Unix()/60-prev.Unix()/60) >= size
	case "hours":
		return (now.Hour()-prev.Hour()+24)%24 >= size
	case "days":
		return (now.YearDay()-prev.YearDay()+365)%365 >= size
	case "weeks":
		w, lw := usWeek(now), usWeek(prev)
		// Several weekdays of one week all fire.
		return w == lw || (w-lw+52)%52 >= size
	case "months":
		return (now.Year()*12+int(now.Month()))-(prev.Year()*12+int(prev.Month())) >= size
	}
	return true
}

// usWeek is moment's week() in its default locale: weeks start on Sunday and week 1 holds
// January 1st.
func usWeek(t time.Time) int {
	sat := t.AddDate(0, 0, 6-int(t.Weekday()))
	return (sat.YearDay()-1)/7 + 1
}

// ParseCron returns a cron rule; zeroBasedMonths as for Rule.
func ParseCron(expr string, zeroBasedMonths bool) (Rule, error) {
	s, err := parseCron(expr, zeroBasedMonths)
	if err != nil {
		return Rule{}, err
	}
	return Rule{Cron: expr, ZeroBasedMonths: zeroBasedMonths, spec: s}, nil
}

// Next returns the first firing time strictly after `after`, as wall-clock time in loc (nil
// means UTC). Interval rules fire `Every` after `after`. The zero time means never.
func (r Rule) Next(after time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	if r.Cron == "" {
		if r.Every <= 0 {
			return time.Time{}
		}
		return after.Add(r.Every).In(loc)
	}
	s := r.spec
	if s == nil {
		var err error
		if s, err = parseCron(r.Cron, r.ZeroBasedMonths); err != nil {
			return time.Time{}
		}
	}
	return s.next(after, loc)
}

// WeekDue reports whether a rule with WeeksInterval may fire at t when it last fired at last
// (zero: never): at least WeeksInterval ISO weeks apart.
func (r Rule) WeekDue(last, t time.Time, loc *time.Location) bool {
	if r.WeeksInterval <= 1 || last.IsZero() {
		return true
	}
	if loc == nil {
		loc = time.UTC
	}
	weekStart := func(x time.Time) time.Time {
		x = x.In(loc)
		y, m, d := x.Date()
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	}
	weeks := int(weekStart(t).Sub(weekStart(last)).Hours() / (24 * 7))
	return weeks >= r.WeeksInterval
}

// ErrNotSchedule is returned by FromNode for node types that are not schedule triggers.
var ErrNotSchedule = errors.New("schedule: not a schedule trigger node")

// FromNode reads the rules of a Cron, Interval or Schedule Trigger node. Parameters missing from
// the node take the nodes' defaults. Where n8n picks a random second to spread the load, the
// second is derived from the node's id and name, so every scheduler replica agrees on it.
func FromNode(node *workflow.Node) ([]Rule, error) {
	p := node.Parameters
	switch node.Type {
	case "n8n-nodes-base.cron":
		return cronRules(node, p)
	case "n8n-nodes-base.interval":
		n := num(p["interval"], 1)
		if n <= 0 {
			return nil, errors.New("The interval has to be set to at least 1 or higher!")
		}
		unit := time.Second
		switch str(p["unit"], "seconds") {
		case "minutes":
			unit = time.Minute
		case "hours":
			unit = time.Hour
		}
		return []Rule{{Every: time.Duration(n * float64(unit))}}, nil
	case "n8n-nodes-base.scheduleTrigger":
		if node.TypeVersion >= 1.1 {
			return scheduleRulesV11(node, p)
		}
		return scheduleRules(p)
	}
	return nil, fmt.Errorf("%w: %s", ErrNotSchedule, node.Type)
}

// PollRules reads the pollTimes of a poll node, which offer the Cron node's trigger times; a
// node without them polls every minute, n8n's default.
func PollRules(node *workflow.Node) ([]Rule, error) {
	times, ok := node.Parameters["pollTimes"]
	if !ok {
		times = map[string]any{"item": []any{map[string]any{"mode": "everyMinute"}}}
	}
	return cronRules(node, map[string]any{"triggerTimes": times})
}

func cronRules(node *workflow.Node, p map[string]any) ([]Rule, error) {
	times, _ := p["triggerTimes"].(map[string]any)
	items, _ := times["item"].([]any)
	var rules []Rule
	for i, it := range items {
		item, _ := it.(map[string]any)
		sec := spreadSecond(node, i)
		var expr string
		switch mode := str(item["mode"], "everyDay"); mode {
		case "custom":
			expr = str(item["cronExpression"], "* * * * * *")
		case "everyMinute":
			expr = fmt.Sprintf("%d * * * * *", sec)
		case "everyX":
			v := text(numOr(item["value"], 2))
			if str(item["unit"], "hours") == "minutes" {
				expr = fmt.Sprintf("%d */%s * * * *", sec, v)
			} else {
				expr = fmt.Sprintf("%d 0 */%s * * *", sec, v)
			}
		default:
			fieldsByMode := map[string][]string{
				"everyHour":  {"minute"},
				"everyDay":   {"minute", "hour"},
				"everyWeek":  {"minute", "hour", "weekday"},
				"everyMonth": {"minute", "hour", "dayOfMonth"},
			}
			defaults := map[string]any{"minute": 0.0, "hour": 14.0, "dayOfMonth": 1.0, "weekday": "1"}
			shown := fieldsByMode[mode]
			parts := []string{fmt.Sprint(sec)}
			for _, name := range []string{"minute", "hour", "dayOfMonth", "month", "weekday"} {
				v, ok := item[name]
				if !ok && contains(shown, name) {
					v, ok = defaults[name], true
				}
				if ok {
					parts = append(parts, text(v))
				} else {
					parts = append(parts, "*")
				}
			}
			expr = strings.Join(parts, " ")
		}
		r, err := ParseCron(expr, true)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func scheduleRules(p map[string]any) ([]Rule, error) {
	rule, ok := p["rule"].(map[string]any)
	if !ok {
		rule = map[string]any{"interval": []any{map[string]any{"field": "days"}}}
	}
	intervals, _ := rule["interval"].([]any)
	var rules []Rule
	for _, it := range intervals {
		iv, _ := it.(map[string]any)
		minute := text(numOr(iv["triggerAtMinute"], 0))
		hour := text(numOr(iv["triggerAtHour"], 0))
		var expr string
		switch str(iv["field"], "days") {
		case "seconds":
			rules = append(rules, Rule{Every: time.Duration(num(iv["secondsInterval"], 30) * float64(time.Second))})
			continue
		case "minutes":
			rules = append(rules, Rule{Every: time.Duration(num(iv["minutesInterval"], 5) * float64(time.Minute))})
			continue
		case "hours":
			expr = fmt.Sprintf("%s */%s * * *", minute, text(numOr(iv["hoursInterval"], 1)))
		case "days":
			expr = fmt.Sprintf("%s %s */%s * *", minute, hour, text(numOr(iv["daysInterval"], 1)))
		case "weeks":
			days := weekDays(iv)
			expr = fmt.Sprintf("%s %s * * %s", minute, hour, days)
			r, err := ParseCron(expr, true)
			if err != nil {
				return nil, err
			}
			r.WeeksInterval = int(num(iv["weeksInterval"], 1))
			rules = append(rules, r)
			continue
		case "months":
			expr = fmt.Sprintf("%s %s %s */%s *", minute, hour, text(numOr(iv["triggerAtDayOfMonth"], 1)),
				text(numOr(iv["monthsInterval"], 1)))
		case "cronExpression":
			expr = str(iv["expression"], "")
			r, err := ParseCron(expr, true)
			if err != nil {
				return nil, fmt.Errorf("Invalid cron expression: %w", err)
			}
			rules = append(rules, r)
			continue
		}
		r, err := ParseCron(expr, true)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// scheduleRulesV11 reads Schedule Trigger rules from version 1.1 as n8n 1.x sets them up: every
// rule is a cron expression (seconds count on the clock, not from the activation), minutes and
// later fire at a spread second, custom expressions count months from 1, and intervals the cron
// cannot space evenly fire more often and are thinned out by the rule's Recurrence.
func scheduleRulesV11(node *workflow.Node, p map[string]any) ([]Rule, error) {
	rule, ok := p["rule"].(map[string]any)
	if !ok {
		rule = map[string]any{"interval": []any{map[string]any{"field": "days"}}}
	}
	intervals, _ := rule["interval"].([]any)
	var rules []Rule
	for i, it := range intervals {
		iv, _ := it.(map[string]any)
		sec := spreadSecond(node, i)
		// Version 1.2 reads an empty minute or hour as 0; earlier versions left the cron invalid.
		minute := text(numOr(iv["triggerAtMinute"], 0))
		hour := text(numOr(iv["triggerAtHour"], 0))
		if minute == "" {
			minute = "0"
		}
		if hour == "" {
			hour = "0"
		}
		var expr string
		var rec *Recurrence
		size := func(name string, fallback float64) int { return int(num(iv[name], fallback)) }
		switch field := str(iv["field"], "days"); field {
		case "seconds":
			expr = fmt.Sprintf("*/%d * * * * *", size("secondsInterval", 30))
		case "minutes":
			n := size("minutesInterval", 5)
			if n > 0 && 60%n == 0 {
				expr = fmt.Sprintf("%d */%d * * * *", sec, n)
			} else {
				expr, rec = fmt.Sprintf("%d * * * * *", sec), &Recurrence{"minutes", n}
			}
		case "hours":
			n := size("hoursInterval", 1)
			if n > 0 && 24%n == 0 {
				expr = fmt.Sprintf("%d %s */%d * * *", sec, minute, n)
			} else {
				expr = fmt.Sprintf("%d %s * * * *", sec, minute)
			}
			rec = &Recurrence{"hours", n}
		case "days":
			expr, rec = fmt.Sprintf("%d %s %s * * *", sec, minute, hour), &Recurrence{"days", size("daysInterval", 1)}
		case "weeks":
			days := weekDays(iv)
			expr, rec = fmt.Sprintf("%d %s %s * * %s", sec, minute, hour, days), &Recurrence{"weeks", size("weeksInterval", 1)}
		case "months":
			n := size("monthsInterval", 1)
			day := text(numOr(iv["triggerAtDayOfMonth"], 1))
			if n > 0 && 12%n == 0 {
				expr = fmt.Sprintf("%d %s %s %s */%d *", sec, minute, hour, day, n)
			} else {
				expr = fmt.Sprintf("%d %s %s %s * *", sec, minute, hour, day)
			}
			rec = &Recurrence{"months", n}
		case "cronExpression":
			r, err := ParseCron(strings.TrimSpace(str(iv["expression"], "")), false)
			if err != nil {
				return nil, fmt.Errorf("Invalid cron expression: %w", err)
			}
			r.Recurrence = &Recurrence{}
			rules = append(rules, r)
			continue
		default:
			return nil, fmt.Errorf("unknown trigger interval %q", field)
		}
		if rec == nil {
			rec = &Recurrence{}
		}
		r, err := ParseCron(expr, false)
		if err != nil {
			return nil, err
		}
		r.Recurrence = rec
		rules = append(rules, r)
	}
	return rules, nil
}

// spreadSecond is a stable second for rules n8n gives a random second.
func spreadSecond(node *workflow.Node, i int) int {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s\x00%s\x00%d", node.ID, node.Name, i)
	return int(h.Sum32() % 60)
}

func str(v any, fallback string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return fallback
}

func num(v any, fallback float64) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
	case string:
		if f, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
			return f
		}
	}
	return fallback
}

// text writes a parameter value into a cron field: numbers without a decimal point.
func text(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

func numOr(v any, fallback float64) any {
	if v == nil {
		return fallback
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// weekDays is the cron day-of-week field of a weeks rule: its triggerAtDay list, Sunday when it
// has none, every day when the list is empty.
func weekDays(iv map[string]any) string {
	list, ok := iv["triggerAtDay"].([]any)
	if !ok {
		return "0"
	}
	if len(list) == 0 {
		return "*"
	}
	parts := make([]string, len(list))
	for i, d := range list {
		parts[i] = text(d)
	}
	return strings.Join(parts, ",")
}
