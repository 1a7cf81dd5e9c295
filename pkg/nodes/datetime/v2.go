package datetime

import (
	"context"
	_ "embed"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Version 2 is n8n 1.x's Date & Time node, built on Luxon: get the current date, add to or
// subtract from a date, format, round, get the time between two dates and extract a part.
// Each operation writes one output field, to a new item or (option "Include Input Fields") to
// a copy of the input item.

//go:embed v2.json
var v2JSON []byte

// TypeV2 returns version 2 for registration.
func TypeV2() nodes.Type {
	t := nodes.Define(v2JSON, nodes.KindAction, executeV2)
	t.EffectFree = true
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{"getTimezones": timezones}
	return t
}

func executeV2(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	zoneName := workflowZone(ex)
	zone, err := time.LoadLocation(zoneName)
	if err != nil {
		return nil, nodes.Errorf(-1, "The timezone %s is not valid. Please check the timezone.", zoneName)
	}
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		value, err := operateV2(ex, operation, zone, i)
		var newItem workflow.Item
		if err == nil {
			newItem, err = outputItem(ex, item, value, i)
		}
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, withItem(err, i)
			}
			newItem = workflow.Item{JSON: workflow.ObjectOf("error", err.Error())}
		}
		newItem.PairedItem = &workflow.PairedItems{{Item: i}}
		out = append(out, newItem)
	}
	return [][]workflow.Item{out}, nil
}

func withItem(err error, i int) error {
	if e, ok := err.(*nodes.Error); ok && e.ItemIndex < 0 {
		c := *e
		c.ItemIndex = i
		return &c
	}
	return err
}

