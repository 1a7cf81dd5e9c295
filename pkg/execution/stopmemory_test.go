package execution

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A stop request heard before the run is tracked here still stops it: an execution stored by
// this process may be stopped before its run starts.
func TestStopHeardBeforeTrackingStopsTheRun(t *testing.T) {
	r := &Runner{running: map[int64][]*context.CancelCauseFunc{}, stopped: map[int64]time.Time{}}
	r.cancel(7, errStopRequested)

	stoppedCtx, stop := context.WithCancelCause(context.Background())
	untrack := r.track(7, stop)
	require.ErrorIs(t, context.Cause(stoppedCtx), errStopRequested)
	untrack()

	otherCtx, other := context.WithCancelCause(context.Background())
	defer r.track(8, other)()
	require.NoError(t, otherCtx.Err(), "a stop for another execution does not reach this one")

	// A request is applied once: the id tracked again later is not stopped.
	againCtx, again := context.WithCancelCause(context.Background())
	defer r.track(7, again)()
	require.NoError(t, againCtx.Err())

	// While tracked, a stop reaches the run directly.
	r.cancel(8, errStopRequested)
	require.ErrorIs(t, context.Cause(otherCtx), errStopRequested)
}

// Two runs of one execution in this process (a task queued again for a stalled run) are tracked
// apart: the end of one leaves the other reachable, and a stop reaches both.
func TestTwoRunsOfOneExecutionAreTrackedApart(t *testing.T) {
	r := &Runner{running: map[int64][]*context.CancelCauseFunc{}, stopped: map[int64]time.Time{}}
	firstCtx, first := context.WithCancelCause(context.Background())
	defer r.track(3, first)()
	secondCtx, second := context.WithCancelCause(context.Background())
	r.track(3, second)()
	require.NoError(t, secondCtx.Err())

	r.cancel(3, errStopRequested)
	require.ErrorIs(t, context.Cause(firstCtx), errStopRequested, "the first run still hears stop requests")
}

// Requests older than stopMemory are forgotten, and the memory stays bounded.
func TestStopMemoryIsBounded(t *testing.T) {
	r := &Runner{running: map[int64][]*context.CancelCauseFunc{}, stopped: map[int64]time.Time{}}
	for id := range int64(stopMemorySize + 50) {
		r.cancel(id, errStopRequested)
	}
	require.LessOrEqual(t, len(r.stopped), stopMemorySize)

	r.stopped[99999] = time.Now().Add(-2 * stopMemory)
	ctx, c := context.WithCancelCause(context.Background())
	defer r.track(99999, c)()
	require.NoError(t, ctx.Err(), "a stale request does not stop a new run")
}
