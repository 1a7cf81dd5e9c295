package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func TestTags(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		ops := newTag(t, s, "ops")
		billing := newTag(t, s, "billing")
		newTag(t, s, "unused")
		newWorkflow(t, s, owner, "One", ops, billing)
		newWorkflow(t, s, owner, "Two", ops)

		tags, err := s.ListTags(ctx)
		require.NoError(t, err)
		require.Equal(t, []string{"billing", "ops", "unused"}, tagNames(tags))

		usage, err := s.ListTagsWithUsage(ctx)
		require.NoError(t, err)
		counts := map[string]int64{}
		for _, u := range usage {
			counts[u.Name] = u.UsageCount
			require.NotEmpty(t, u.ID)
			require.False(t, u.CreatedAt.IsZero())
		}
		require.Equal(t, map[string]int64{"billing": 1, "ops": 2, "unused": 0}, counts)
		require.Equal(t, "billing", usage[0].Name, "sorted by name")

		_, err = s.CreateTag(ctx, "ops")
		require.ErrorIs(t, err, store.ErrConflict)
		for _, name := range []string{"", strings.Repeat("t", store.TagNameMaxLength+1)} {
			_, err = s.CreateTag(ctx, name)
			require.ErrorIs(t, err, store.ErrInvalid, "name %q", name)
		}
		_, err = s.CreateTag(ctx, strings.Repeat("ü", store.TagNameMaxLength))
		require.NoError(t, err, "the limit counts characters")

		renamed, err := s.UpdateTag(ctx, ops.ID, "operations")
		require.NoError(t, err)
		require.Equal(t, "operations", renamed.Name)
		require.Equal(t, ops.ID, renamed.ID)
		require.True(t, renamed.CreatedAt.Equal(ops.CreatedAt))
		same, err := s.UpdateTag(ctx, ops.ID, "operations")
		require.NoError(t, err, "an unchanged name is no conflict with itself")
		require.Equal(t, "operations", same.Name)
		_, err = s.UpdateTag(ctx, ops.ID, "billing")
		require.ErrorIs(t, err, store.ErrConflict)
		_, err = s.UpdateTag(ctx, ops.ID, strings.Repeat("t", 25))
		require.ErrorIs(t, err, store.ErrInvalid)
		_, err = s.UpdateTag(ctx, "missing", "whatever")
		require.ErrorIs(t, err, store.ErrNotFound)

		require.NoError(t, s.DeleteTag(ctx, ops.ID))
		require.ErrorIs(t, s.DeleteTag(ctx, ops.ID), store.ErrNotFound)
		list, err := s.ListWorkflows(ctx, owner, store.WorkflowFilter{})
		require.NoError(t, err)
		for _, w := range list {
			require.NotContains(t, tagNames(w.Tags), "operations", "workflows lose a deleted tag")
		}
		require.EqualValues(t, 1, count(t, s, "workflow_tags"))
	})
}
