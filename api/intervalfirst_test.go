package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/scheduler"
	"github.com/flowmill/flowmill/pkg/store"
)

// TestIntervalPicksUpActivationAtOnce activates an every-second Interval trigger with a scheduler running: the activation notice reaches the firer at
// once, so the first execution, one interval after the activation as in n8n, is there within
// a few seconds rather than after a reload period; later ones follow one per tick.
func TestIntervalPicksUpActivationAtOnce(t *testing.T) {
	e := startWithWorker(t, nil)
	s, err := scheduler.New(e.in)
	require.NoError(t, err)
	require.NoError(t, s.Start(context.Background()))
	t.Cleanup(s.Stop)
	const doc = `{"name":%q,"nodes":[
	 {"name":"Interval","type":"n8n-nodes-base.interval","typeVersion":1,"position":[0,0],"parameters":{"interval":1,"unit":"seconds"}}],"connections":{}}`
	count := func(id string) int {
		list, err := e.in.Store.ListExecutions(context.Background(), store.ExecutionFilter{WorkflowID: id}, 100)
		require.NoError(t, err)
		return len(list)
	}

	patched := e.saveWorkflow(t, fmt.Sprintf(doc, "patched"))
	code, b := e.setActive(t, patched, true)
	require.Equal(t, 200, code, string(b))
	require.Eventually(t, func() bool { return count(patched) >= 1 }, 3*time.Second, 10*time.Millisecond,
		"the first execution did not come within 3 s of the activation")
	require.Eventually(t, func() bool { return count(patched) >= 3 }, 10*time.Second, 20*time.Millisecond)
	code, b = e.setActive(t, patched, false)
	require.Equal(t, 200, code, string(b))
}
