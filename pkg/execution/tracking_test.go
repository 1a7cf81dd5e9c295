package execution

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Two runs of one execution in this process (a task queued again for a stalled run) are tracked
// apart: the end of one leaves the other reachable, and a stop reaches every run of its execution.
func TestTwoRunsOfOneExecutionAreTrackedApart(t *testing.T) {
	r := &Runner{running: map[int64][]*context.CancelCauseFunc{}}
	firstCtx, first := context.WithCancelCause(context.Background())
	defer r.track(3, first)()
	secondCtx, second := context.WithCancelCause(context.Background())
	r.track(3, second)()
	require.NoError(t, secondCtx.Err())

	otherCtx, other := context.WithCancelCause(context.Background())
	defer r.track(4, other)()

	r.cancel(3, errStopRequested)
	require.ErrorIs(t, context.Cause(firstCtx), errStopRequested, "the first run still hears stop requests")
	require.NoError(t, otherCtx.Err(), "a stop for another execution does not reach this one")
}

// A stop heard before the execution's run is tracked here (stored, not yet started) reaches the
// run once it starts; other causes, old stops and stops for other executions do not.
func TestStopHeardBeforeTheRunStarts(t *testing.T) {
	r := &Runner{running: map[int64][]*context.CancelCauseFunc{}}
	r.cancel(7, errStopRequested)
	r.cancel(8, errLeaseLost)
	r.cancel(9, errStopRequested)
	r.early[9] = time.Now().Add(-stopMarkTTL - time.Second)

	ctx7, c7 := context.WithCancelCause(context.Background())
	defer r.track(7, c7)()
	require.ErrorIs(t, context.Cause(ctx7), errStopRequested)
	again, c := context.WithCancelCause(context.Background())
	defer r.track(7, c)()
	require.NoError(t, again.Err(), "the stop is used once")

	for _, id := range []int64{8, 9, 10} {
		ctx, c := context.WithCancelCause(context.Background())
		defer r.track(id, c)()
		require.NoError(t, ctx.Err(), "execution %d", id)
	}
	require.Empty(t, r.early)

	for id := range int64(earlyStops + 5) {
		r.cancel(1000+id, errStopRequested)
	}
	require.LessOrEqual(t, len(r.early), earlyStops, "the stops kept are bounded")
}
