package trigger_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A Schedule Trigger 1.2 rule every 2 days keeps its spacing when another scheduler takes
// over: the last firing is shared, so the newcomer skips the day in between.
func TestFirerSharesRecurrenceAcrossSchedulers(t *testing.T) {
	in := openInfra(t)
	start := time.Date(2023, 6, 14, 12, 0, 0, 0, time.UTC)
	first, clock := startFirer(t, in, nil, start)
	w := saveActive(t, in, first, `{"name":"every other day","nodes":[{"name":"Schedule Trigger","type":"n8n-nodes-base.scheduleTrigger",
	  "typeVersion":1.2,"position":[0,0],"parameters":{"rule":{"interval":[{"field":"days","daysInterval":2,"triggerAtHour":13}]}}}],
	  "connections":{},"settings":{"timezone":"UTC"}}`)
	for !first.NextTick().After(start.Add(2 * time.Hour)) {
		advance(t, first, clock)
	}
	require.Len(t, queuedFires(t, in, w.ID), 1)
	first.Stop()

	second, clock2 := startFirer(t, in, nil, start.Add(20*time.Hour))
	require.Eventually(t, func() bool { return second.Loaded(w.ID, w.VersionID) }, 10*time.Second, 5*time.Millisecond)
	until := start.Add(3*24*time.Hour + 2*time.Hour)
	for !second.NextTick().After(until) {
		advance(t, second, clock2)
	}
	var days []string
	for _, at := range queuedFires(t, in, w.ID) {
		days = append(days, at.UTC().Format("2006-01-02 15:04"))
	}
	require.Equal(t, []string{"2023-06-14 13:00", "2023-06-16 13:00"}, days)
}
