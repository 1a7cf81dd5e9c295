// Package datetime is the Date & Time node (version 1): "format" converts a date to another
// format and time zone, "calculate" adds or subtracts time. Version 1 of n8n's node is built
// on moment.js and moment-timezone; this package reproduces the parts it uses: moment's date
// parsing (ISO 8601, RFC 2822, JavaScript's Date as the fallback, and explicit formats), its
// format tokens with the English locale, calendar arithmetic and zone conversion.
package datetime

import (
	"context"
	_ "embed"
	"math"
	"strings"
	"time"
	_ "time/tzdata" // zone names must resolve on hosts without a zoneinfo database

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{"getTimezones": timezones}
	return t
}

// defaultTimezone is n8n's GENERIC_TIMEZONE default, used when the workflow sets none.
const defaultTimezone = "America/New_York"

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	action, err := ex.ParamString("action", 0)
	if err != nil {
		return nil, err
	}
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var newItem workflow.Item
		if action == "calculate" {
			newItem, err = calculate(ex, item, i)
		} else {
			newItem, err = format(ex, item, i)
		}
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			newItem = workflow.Item{JSON: workflow.ObjectOf("error", err.Error())}
		}
		newItem.PairedItem = &workflow.PairedItems{{Item: i}}
		out = append(out, newItem)
	}
	return [][]workflow.Item{out}, nil
}

func workflowZone(ex *nodes.Execution) string {
	if tz := ex.ExprContext(0).Timezone; tz != "" {
		return tz
	}
	return defaultTimezone
}

func format(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	value, err := ex.Param("value", i)
	if err != nil {
		return workflow.Item{}, err
	}
	prop, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	toFormat, err := ex.ParamString("toFormat", i)
	if err != nil {
		return workflow.Item{}, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return workflow.Item{}, err
	}
	fromFormatSet := options["fromFormat"] != nil
	fromFormat := jsv.ToString(jsv.Or(options["fromFormat"], ""))
	fromTZ := jsv.ToString(jsv.Or(options["fromTimezone"], ""))
	toTZ := jsv.ToString(jsv.Or(options["toTimezone"], ""))
	wfTZ := workflowZone(ex)

	// Numbers, and strings holding one, are timestamps; a fraction means seconds.
	current := value
	if n := jsv.ToNumber(value); !math.IsNaN(n) {
		current = n
		if n != math.Trunc(n) {
			current = n * 1000
		}
	}
	if !fromFormatSet && !plainMoment(current).valid {
		return workflow.Item{}, nodes.Errorf(i, "The date input format could not be recognized. Please set the \"From Format\" field")
	}
	var m moment
	if n, ok := current.(float64); ok && n == math.Trunc(n) && !math.IsInf(n, 0) {
		if len(jsv.ToString(n)) < 12 {
			m = fromMillis(n * 1000)
		} else {
			m = fromMillis(n)
		}
	} else if fromTZ != "" || toTZ != "" {
		zone := fromTZ
		if zone == "" {
			zone = wfTZ
		}
		m = inZone(current, fromFormat, zone)
	} else if fromFormat != "" {
		m, _ = parseFormat(jsv.ToString(current), fromFormat, false, false, time.Now())
	} else {
		m = plainMoment(current)
	}
	if fromTZ != "" || toTZ != "" {
		zone := toTZ
		if zone == "" {
			zone = wfTZ
		}
		if loc, err := time.LoadLocation(zone); err == nil {
			m = m.tz(loc)
		}
	}
	return withValue(item, prop, m.format(toFormat)), nil
}

// plainMoment is moment(x) for a number (milliseconds) or anything else as a string.
func plainMoment(x any) moment {
	if n, ok := x.(float64); ok {
		return fromMillis(n)
	}
	m, _ := parseString(jsv.ToString(x), false)
	return m
}

func fromMillis(ms float64) moment {
	if math.IsNaN(ms) || math.IsInf(ms, 0) || math.Abs(ms) > 8.64e15 {
		return invalidMoment()
	}
	return localMoment(time.UnixMilli(int64(ms)))
}

// inZone is moment.tz(x, [format,] zone): a value without an offset is wall time in the zone;
// an unknown zone leaves the value in UTC, as moment-timezone does.
func inZone(x any, format, zone string) moment {
	var m moment
	zoned := true
	if n, ok := x.(float64); ok && format == "" {
		m = fromMillis(n).toUTC()
	} else if format != "" {
		m, zoned = parseFormat(jsv.ToString(x), format, false, true, time.Now())
	} else {
		m, zoned = parseString(jsv.ToString(x), true)
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || !m.valid {
		return m
	}
	if !zoned {
		u := m.t
		m.t = time.Date(u.Year(), u.Month(), u.Day(), u.Hour(), u.Minute(), u.Second(), u.Nanosecond(), loc)
	}
	return m.tz(loc)
}

func calculate(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	value, err := ex.Param("value", i)
	if err != nil {
		return workflow.Item{}, err
	}
	operation, err := ex.ParamString("operation", i)
	if err != nil {
		return workflow.Item{}, err
	}
	duration, err := ex.ParamFloat("duration", i)
	if err != nil {
		return workflow.Item{}, err
	}
	unit, err := ex.ParamString("timeUnit", i)
	if err != nil {
		return workflow.Item{}, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return workflow.Item{}, err
	}
	prop, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	var m moment
	if fromFormat := jsv.ToString(jsv.Or(options["fromFormat"], "")); fromFormat != "" {
		m, _ = parseFormat(jsv.ToString(value), fromFormat, true, false, time.Now())
		if !m.valid {
			return workflow.Item{}, nodes.Errorf(i, `Date input cannot be parsed. Please recheck the value and the "From Format" field.`)
		}
	} else {
		// new Date(value): numbers are milliseconds, strings go through JavaScript's parser.
		t, ok := jsDate(value)
		if !ok {
			return workflow.Item{}, nodes.Errorf(i, `Unrecognized date input. Please specify a format in the "From Format" field.`)
		}
		m = localMoment(t)
	}
	if operation == "subtract" {
		duration = -duration
	}
	iso, ok := m.add(duration, unit).toISOString()
	var v any = iso
	if !ok {
		v = nil
	}
	return withValue(item, prop, v), nil
}

func jsDate(v any) (time.Time, bool) {
	if s, ok := v.(string); ok {
		return jsv.ParseDate(s)
	}
	if n, ok := workflow.Number(v); ok && !math.IsNaN(n) && math.Abs(n) <= 8.64e15 {
		return time.UnixMilli(int64(n)), true
	}
	return time.Time{}, false
}

// withValue copies the item and sets the property, a dot-notation path, to v.
func withValue(item workflow.Item, prop string, v any) workflow.Item {
	j := item.JSON.Clone()
	if j == nil {
		j = workflow.NewObject(1)
	}
	if strings.Contains(prop, ".") {
		workflow.SetPath(j, prop, v)
	} else {
		j.Set(prop, v)
	}
	return workflow.Item{JSON: j, Binary: item.Binary}
}
