package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func activate(s *store.Store, u *store.User, id string, active bool, hooks ...store.Webhook) (*store.Workflow, error) {
	return s.UpdateWorkflow(context.Background(), u, id, func(w *store.Workflow) error {
		w.Active = active
		w.Webhooks = append([]store.Webhook{}, hooks...)
		return nil
	})
}

func TestWebhookRegistration(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		a, b := newWorkflow(t, s, owner, "A"), newWorkflow(t, s, owner, "B")
		hookID := "hid"
		_, err := activate(s, owner, a.ID, true, store.Webhook{Node: "Webhook", Method: "POST", Path: "orders"},
			store.Webhook{Node: "Dyn", Method: "GET", Path: "hid/user/:id", WebhookID: &hookID, PathLength: 2})
		require.NoError(t, err)

		// The same method and path in another workflow names the holder; nothing of B is kept.
		_, err = activate(s, owner, b.ID, true, store.Webhook{Node: "Other", Method: "GET", Path: "free"},
			store.Webhook{Node: "Hook", Method: "POST", Path: "orders"})
		var conflict *store.WebhookConflictError
		require.True(t, errors.As(err, &conflict), "%v", err)
		require.ErrorIs(t, err, store.ErrConflict)
		require.Equal(t, a.ID, conflict.WorkflowID)
		require.Equal(t, "A", conflict.WorkflowName)
		require.Contains(t, err.Error(), `already used by the active workflow "A"`)
		got, err := s.GetWorkflow(ctx, b.ID)
		require.NoError(t, err)
		require.False(t, got.Active, "the failed activation was rolled back")
		hooks, err := s.FindWebhooks(ctx, "GET", "free")
		require.NoError(t, err)
		require.Empty(t, hooks)

		// Another method on the same path is free.
		_, err = activate(s, owner, b.ID, true, store.Webhook{Node: "Hook", Method: "PUT", Path: "orders"})
		require.NoError(t, err)

		hooks, err = s.FindWebhooks(ctx, "POST", "orders")
		require.NoError(t, err)
		require.Len(t, hooks, 1)
		require.Equal(t, a.ID, hooks[0].WorkflowID)
		hooks, err = s.FindWebhooks(ctx, "GET", "hid/user/7")
		require.NoError(t, err)
		require.Len(t, hooks, 1, "dynamic candidates by webhook id and length")
		require.Equal(t, "Dyn", hooks[0].Node)
		methods, err := s.WebhookMethods(ctx, "orders")
		require.NoError(t, err)
		require.Len(t, methods, 2)

		ids, err := s.ActiveWorkflowIDs(ctx, owner)
		require.NoError(t, err)
		require.ElementsMatch(t, []string{a.ID, b.ID}, ids)
		versions, err := s.ActiveWorkflowVersions(ctx)
		require.NoError(t, err)
		require.Len(t, versions, 2)

		// Deactivating removes the webhooks; deleting removes them with the workflow.
		_, err = activate(s, owner, a.ID, false)
		require.NoError(t, err)
		hooks, err = s.FindWebhooks(ctx, "POST", "orders")
		require.NoError(t, err)
		require.Empty(t, hooks)
		require.NoError(t, s.DeleteWorkflow(ctx, owner, b.ID))
		require.EqualValues(t, 0, count(t, s, "webhooks"))
	})
}