// outputItem puts value in the output field: of a new item, or of a copy of the input item
// when the option "Include Input Fields" is on.
func outputItem(ex *nodes.Execution, item workflow.Item, value any, i int) (workflow.Item, error) {
	field, err := ex.ParamString("outputFieldName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	include, err := ex.ParamBool("options.includeInputFields", i)
	if err != nil {
		return workflow.Item{}, err
	}
	if include {
		return withValue(item, field, value), nil
	}
	return workflow.Item{JSON: workflow.ObjectOf(field, value)}, nil
}

func operateV2(ex *nodes.Execution, operation string, zone *time.Location, i int) (any, error) {
	switch operation {
	case "getCurrentDate":
		return currentDate(ex, zone, i)
	case "addToDate", "subtractFromDate":
		return addToDate(ex, operation == "subtractFromDate", zone, i)
	case "formatDate":
		return formatDate(ex, zone, i)
	case "roundDate":
		return roundDate(ex, zone, i)
	case "getTimeBetweenDates":
		return timeBetween(ex, zone, i)
	case "extractDate":
		return extractDate(ex, zone, i)
	}
	return nil, nodes.Errorf(-1, "The operation '%s' is not known", operation)
}

func currentDate(ex *nodes.Execution, zone *time.Location, i int) (any, error) {
	includeTime, err := ex.ParamBool("includeTime", i)
	if err != nil {
		return nil, err
	}
	name, err := ex.ParamString("options.timezone", i)
	if err != nil {
		return nil, err
	}
	if name != "" {
		if zone, err = time.LoadLocation(name); err != nil {
			return nil, nodes.Errorf(i, "The timezone %s is not valid. Please check the timezone.", name)
		}
	}
	now := ex.Now().In(zone)
	if !includeTime {
		now = luxonStartOf(now, "day")
	}
	return luxonISO(now), nil
}

func addToDate(ex *nodes.Execution, subtract bool, zone *time.Location, i int) (any, error) {
	date, err := ex.Param("magnitude", i)
	if err != nil {
		return nil, err
	}
	unit, err := ex.ParamString("timeUnit", i)
	if err != nil {
		return nil, err
	}
	if normUnit(unit) == "" {
		return nil, nodes.Errorf(i, "The time unit '%s' is not known", unit)
	}
	duration, err := ex.ParamFloat("duration", i)
	if err != nil {
		return nil, err
	}
	t, err := parseDateV2(date, zone, "", ex.Now(), i)
	if err != nil {
		return nil, err
	}
	if subtract {
		duration = -duration
	}
	return luxonISO(luxonPlus(t, normUnit(unit), duration)), nil
}

func formatDate(ex *nodes.Execution, zone *time.Location, i int) (any, error) {
	date, err := ex.Param("date", i)
	if err != nil {
		return nil, err
	}
	if date == nil || jsv.IsUndefined(date) {
		return nil, nil
	}
	format, err := ex.ParamString("format", i)
	if err != nil {
		return nil, err
	}
	if format == "custom" {
		if format, err = ex.ParamString("customFormat", i); err != nil {
			return nil, err
		}
	}
	useWorkflowZone, err := ex.ParamBool("options.timezone", i)
	if err != nil {
		return nil, err
	}
	fromFormat, err := ex.ParamString("options.fromFormat", i)
	if err != nil {
		return nil, err
	}
	var inZone *time.Location
	if useWorkflowZone {
		inZone = zone
	}
	t, err := parseDateV2(date, inZone, fromFormat, ex.Now(), i)
	if err != nil {
		return nil, err
	}
	return luxonFormat(t, format), nil
}

func roundDate(ex *nodes.Execution, zone *time.Location, i int) (any, error) {
	date, err := ex.Param("date", i)
	if err != nil {
		return nil, err
	}
	mode, err := ex.ParamString("mode", i)
	if err != nil {
		return nil, err
	}
	t, err := parseDateV2(date, zone, "", ex.Now(), i)
	if err != nil {
		return nil, err
	}
	if mode == "roundUp" {
		to, err := ex.ParamString("to", i)
		if err != nil {
			return nil, err
		}
		unit := normUnit(to)
		return luxonISO(luxonStartOf(luxonPlus(t, unit, 1), unit)), nil
	}
	nearest, err := ex.ParamString("toNearest", i)
	if err != nil {
		return nil, err
	}
	return luxonISO(luxonStartOf(t, nearest)), nil
}

func timeBetween(ex *nodes.Execution, zone *time.Location, i int) (any, error) {
	start, err := ex.Param("startDate", i)
	if err != nil {
		return nil, err
	}
	end, err := ex.Param("endDate", i)
	if err != nil {
		return nil, err
	}
	rawUnits, err := ex.Param("units", i)
	if err != nil {
		return nil, err
	}
	var units []string
	list, _ := rawUnits.([]any)
	for _, u := range list {
		s, _ := u.(string)
		if normUnit(s) == "" {
			return nil, nodes.Errorf(i, "The unit '%v' is not known", u)
		}
		units = append(units, s)
	}
	isoString, err := ex.ParamBool("options.isoString", i)
	if err != nil {
		return nil, err
	}
	st, err := parseDateV2(start, zone, "", ex.Now(), i)
	if err != nil {
		return nil, err
	}
	et, err := parseDateV2(end, zone, "", ex.Now(), i)
	if err != nil {
		return nil, err
	}
	parts := luxonDiff(et, st, units)
	if isoString {
		return durationISO(parts), nil
	}
	return durationObject(parts), nil
}

func extractDate(ex *nodes.Execution, zone *time.Location, i int) (any, error) {
	date, err := ex.Param("date", i)
	if err != nil {
		return nil, err
	}
	part, err := ex.ParamString("part", i)
	if err != nil {
		return nil, err
	}
	t, err := parseDateV2(date, zone, "", ex.Now(), i)
	if err != nil {
		return nil, err
	}
	switch part {
	case "year":
		return t.Year(), nil
	case "month":
		return int(t.Month()), nil
	case "week":
		_, w := t.ISOWeek()
		return w, nil
	case "day":
		return t.Day(), nil
	case "hour":
		return t.Hour(), nil
	case "minute":
		return t.Minute(), nil
	case "second":
		return t.Second(), nil
	}
	return nil, nodes.Errorf(i, "The part '%s' is not known", part)
}

// parseDateV2 reads a date parameter as version 2 does: a number (or numeric string) is a
// Unix timestamp, in seconds below 10^12 and in milliseconds from there; a string is read
// with fromFormat (Luxon tokens) when given, else as ISO 8601, RFC 2822 or what JavaScript's
// Date accepts. The result is shown in zone when one is given, else in the offset the string
// names, else in UTC.
func parseDateV2(v any, zone *time.Location, fromFormat string, now time.Time, i int) (time.Time, error) {
	show := func(t time.Time) time.Time {
		if zone != nil {
			return t.In(zone)
		}
		return t
	}
	invalid := func() error { return &nodes.Error{Message: "Invalid date format", ItemIndex: i} }
	if v == nil || jsv.IsUndefined(v) {
		return time.Time{}, &nodes.Error{Message: "Invalid date type", ItemIndex: i}
	}
	if t, ok := v.(time.Time); ok {
		return show(t), nil
	}
	s, isString := v.(string)
	if isString {
		s = strings.TrimSpace(s)
		if s == "" {
			return time.Time{}, &nodes.Error{Message: "Empty date string", ItemIndex: i}
		}
	}
	if n, ok := numericDate(v); ok && fromFormat == "" {
		if math.IsInf(n, 0) || math.IsNaN(n) {
			return time.Time{}, &nodes.Error{Message: "Invalid numeric timestamp", ItemIndex: i}
		}
		ms := n
		if math.Abs(n) < 1e12 {
			ms = n * 1000
		}
		t := time.UnixMilli(int64(math.Round(ms))).UTC()
		return show(t), nil
	}
	if !isString {
		return time.Time{}, &nodes.Error{Message: "Invalid date type", ItemIndex: i}
	}
	if fromFormat != "" {
		loc := zone
		if loc == nil {
			loc = time.UTC
		}
		t, ok := luxonParse(s, fromFormat, loc, now)
		if !ok {
			return time.Time{}, invalid()
		}
		return t, nil
	}
	m, zoned := parseString(s, true)
	if !m.valid {
		return time.Time{}, invalid()
	}
	t := m.t
	if zone == nil && zoned {
		if off, ok := namedOffset(s); ok {
			return t.In(time.FixedZone("", off)), nil
		}
	}
	return show(t.UTC()), nil
}

// numericDate is the number a parameter holds, directly or as a numeric string.
func numericDate(v any) (float64, bool) {
	if s, ok := v.(string); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return f, err == nil
	}
	if _, ok := v.(bool); ok {
		return 0, false
	}
	return workflow.Number(v)
}

// namedOffset reads the UTC offset written at the end of an ISO date ("+02:00", "-0500", "Z").
func namedOffset(s string) (int, bool) {
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return 0, true
	}
	for k := len(s) - 1; k >= 0 && k >= len(s)-6; k-- {
		if s[k] == '+' || s[k] == '-' {
			rest := strings.ReplaceAll(s[k+1:], ":", "")
			if len(rest) != 4 && len(rest) != 2 {
				return 0, false
			}
			h, err1 := strconv.Atoi(rest[:2])
			m := 0
			var err2 error
			if len(rest) == 4 {
				m, err2 = strconv.Atoi(rest[2:])
			}
			if err1 != nil || err2 != nil || !strings.Contains(s, "T") && !strings.Contains(s, " ") {
				return 0, false
			}
			off := h*3600 + m*60
			if s[k] == '-' {
				off = -off
			}
			return off, true
		}
	}
	return 0, false
}
