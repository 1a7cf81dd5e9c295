package trigger_test

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// A Workflow Trigger fires once per activation and per save of the active workflow, from
// whichever api process took the save, for the events each node lists.
func TestWorkflowTriggerEvents(t *testing.T) {
	ctx := context.Background()
	in := openInfra(t)
	owner, err := in.Store.EnsureDefaultOwner(ctx)
	require.NoError(t, err)
	// Two api processes on the same database and Redis.
	replica := func() *trigger.Activation {
		return &trigger.Activation{Store: in.Store, Redis: in.Redis, Registry: in.Nodes, Evaluator: in.Eval, Queue: in.Queue}
	}
	a, b := replica(), replica()
	node := func(name, events string, disabled bool) string {
		d, _ := json.Marshal(disabled)
		return `{"name":"` + name + `","type":"n8n-nodes-base.workflowTrigger","typeVersion":1,"position":[0,0],"disabled":` + string(d) +
			`,"parameters":{"events":` + events + `}}`
	}
	w := &store.Workflow{Name: "events", Connections: store.JSON(`{}`), Nodes: store.JSON("[" +
		node("On both", `["activate","update"]`, false) + "," + node("On update", `["update"]`, false) + "," +
		node("Off", `["activate","update"]`, true) + "]")}
	require.NoError(t, in.Store.CreateWorkflow(ctx, w, owner.ID))

	inspector := asynq.NewInspectorFromRedisClient(in.Redis)
	queued := func() []string {
		tasks, err := inspector.ListPendingTasks(queue.QueueDefault, asynq.PageSize(1000))
		if errors.Is(err, asynq.ErrQueueNotFound) {
			return nil
		}
		require.NoError(t, err)
		var out []string
		for _, task := range tasks {
			var p queue.TriggerFire
			require.NoError(t, json.Unmarshal(task.Payload, &p))
			if p.Event != "" {
				require.Equal(t, w.ID, p.WorkflowID)
				out = append(out, p.Node+" "+p.Event)
			}
		}
		sort.Strings(out)
		return out
	}

	// Saving an inactive workflow fires nothing.
	_, err = a.Update(ctx, owner, w.ID, func(w *store.Workflow) error { w.Name = "events 2"; return nil })
	require.NoError(t, err)
	require.Empty(t, queued())

	activated, err := a.SetActive(ctx, owner, w.ID, true)
	require.NoError(t, err)
	require.Equal(t, []string{"On both activate"}, queued())

	// The same event queued again (a retried request, another process) is not a second run.
	require.NoError(t, in.Queue.EnqueueTrigger(ctx, queue.TriggerFire{WorkflowID: w.ID, Node: "On both", Event: "activate",
		Version: activated.VersionID}))
	require.Equal(t, []string{"On both activate"}, queued())

	// A save of the active workflow on the other process is an update.
	_, err = b.Update(ctx, owner, w.ID, func(w *store.Workflow) error { w.Name = "events 3"; return nil })
	require.NoError(t, err)
	require.Equal(t, []string{"On both activate", "On both update", "On update update"}, queued())

	// Deactivating fires nothing; activating again is a new activation.
	_, err = b.SetActive(ctx, owner, w.ID, false)
	require.NoError(t, err)
	require.Len(t, queued(), 3)
	_, err = a.SetActive(ctx, owner, w.ID, true)
	require.NoError(t, err)
	require.Equal(t, []string{"On both activate", "On both activate", "On both update", "On update update"}, queued())
}
