package trigger_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFirerFiresAcrossDaylightSavingChanges runs the trigger firer with a fake clock
// through the 2023 daylight-saving changes of New York (the workflow's time zone setting) and
// checks the ticks it queues in Redis: a time the spring-forward skips fires once, at the
// shifted instant; a time the fall-back repeats fires once, at its first instant; rules that
// fire every hour (or more often) go on firing by real time, without a duplicate or a gap.
// pkg/schedule tests the rules alone; this goes through loading the active workflow, the
// scheduler's ticks and the queue.
func TestFirerFiresAcrossDaylightSavingChanges(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	require.NoError(t, err)
	scheduleTrigger := func(interval string) string {
		return fmt.Sprintf(`{"name":"Schedule Trigger","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1,"position":[0,0],
		  "parameters":{"rule":{"interval":[%s]}}}`, interval)
	}
	cron := func(expr string) string {
		return fmt.Sprintf(`{"name":"Cron","type":"n8n-nodes-base.cron","typeVersion":1,"position":[0,0],
		  "parameters":{"triggerTimes":{"item":[{"mode":"custom","cronExpression":%q}]}}}`, expr)
	}
	tests := []struct {
		name        string
		node        string
		from, until string   // wall clock in New York
		want        []string // fire times, wall clock in New York
	}{
		{"daily 02:30 on the spring-forward day fires once, at 03:30 EDT",
			scheduleTrigger(`{"field":"days","triggerAtHour":2,"triggerAtMinute":30}`), "2023-03-11 12:00:00", "2023-03-13 12:00:00",
			[]string{"2023-03-12 03:30:00 EDT", "2023-03-13 02:30:00 EDT"}},
		{"hourly across the fall-back fires once per real hour",
			scheduleTrigger(`{"field":"hours","hoursInterval":1,"triggerAtMinute":0}`), "2023-11-04 23:30:00", "2023-11-05 03:30:00",
			[]string{"2023-11-05 00:00:00 EDT", "2023-11-05 01:00:00 EDT", "2023-11-05 01:00:00 EST",
				"2023-11-05 02:00:00 EST", "2023-11-05 03:00:00 EST"}},
		{"custom expression at a repeated time fires once",
			cron("0 30 1 * * *"), "2023-11-04 12:00:00", "2023-11-06 12:00:00",
			[]string{"2023-11-05 01:30:00 EDT", "2023-11-06 01:30:00 EST"}},
		{"custom expression every 20 minutes across the spring-forward",
			cron("0 */20 * * * *"), "2023-03-12 01:30:00", "2023-03-12 03:50:00",
			[]string{"2023-03-12 01:40:00 EST", "2023-03-12 03:00:00 EDT", "2023-03-12 03:20:00 EDT", "2023-03-12 03:40:00 EDT"}},
		{"custom expression every 20 minutes across the fall-back",
			cron("0 */20 * * * *"), "2023-11-05 00:50:00", "2023-11-05 02:10:00",
			[]string{"2023-11-05 01:00:00 EDT", "2023-11-05 01:20:00 EDT", "2023-11-05 01:40:00 EDT",
				"2023-11-05 01:00:00 EST", "2023-11-05 01:20:00 EST", "2023-11-05 01:40:00 EST", "2023-11-05 02:00:00 EST"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			from, err := time.ParseInLocation(time.DateTime, tc.from, ny)
			require.NoError(t, err)
			until, err := time.ParseInLocation(time.DateTime, tc.until, ny)
			require.NoError(t, err)
			in := openInfra(t)
			s, clock := startFirer(t, in, nil, from)
			w := saveActive(t, in, s, `{"name":"dst","nodes":[`+tc.node+`],"connections":{},"settings":{"timezone":"America/New_York"}}`)
			for !s.NextTick().After(until) {
				advance(t, s, clock)
			}
			var got []string
			for _, at := range queuedFires(t, in, w.ID) {
				got = append(got, at.In(ny).Format("2006-01-02 15:04:05 MST"))
			}
			require.Equal(t, tc.want, got)
		})
	}
}
