package trigger_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// forgotten records the workflows whose cached webhooks were forgotten.
type forgotten struct {
	mu  sync.Mutex
	ids []string
}

func (f *forgotten) Forget(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ids = append(f.ids, id)
}

func (f *forgotten) list() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ids...)
}

func TestActivationChecksRegistersAndRecords(t *testing.T) {
	ctx := context.Background()
	in := openInfra(t)
	owner, err := in.Store.EnsureDefaultOwner(ctx)
	require.NoError(t, err)
	hooks := &forgotten{}
	a := &trigger.Activation{Store: in.Store, Redis: in.Redis, Registry: in.Nodes, Evaluator: in.Eval, Webhooks: hooks}
	create := func(name, nodes string) string {
		w := &store.Workflow{Name: name, Nodes: store.JSON(nodes), Connections: store.JSON(`{}`)}
		require.NoError(t, in.Store.CreateWorkflow(ctx, w, owner.ID))
		return w.ID
	}

	// Nothing could start it: refused, nothing saved, the error recorded.
	plain := create("plain", `[{"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[0,0],"parameters":{}}]`)
	_, err = a.SetActive(ctx, owner, plain, true)
	var refused *trigger.RefusedError
	require.True(t, errors.As(err, &refused), "%v", err)
	require.ErrorIs(t, err, trigger.ErrNoTrigger)
	stored, err := in.Store.GetWorkflow(ctx, plain)
	require.NoError(t, err)
	require.False(t, stored.Active)
	e, ok, err := trigger.GetError(ctx, in.Redis, plain)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, trigger.ErrNoTrigger.Error(), e.Error.Message)

	// A webhook workflow is activated with its webhook; a second one on the same path conflicts.
	first := create("first", "["+hookNode("Webhook", "ha", `{"path":"same","httpMethod":"GET"}`)+"]")
	w, err := a.SetActive(ctx, owner, first, true)
	require.NoError(t, err)
	require.True(t, w.Active)
	_, ok, err = trigger.GetError(ctx, in.Redis, first)
	require.NoError(t, err)
	require.False(t, ok)
	second := create("second", "["+hookNode("Webhook", "hb", `{"path":"same","httpMethod":"GET"}`)+"]")
	_, err = a.SetActive(ctx, owner, second, true)
	var conflict *store.WebhookConflictError
	require.True(t, errors.As(err, &refused), "%v", err)
	require.True(t, errors.As(err, &conflict), "%v", err)
	_, ok, err = trigger.GetError(ctx, in.Redis, second)
	require.NoError(t, err)
	require.True(t, ok)

	// A change that fails is the caller's error, not a refusal.
	boom := errors.New("boom")
	_, err = a.Update(ctx, owner, first, func(*store.Workflow) error { return boom })
	require.ErrorIs(t, err, boom)
	require.False(t, errors.As(err, &refused))

	a.Deleted(ctx, first)
	require.Equal(t, []string{first, first}, hooks.list(), "each save and the delete clear the cached webhooks")
}
