package execution_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestReconcilerQueuesOrphanedExecutions(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	s := storetest.SQLite(t)
	ctx := context.Background()
	old := time.Now().UTC().Add(-time.Minute)
	orphan := &store.Execution{Status: workflow.StatusNew, Mode: "manual", CreatedAt: old}
	require.NoError(t, s.CreateExecution(ctx, orphan, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	leased := &store.Execution{Status: workflow.StatusNew, Mode: "trigger", CreatedAt: old}
	require.NoError(t, s.CreateExecution(ctx, leased, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	_, err := s.AcquireLease(ctx, leased.ID, "w1", time.Minute)
	require.NoError(t, err)

	c := queue.NewClient(rdb)
	r := execution.NewReconciler(s, c, time.Hour, nil)
	n, err := r.RunOnce(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got, err := s.GetExecution(ctx, orphan.ID)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusQueued, got.Status)
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueCritical])

	// Running again does not queue it twice.
	_, err = r.RunOnce(ctx)
	require.NoError(t, err)
	sizes, err = c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueCritical])

	require.NoError(t, r.Start(ctx))
	r.Stop()
	r.Stop()
}

func TestReconcilerMarksOrphanedSubWorkflowRunsCrashed(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	s := storetest.SQLite(t)
	ctx := context.Background()
	old := time.Now().UTC().Add(-time.Minute)
	sub := &store.Execution{Status: workflow.StatusRunning, Mode: "integrated", CreatedAt: old}
	require.NoError(t, s.CreateExecution(ctx, sub, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	c := queue.NewClient(rdb)
	_, err := execution.NewReconciler(s, c, time.Hour, nil).RunOnce(ctx)
	require.NoError(t, err)
	got, err := s.GetExecution(ctx, sub.ID)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusCrashed, got.Status)
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Zero(t, sizes[queue.QueueDefault], "its parent runs it again, not the queue")
}
