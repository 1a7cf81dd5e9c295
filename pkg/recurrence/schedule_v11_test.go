package recurrence_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/recurrence"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// fires lists the first n firings after from, each rule keeping its own last firing as the
// scheduler does.
func fires(t *testing.T, node *workflow.Node, from time.Time, loc *time.Location, n int, layout string) []string {
	t.Helper()
	rules, err := recurrence.FromNode(node)
	require.NoError(t, err)
	last := make([]time.Time, len(rules))
	next := make([]time.Time, len(rules))
	for i, r := range rules {
		next[i] = r.Next(from, loc)
	}
	var out []string
	for guard := 0; len(out) < n && guard < 100000; guard++ {
		i := 0
		for j := range next {
			if next[j].Before(next[i]) {
				i = j
			}
		}
		at := next[i]
		if rules[i].Due(last[i], at, loc) {
			out = append(out, at.In(loc).Format(layout))
			last[i] = at
		}
		next[i] = rules[i].Next(at, loc)
	}
	return out
}

func schedule(version float64, intervals ...m) *workflow.Node {
	list := make([]any, len(intervals))
	for i, iv := range intervals {
		list[i] = iv
	}
	return &workflow.Node{ID: "n1", Name: "Schedule Trigger", Type: "n8n-nodes-base.scheduleTrigger", TypeVersion: version,
		Parameters: m{"rule": m{"interval": list}}}
}

func TestScheduleTriggerV11FireTimes(t *testing.T) {
	t.Parallel()
	from := time.Date(2023, 6, 14, 12, 0, 30, 0, time.UTC) // a Wednesday
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	const minute, day = "2006-01-02 15:04", "Mon 2006-01-02 15:04"
	tests := []struct {
		name   string
		node   *workflow.Node
		loc    *time.Location
		layout string
		want   []string
	}{
		{"custom cron months count from 0 in version 1", schedule(1, m{"field": "cronExpression", "expression": "0 8 1 6 *"}), time.UTC, minute,
			[]string{"2023-07-01 08:00", "2024-07-01 08:00"}},
		{"custom cron months count from 1 from version 1.1", schedule(1.1, m{"field": "cronExpression", "expression": "0 8 1 6 *"}), time.UTC, minute,
			[]string{"2024-06-01 08:00", "2025-06-01 08:00"}},
		{"custom cron with seconds, 7 is Sunday", schedule(1.2, m{"field": "cronExpression", "expression": "15 0 9 * * 7"}), time.UTC, "Mon 2006-01-02 15:04:05",
			[]string{"Sun 2023-06-18 09:00:15", "Sun 2023-06-25 09:00:15"}},
		{"seconds count on the clock", schedule(1.2, m{"field": "seconds", "secondsInterval": 20.0}), time.UTC, "15:04:05",
			[]string{"12:00:40", "12:01:00", "12:01:20", "12:01:40"}},
		{"minutes dividing the hour", schedule(1.2, m{"field": "minutes", "minutesInterval": 15.0}), time.UTC, minute,
			[]string{"2023-06-14 12:15", "2023-06-14 12:30", "2023-06-14 12:45", "2023-06-14 13:00"}},
		{"minutes not dividing the hour keep their spacing", schedule(1.2, m{"field": "minutes", "minutesInterval": 25.0}), time.UTC, minute,
			[]string{"2023-06-14 12:01", "2023-06-14 12:26", "2023-06-14 12:51", "2023-06-14 13:16"}},
		{"every 6 hours at minute 30", schedule(1.2, m{"field": "hours", "hoursInterval": 6.0, "triggerAtMinute": 30.0}), time.UTC, minute,
			[]string{"2023-06-14 12:30", "2023-06-14 18:30", "2023-06-15 00:30", "2023-06-15 06:30"}},
		{"every 18 hours", schedule(1.2, m{"field": "hours", "hoursInterval": 18.0, "triggerAtMinute": 0.0}), time.UTC, minute,
			[]string{"2023-06-14 13:00", "2023-06-15 07:00", "2023-06-16 01:00", "2023-06-16 19:00"}},
		{"every 2 days at 1pm", schedule(1.2, m{"field": "days", "daysInterval": 2.0, "triggerAtHour": 13.0}), time.UTC, minute,
			[]string{"2023-06-14 13:00", "2023-06-16 13:00", "2023-06-18 13:00"}},
		{"days in the workflow's zone", schedule(1.2, m{"field": "days", "triggerAtHour": 9.0, "triggerAtMinute": 15.0}), berlin, "2006-01-02 15:04 MST",
			[]string{"2023-06-15 09:15 CEST", "2023-06-16 09:15 CEST"}},
		{"every 2 weeks on Monday and Wednesday", schedule(1.2, m{"field": "weeks", "weeksInterval": 2.0, "triggerAtDay": []any{1.0, 3.0}, "triggerAtHour": 18.0}),
			time.UTC, day, []string{"Wed 2023-06-14 18:00", "Mon 2023-06-26 18:00", "Wed 2023-06-28 18:00", "Mon 2023-07-10 18:00"}},
		{"weekly defaults to Sunday midnight", schedule(1.2, m{"field": "weeks"}), time.UTC, day,
			[]string{"Sun 2023-06-18 00:00", "Sun 2023-06-25 00:00"}},
		{"every 3 months on the 20th", schedule(1.2, m{"field": "months", "monthsInterval": 3.0, "triggerAtDayOfMonth": 20.0, "triggerAtHour": 6.0}),
			time.UTC, minute, []string{"2023-07-20 06:00", "2023-10-20 06:00", "2024-01-20 06:00"}},
		{"every 5 months", schedule(1.2, m{"field": "months", "monthsInterval": 5.0, "triggerAtDayOfMonth": 20.0}), time.UTC, minute,
			[]string{"2023-06-20 00:00", "2023-11-20 00:00", "2024-04-20 00:00"}},
		{"several rules", schedule(1.1, m{"field": "days", "triggerAtHour": 8.0}, m{"field": "hours", "hoursInterval": 12.0, "triggerAtMinute": 5.0}),
			time.UTC, minute, []string{"2023-06-14 12:05", "2023-06-15 00:05", "2023-06-15 08:00", "2023-06-15 12:05"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tc.want, fires(t, tc.node, from, tc.loc, len(tc.want), tc.layout))
		})
	}
}

// From version 1.1 the rules of minutes and longer fire at a second derived from the node, the
// same in every scheduler replica; seconds rules fire on the clock.
func TestScheduleTriggerV11Second(t *testing.T) {
	t.Parallel()
	from := time.Date(2023, 6, 14, 12, 0, 30, 0, time.UTC)
	a, err := recurrence.FromNode(schedule(1.2, m{"field": "days"}))
	require.NoError(t, err)
	b, err := recurrence.FromNode(schedule(1.2, m{"field": "days"}))
	require.NoError(t, err)
	require.Equal(t, a[0].Next(from, time.UTC), b[0].Next(from, time.UTC))
	require.Equal(t, a[0].Cron, b[0].Cron)
	v1, err := recurrence.FromNode(schedule(1, m{"field": "days"}))
	require.NoError(t, err)
	require.Equal(t, 0, v1[0].Next(from, time.UTC).Second(), "version 1 fires on the minute")
	_, err = recurrence.FromNode(schedule(1.2, m{"field": "cronExpression", "expression": "61 * * * *"}))
	require.ErrorContains(t, err, "Invalid cron expression")
}
