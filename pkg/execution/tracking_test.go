package execution

import (
	"context"
	"testing"

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
