// Package scheduletrigger is the Schedule Trigger node (versions 1, 1.1 and 1.2): it fires on the
// rules it lists (intervals in seconds to months, or cron expressions) once the workflow is
// active (see pkg/recurrence for the firing times of each version). Each firing, and a run by
// hand, outputs one item describing the moment in the workflow's time zone.
package scheduletrigger

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/recurrence"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Type{Description: nodes.MustParseDescription(descriptionJSON), Kind: nodes.KindTrigger, Node: nodes.NodeFunc(execute)}
}

// defaultTimezone is n8n's default when neither the workflow nor the instance sets one.
const defaultTimezone = "America/New_York"

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	zone := ex.ExprContext(0).Timezone
	if zone == "" {
		zone = defaultTimezone
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, nodes.Errorf(-1, "Invalid time zone %q", zone)
	}
	if ex.TypeVersion() >= 1.1 {
		// As n8n 1.x, a run by hand refuses a custom expression the schedule could not use.
		if _, err := recurrence.FromNode(ex.Node()); err != nil && strings.HasPrefix(err.Error(), "Invalid cron expression") {
			return nil, &nodes.Error{Message: "Invalid cron expression", Description: "More information on how to build them at https://crontab.guru/",
				ItemIndex: -1, Cause: err}
		}
	}
	return [][]workflow.Item{{{JSON: OutputFor(ex.Now(), loc, ex.TypeVersion())}}}, nil
}

// OutputFor is the item a firing at t emits from a node of the given version: from 1.1 the
// Timezone field names the zone and its offset, as n8n 1.x writes it
// ("Europe/Berlin (UTC+01:00)"); version 1 keeps the abbreviation and offset.
func OutputFor(t time.Time, loc *time.Location, version float64) *workflow.Object {
	o := Output(t, loc)
	if version >= 1.1 {
		o.Set("Timezone", fmt.Sprintf("%s (UTC%s)", loc.String(), t.In(loc).Format("-07:00")))
	}
	return o
}

// Output is the item a firing at t emits, formatted as n8n does with moment in loc.
func Output(t time.Time, loc *time.Location) *workflow.Object {
	t = t.In(loc)
	return workflow.ObjectOf(
		"timestamp", t.Format("2006-01-02T15:04:05.000-07:00"),
		"Readable date", fmt.Sprintf("%s %s %d, %s", t.Format("January"), ordinal(t.Day()), t.Year(), t.Format("3:04:05 pm")),
		"Readable time", t.Format("3:04:05 pm"),
		"Day of week", t.Format("Monday"),
		"Year", t.Format("2006"),
		"Month", t.Format("January"),
		"Day of month", t.Format("02"),
		"Hour", t.Format("15"),
		"Minute", t.Format("04"),
		"Second", t.Format("05"),
		"Timezone", t.Format("MST -07:00"),
	)
}

// ordinal is moment's "Do": 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st …
func ordinal(d int) string {
	suffix := "th"
	if d%100 < 11 || d%100 > 13 {
		switch d % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", d, suffix)
}
