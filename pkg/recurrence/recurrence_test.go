package recurrence_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/recurrence"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(t, err)
	return loc
}

func at(t *testing.T, loc *time.Location, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04:05", s, loc)
	require.NoError(t, err)
	return v
}

func TestNextCron(t *testing.T) {
	t.Parallel()
	ny := mustLoc(t, "America/New_York")
	berlin := mustLoc(t, "Europe/Berlin")
	tests := []struct {
		name      string
		expr      string
		zeroBased bool
		loc       *time.Location
		after     string
		want      []string // successive firings, wall clock in loc
	}{
		{"every second", "* * * * * *", false, time.UTC, "2023-01-01 00:00:00", []string{"2023-01-01 00:00:01", "2023-01-01 00:00:02"}},
		{"five fields mean second 0", "30 14 * * *", false, time.UTC, "2023-01-01 14:30:00", []string{"2023-01-02 14:30:00"}},
		{"steps and ranges", "0 */20 9-10 * * *", false, time.UTC, "2023-01-01 09:30:00",
			[]string{"2023-01-01 09:40:00", "2023-01-01 10:00:00", "2023-01-01 10:20:00", "2023-01-01 10:40:00", "2023-01-02 09:00:00"}},
		{"lists and names", "0 0 12 * * mon,fri", false, time.UTC, "2023-01-01 00:00:00", []string{"2023-01-02 12:00:00", "2023-01-06 12:00:00"}},
		{"7 is Sunday", "0 0 0 * * 7", false, time.UTC, "2023-01-02 00:00:00", []string{"2023-01-08 00:00:00"}},
		{"zero-based months: 1 is February", "0 0 0 1 1 *", true, time.UTC, "2023-01-15 00:00:00", []string{"2023-02-01 00:00:00", "2024-02-01 00:00:00"}},
		{"one-based months: 1 is January", "0 0 0 1 1 *", false, time.UTC, "2023-01-15 00:00:00", []string{"2024-01-01 00:00:00"}},
		{"month names are the same either way", "0 0 0 1 feb *", true, time.UTC, "2023-01-15 00:00:00", []string{"2023-02-01 00:00:00"}},
		{"zero-based month steps start in January", "0 0 0 1 */3 *", true, time.UTC, "2023-01-15 00:00:00", []string{"2023-04-01 00:00:00", "2023-07-01 00:00:00"}},
		{"day of month and weekday must both match", "0 0 0 13 * 5", false, time.UTC, "2023-01-01 00:00:00", []string{"2023-01-13 00:00:00", "2023-10-13 00:00:00"}},
		{"31st skips short months", "0 0 0 31 * *", false, time.UTC, "2023-01-31 00:00:00", []string{"2023-03-31 00:00:00"}},
		{"29 February", "0 0 0 29 2 *", false, time.UTC, "2023-01-01 00:00:00", []string{"2024-02-29 00:00:00", "2028-02-29 00:00:00"}},
		{"time zone", "0 0 9 * * *", false, ny, "2023-01-01 09:00:00", []string{"2023-01-02 09:00:00"}},
		{"spring forward: skipped time fires shifted once", "0 30 2 * * *", false, ny, "2023-03-11 12:00:00",
			[]string{"2023-03-12 03:30:00", "2023-03-13 02:30:00"}},
		{"spring forward: hourly runs every real hour", "0 0 * * * *", false, ny, "2023-03-12 00:30:00",
			[]string{"2023-03-12 01:00:00", "2023-03-12 03:00:00", "2023-03-12 04:00:00"}},
		{"fall back: repeated time fires once", "0 30 1 * * *", false, ny, "2023-11-04 12:00:00",
			[]string{"2023-11-05 01:30:00", "2023-11-06 01:30:00"}},
		{"daily at 9 across the change keeps wall clock", "0 0 9 * * *", false, berlin, "2023-03-25 09:00:00",
			[]string{"2023-03-26 09:00:00", "2023-03-27 09:00:00"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := recurrence.ParseCron(tc.expr, tc.zeroBased)
			require.NoError(t, err)
			cur := at(t, tc.loc, tc.after)
			for _, w := range tc.want {
				next := r.Next(cur, tc.loc)
				require.Equal(t, w, next.In(tc.loc).Format("2006-01-02 15:04:05"), "after %s", cur.In(tc.loc))
				require.True(t, next.After(cur))
				cur = next
			}
		})
	}
}

