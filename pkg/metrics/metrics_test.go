package metrics

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// TestWorkflowLabelsAreBounded: the run time histogram has a series per workflow for the first
// MaxWorkflowLabels workflows only; later ones, and unsaved workflows, share "other".
func TestWorkflowLabelsAreBounded(t *testing.T) {
	m := New()
	for i := range MaxWorkflowLabels + 50 {
		m.Finished("trigger", "success", fmt.Sprint("wf", i), 0.1)
	}
	m.Finished("manual", "success", "", 0.1)
	m.Finished("trigger", "success", "wf0", 0.1) // a known one keeps its label
	require.Equal(t, MaxWorkflowLabels+1, series(m.ExecutionDuration))
	require.Equal(t, 2, series(m.ExecutionsTotal))
	var nilMetrics *Metrics
	nilMetrics.Finished("manual", "success", "x", 1) // nil records nothing
	nilMetrics.Tick(TickFired)
}

// series counts the series c collects.
func series(c prometheus.Collector) int {
	ch := make(chan prometheus.Metric)
	go func() { c.Collect(ch); close(ch) }()
	n := 0
	for range ch {
		n++
	}
	return n
}
