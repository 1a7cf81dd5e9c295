package scheduletrigger_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/cron"
	"github.com/flowmill/flowmill/pkg/nodes/interval"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/scheduletrigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestOutput(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	at := time.Date(2023, 6, 1, 20, 5, 9, 123e6, time.UTC)
	require.Equal(t, m{
		"timestamp":     "2023-06-01T16:05:09.123-04:00",
		"Readable date": "June 1st 2023, 4:05:09 pm",
		"Readable time": "4:05:09 pm",
		"Day of week":   "Thursday",
		"Year":          "2023",
		"Month":         "June",
		"Day of month":  "01",
		"Hour":          "16",
		"Minute":        "05",
		"Second":        "09",
		"Timezone":      "EDT -04:00",
	}, scheduletrigger.Output(at, ny).ToMap())
	for d, want := range map[int]string{2: "2nd", 3: "3rd", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 23: "23rd", 31: "31st"} {
		got := scheduletrigger.Output(time.Date(2023, 1, d, 12, 0, 0, 0, time.UTC), time.UTC).Get("Readable date")
		require.Contains(t, got, " "+want+" ", d)
	}
	require.Equal(t, "2023-01-02T12:00:00.000+00:00", scheduletrigger.Output(time.Date(2023, 1, 2, 12, 0, 0, 0, time.UTC), time.UTC).Get("timestamp"))
}

func TestManualRuns(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, scheduletrigger.Type(), nodetest.Node{})
	require.NoError(t, err)
	require.Len(t, out[0], 1)
	require.Equal(t, "America/New_York", zoneOf(t, out[0][0]))

	clock := func() time.Time { return time.Date(2023, 1, 15, 12, 0, 0, 0, time.UTC) }
	out, err = nodetest.Run(t, scheduletrigger.Type(), nodetest.Node{Flow: nodes.FlowConfig{Now: clock}})
	require.NoError(t, err)
	require.Equal(t, "2023-01-15T07:00:00.000-05:00", out[0][0].JSON.Get("timestamp"), "the engine's clock in the default zone")

	for _, typ := range []nodes.Type{cron.Type(), interval.Type()} {
		out, err := nodetest.Run(t, typ, nodetest.Node{})
		require.NoError(t, err, typ.Description.Name)
		require.Equal(t, [][]m{{{}}}, nodetest.Outputs(out), typ.Description.Name)
		require.Equal(t, nodes.KindTrigger, typ.Kind)
	}
	require.Equal(t, nodes.KindTrigger, scheduletrigger.Type().Kind)
	_, err = nodetest.Run(t, interval.Type(), nodetest.Node{Parameters: m{"interval": 0.0}})
	require.ErrorContains(t, err, "at least 1")
}

// zoneOf checks the offset of the output against New York's at that moment.
func zoneOf(t *testing.T, it workflow.Item) string {
	t.Helper()
	ts, err := time.Parse("2006-01-02T15:04:05.000-07:00", it.JSON.Get("timestamp").(string))
	require.NoError(t, err)
	ny, _ := time.LoadLocation("America/New_York")
	_, off := ts.Zone()
	_, want := ts.In(ny).Zone()
	require.Equal(t, want, off)
	return "America/New_York"
}

func TestDescriptionDefaults(t *testing.T) {
	t.Parallel()
	d := scheduletrigger.Type().Description
	params, err := workflow.ResolveParameters(d.Properties, m{}, 1)
	require.NoError(t, err)
	require.Equal(t, m{"interval": []any{m{"field": "days", "daysInterval": 1.0, "triggerAtHour": 0.0, "triggerAtMinute": 0.0}}}, params["rule"])
	cronParams, err := workflow.ResolveParameters(cron.Type().Description.Properties,
		m{"triggerTimes": m{"item": []any{m{"mode": "everyWeek"}}}}, 1)
	require.NoError(t, err)
	item := cronParams["triggerTimes"].(m)["item"].([]any)[0].(m)
	require.Equal(t, 14.0, item["hour"])
	require.Equal(t, "1", item["weekday"])
	require.NotContains(t, item, "dayOfMonth")
}

// From version 1.1 the Timezone field names the zone with its offset.
func TestOutputV11(t *testing.T) {
	t.Parallel()
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	at := time.Date(2023, 12, 28, 14, 47, 13, 0, time.UTC)
	for version, want := range map[float64]string{1: "CET +01:00", 1.1: "Europe/Berlin (UTC+01:00)", 1.2: "Europe/Berlin (UTC+01:00)"} {
		o := scheduletrigger.OutputFor(at, berlin, version)
		require.Equal(t, want, o.Get("Timezone"), version)
		require.Equal(t, []string{"timestamp", "Readable date", "Readable time", "Day of week", "Year", "Month", "Day of month",
			"Hour", "Minute", "Second", "Timezone"}, o.Keys())
		require.Equal(t, "December 28th 2023, 3:47:13 pm", o.Get("Readable date"))
		require.Equal(t, "2023-12-28T15:47:13.000+01:00", o.Get("timestamp"))
	}
	clock := func() time.Time { return at }
	out, err := nodetest.Run(t, scheduletrigger.Type(), nodetest.Node{Version: 1.2, Flow: nodes.FlowConfig{Now: clock}})
	require.NoError(t, err)
	require.Equal(t, "America/New_York (UTC-05:00)", out[0][0].JSON.Get("Timezone"))
}

// From version 1.1 a run by hand refuses an invalid custom expression.
func TestManualRunChecksCron(t *testing.T) {
	t.Parallel()
	params := m{"rule": m{"interval": []any{m{"field": "cronExpression", "expression": "100 * * * *"}}}}
	_, err := nodetest.Run(t, scheduletrigger.Type(), nodetest.Node{Version: 1.2, Parameters: params})
	require.Equal(t, "Invalid cron expression", nodetest.NodeError(t, err).Message)
	_, err = nodetest.Run(t, scheduletrigger.Type(), nodetest.Node{Version: 1, Parameters: params})
	require.NoError(t, err)
}