// TestFallBackByInstant checks firings across a fall-back by instant (UTC), since the wall clock
// shows the repeated hour twice: a fixed time fires once, at its first instant, in zones west
// and east of UTC alike; a rule that fires every hour goes on firing every real hour.
func TestFallBackByInstant(t *testing.T) {
	t.Parallel()
	ny := mustLoc(t, "America/New_York")
	berlin := mustLoc(t, "Europe/Berlin")
	tests := []struct {
		name, expr string
		loc        *time.Location
		after      string   // wall clock in loc
		want       []string // successive firings in UTC
	}{
		{"repeated time fires once", "0 30 1 * * *", ny, "2023-11-05 00:00:00",
			[]string{"2023-11-05 05:30:00", "2023-11-06 06:30:00"}},
		{"repeated time fires at its first instant east of UTC", "0 30 2 * * *", berlin, "2023-10-28 12:00:00",
			[]string{"2023-10-29 00:30:00", "2023-10-30 01:30:00"}},
		{"hourly runs every real hour", "0 0 * * * *", ny, "2023-11-04 23:30:00",
			[]string{"2023-11-05 04:00:00", "2023-11-05 05:00:00", "2023-11-05 06:00:00", "2023-11-05 07:00:00"}},
		{"hourly runs every real hour east of UTC", "0 0 * * * *", berlin, "2023-10-29 00:30:00",
			[]string{"2023-10-28 23:00:00", "2023-10-29 00:00:00", "2023-10-29 01:00:00", "2023-10-29 02:00:00"}},
		{"every 20 minutes through the repeated hour", "0 */20 * * * *", ny, "2023-11-05 00:50:00",
			[]string{"2023-11-05 05:00:00", "2023-11-05 05:20:00", "2023-11-05 05:40:00", "2023-11-05 06:00:00",
				"2023-11-05 06:20:00", "2023-11-05 06:40:00", "2023-11-05 07:00:00"}},
		{"fixed hours keep their first instant", "0 0 1-2 * * *", ny, "2023-11-05 00:00:00",
			[]string{"2023-11-05 05:00:00", "2023-11-05 07:00:00"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := recurrence.ParseCron(tc.expr, false)
			require.NoError(t, err)
			cur := at(t, tc.loc, tc.after)
			for _, w := range tc.want {
				cur = r.Next(cur, tc.loc)
				require.Equal(t, w, cur.UTC().Format("2006-01-02 15:04:05"))
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{"", "* * *", "61 * * * * *", "* * 24 * * *", "* * * 0 * *", "* * * * 13 *", "* * * * * 8", "*/0 * * * * *", "5-1 * * * * *", "x * * * * *", "* * * * 12 *"} {
		zero := expr == "* * * * 12 *"
		_, err := recurrence.ParseCron(expr, zero)
		require.Error(t, err, expr)
	}
	r, err := recurrence.ParseCron("0 0 0 30 2 *", false)
	require.NoError(t, err)
	require.True(t, r.Next(time.Now(), time.UTC).IsZero(), "30 February never comes")
}

func TestIntervalAndWeeks(t *testing.T) {
	t.Parallel()
	r := recurrence.Rule{Every: 90 * time.Second}
	t0 := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	require.Equal(t, t0.Add(90*time.Second), r.Next(t0, nil))
	require.True(t, recurrence.Rule{}.Next(t0, nil).IsZero())

	w := recurrence.Rule{WeeksInterval: 2}
	mon := time.Date(2023, 1, 2, 10, 0, 0, 0, time.UTC)
	require.True(t, w.WeekDue(time.Time{}, mon, nil))
	require.False(t, w.WeekDue(mon, mon.AddDate(0, 0, 6), nil))
	require.True(t, w.WeekDue(mon, mon.AddDate(0, 0, 14), nil))
	require.True(t, w.WeekDue(mon.AddDate(0, 0, 6), mon.AddDate(0, 0, 14), nil), "a Sunday to the Monday two calendar weeks on")
	require.False(t, w.WeekDue(mon.AddDate(0, 0, 6), mon.AddDate(0, 0, 8), nil), "a Sunday to the Tuesday of the next week")
	require.True(t, recurrence.Rule{}.WeekDue(mon, mon, nil))
}

func node(typ string, params m) *workflow.Node {
	return &workflow.Node{ID: "n1", Name: "Trigger", Type: typ, TypeVersion: 1, Parameters: params}
}

func TestFromNode(t *testing.T) {
	t.Parallel()
	after := time.Date(2023, 6, 14, 12, 0, 59, 500, time.UTC) // a Wednesday, late in the minute
	item := func(e m) m { return m{"triggerTimes": m{"item": []any{e}}} }
	tests := []struct {
		name  string
		node  *workflow.Node
		every time.Duration
		weeks int
		want  string // next firing after `after`, second ignored for spread rules
	}{
		{"cron every minute", node("n8n-nodes-base.cron", item(m{"mode": "everyMinute"})), 0, 0, "2023-06-14 12:01"},
		{"cron every hour", node("n8n-nodes-base.cron", item(m{"mode": "everyHour", "minute": 15.0})), 0, 0, "2023-06-14 12:15"},
		{"cron every day takes defaults", node("n8n-nodes-base.cron", item(m{"mode": "everyDay"})), 0, 0, "2023-06-14 14:00"},
		{"cron every week", node("n8n-nodes-base.cron", item(m{"mode": "everyWeek", "hour": 9.0, "weekday": "5"})), 0, 0, "2023-06-16 09:00"},
		{"cron every month", node("n8n-nodes-base.cron", item(m{"mode": "everyMonth", "hour": 0.0, "dayOfMonth": 3.0})), 0, 0, "2023-07-03 00:00"},
		{"cron every x minutes", node("n8n-nodes-base.cron", item(m{"mode": "everyX", "value": 7.0, "unit": "minutes"})), 0, 0, "2023-06-14 12:07"},
		{"cron every x hours", node("n8n-nodes-base.cron", item(m{"mode": "everyX", "value": 5.0})), 0, 0, "2023-06-14 15:00"},
		{"cron custom with zero-based months", node("n8n-nodes-base.cron", item(m{"mode": "custom", "cronExpression": "0 0 8 1 6 *"})), 0, 0, "2023-07-01 08:00"},
		{"interval seconds", node("n8n-nodes-base.interval", m{}), time.Second, 0, ""},
		{"interval hours", node("n8n-nodes-base.interval", m{"interval": 2.0, "unit": "hours"}), 2 * time.Hour, 0, ""},
		{"schedule default is daily at midnight", node("n8n-nodes-base.scheduleTrigger", m{}), 0, 0, "2023-06-15 00:00"},
		{"schedule seconds", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "seconds", "secondsInterval": 10.0}}}}), 10 * time.Second, 0, ""},
		{"schedule minutes", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "minutes"}}}}), 5 * time.Minute, 0, ""},
		{"schedule hours", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "hours", "hoursInterval": 5.0, "triggerAtMinute": 30.0}}}}), 0, 0, "2023-06-14 15:30"},
		{"schedule days", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "days", "daysInterval": 2.0, "triggerAtHour": 13.0}}}}), 0, 0, "2023-06-15 13:00"},
		{"schedule weeks", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "weeks", "weeksInterval": 2.0, "triggerAtDay": []any{1.0, 3.0}, "triggerAtHour": 18.0}}}}), 0, 2, "2023-06-14 18:00"},
		{"schedule months", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "months", "monthsInterval": 1.0, "triggerAtDayOfMonth": 20.0, "triggerAtHour": 6.0}}}}), 0, 0, "2023-06-20 06:00"},
		{"schedule cron expression", node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "cronExpression", "expression": "0 15 * * sun"}}}}), 0, 0, "2023-06-18 15:00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rules, err := recurrence.FromNode(tc.node)
			require.NoError(t, err)
			require.Len(t, rules, 1)
			require.Equal(t, tc.every, rules[0].Every)
			require.Equal(t, tc.weeks, rules[0].WeeksInterval)
			if tc.want != "" {
				require.Equal(t, tc.want, rules[0].Next(after, time.UTC).Format("2006-01-02 15:04"))
			}
		})
	}
	again, err := recurrence.FromNode(node("n8n-nodes-base.cron", item(m{"mode": "everyMinute"})))
	require.NoError(t, err)
	first, _ := recurrence.FromNode(node("n8n-nodes-base.cron", item(m{"mode": "everyMinute"})))
	require.Equal(t, first[0].Cron, again[0].Cron, "the spread second is stable")
}

func TestFromNodeErrors(t *testing.T) {
	t.Parallel()
	_, err := recurrence.FromNode(node("n8n-nodes-base.set", m{}))
	require.ErrorIs(t, err, recurrence.ErrNotSchedule)
	_, err = recurrence.FromNode(node("n8n-nodes-base.interval", m{"interval": 0.0}))
	require.ErrorContains(t, err, "at least 1")
	_, err = recurrence.FromNode(node("n8n-nodes-base.scheduleTrigger", m{"rule": m{"interval": []any{m{"field": "cronExpression", "expression": "nope"}}}}))
	require.ErrorContains(t, err, "Invalid cron expression")
	rules, err := recurrence.FromNode(node("n8n-nodes-base.cron", m{}))
	require.NoError(t, err)
	require.Empty(t, rules, "a Cron node without times never fires")
}
