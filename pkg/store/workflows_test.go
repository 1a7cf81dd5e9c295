package store_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func newUser(t *testing.T, s *store.Store, role string) *store.User {
	t.Helper()
	now := time.Now().UTC()
	u := &store.User{ID: store.NewUUID(), GlobalRole: role, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, s.DB.Create(u).Error)
	return u
}

func newTag(t *testing.T, s *store.Store, name string) store.Tag {
	t.Helper()
	tag, err := s.CreateTag(context.Background(), name)
	require.NoError(t, err)
	return *tag
}

func newWorkflow(t *testing.T, s *store.Store, owner *store.User, name string, tags ...store.Tag) *store.Workflow {
	t.Helper()
	w := &store.Workflow{Name: name, Tags: tags,
		Nodes: store.JSON(`[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[240,300],"parameters":{}}]`)}
	require.NoError(t, s.CreateWorkflow(context.Background(), w, owner.ID))
	return w
}

func count(t *testing.T, s *store.Store, table string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, s.DB.Table(table).Count(&n).Error)
	return n
}

func tagNames(tags []store.Tag) []string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.Name
	}
	return out
}

func TestCreateAndGetWorkflow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		beta, alpha := newTag(t, s, "beta"), newTag(t, s, "alpha")

		w := &store.Workflow{Name: "Orders", Settings: store.JSON(`{"timezone":"Europe/Berlin"}`),
			Tags: []store.Tag{{ID: beta.ID}, {ID: alpha.ID}, {ID: beta.ID}}}
		require.NoError(t, s.CreateWorkflow(ctx, w, owner.ID))
		require.Len(t, w.ID, 16)
		require.NotEmpty(t, w.VersionID)
		require.False(t, w.CreatedAt.IsZero())
		require.Equal(t, w.CreatedAt, w.UpdatedAt)
		require.Equal(t, []string{"alpha", "beta"}, tagNames(w.Tags), "whole tags, by name, no repeats")
		require.JSONEq(t, `[]`, string(w.Nodes), "nodes default to an empty list")
		require.JSONEq(t, `{}`, string(w.Connections))

		got, err := s.GetWorkflow(ctx, w.ID)
		require.NoError(t, err)
		require.Equal(t, w.Name, got.Name)
		require.Equal(t, w.VersionID, got.VersionID)
		require.True(t, w.UpdatedAt.Equal(got.UpdatedAt), "%v != %v", w.UpdatedAt, got.UpdatedAt)
		require.JSONEq(t, `{"timezone":"Europe/Berlin"}`, string(got.Settings))
		require.Equal(t, []string{"alpha", "beta"}, tagNames(got.Tags))
		require.Nil(t, got.StaticData)

		var share store.SharedWorkflow
		require.NoError(t, s.DB.Where("workflow_id = ?", w.ID).Take(&share).Error)
		require.Equal(t, owner.ID, share.UserID)
		require.Equal(t, store.WorkflowRoleOwner, share.Role)

		_, err = s.GetWorkflow(ctx, "missing")
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}

func TestCreateWorkflowWritesNothingOnFailure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		tag := newTag(t, s, "ops")
		newWorkflow(t, s, owner, "Taken", tag)
		before := []int64{count(t, s, "workflows"), count(t, s, "workflow_tags"), count(t, s, "shared_workflows")}

		err := s.CreateWorkflow(ctx, &store.Workflow{Name: "Taken", Tags: []store.Tag{tag}}, owner.ID)
		require.ErrorIs(t, err, store.ErrConflict)

		err = s.CreateWorkflow(ctx, &store.Workflow{Name: "Fresh", Tags: []store.Tag{tag, {ID: "nope"}}}, owner.ID)
		var unknown *store.UnknownTagError
		require.ErrorAs(t, err, &unknown)
		require.Equal(t, "nope", unknown.ID)

		err = s.CreateWorkflow(ctx, &store.Workflow{Name: "Fresh"}, "no-such-user")
		require.Error(t, err, "the owner must exist")

		for _, name := range []string{"", strings.Repeat("x", store.WorkflowNameMaxLength+1)} {
			err = s.CreateWorkflow(ctx, &store.Workflow{Name: name}, owner.ID)
			require.ErrorIs(t, err, store.ErrInvalid, "name %q", name)
		}
		w := &store.Workflow{Name: strings.Repeat("ä", store.WorkflowNameMaxLength)}
		require.NoError(t, s.CreateWorkflow(ctx, w, owner.ID), "the limit counts characters, not bytes")
		require.NoError(t, s.DeleteWorkflow(ctx, owner, w.ID))

		after := []int64{count(t, s, "workflows"), count(t, s, "workflow_tags"), count(t, s, "shared_workflows")}
		require.Equal(t, before, after)
	})
}

func TestConcurrentCreatesWithOneNameStoreOne(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		owner := newUser(t, s, store.RoleOwner)
		errs := make(chan error, 6)
		var wg sync.WaitGroup
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.CreateWorkflow(context.Background(), &store.Workflow{Name: "Same"}, owner.ID)
			}()
		}
		wg.Wait()
		close(errs)
		ok := 0
		for err := range errs {
			if err == nil {
				ok++
				continue
			}
			require.ErrorIs(t, err, store.ErrConflict)
		}
		require.Equal(t, 1, ok)
		require.EqualValues(t, 1, count(t, s, "shared_workflows"))
	})
}

func TestUpdateWorkflow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		a, b, c := newTag(t, s, "a"), newTag(t, s, "b"), newTag(t, s, "c")
		w := newWorkflow(t, s, owner, "First", a, b)
		newWorkflow(t, s, owner, "Other")

		got, err := s.UpdateWorkflow(ctx, owner, w.ID, func(w *store.Workflow) error {
			require.Equal(t, []string{"a", "b"}, tagNames(w.Tags), "change sees the stored tags")
			w.Name = "Renamed"
			w.Active = true
			w.Tags = []store.Tag{{ID: c.ID}, {ID: a.ID}}
			w.StaticData = store.JSON(`{"global":{"n":1}}`)
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, "Renamed", got.Name)
		require.NotEqual(t, w.VersionID, got.VersionID, "every update gets a new version")
		require.False(t, got.UpdatedAt.Before(w.UpdatedAt))
		require.True(t, got.CreatedAt.Equal(w.CreatedAt))
		require.Equal(t, []string{"a", "c"}, tagNames(got.Tags))

		stored, err := s.GetWorkflow(ctx, w.ID)
		require.NoError(t, err)
		require.Equal(t, got.VersionID, stored.VersionID)
		require.True(t, stored.Active)
		require.Equal(t, []string{"a", "c"}, tagNames(stored.Tags))
		require.JSONEq(t, `{"global":{"n":1}}`, string(stored.StaticData))
		require.JSONEq(t, string(w.Nodes), string(stored.Nodes), "fields change does not touch stay")

		// The same tags given back (by id, in another order) keep the whole tags.
		again, err := s.UpdateWorkflow(ctx, owner, w.ID, func(w *store.Workflow) error {
			w.Tags = []store.Tag{{ID: c.ID}, {ID: a.ID}}
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, []string{"a", "c"}, tagNames(again.Tags))
		require.NotEqual(t, got.VersionID, again.VersionID)

		// Failures leave the stored workflow exactly as it was.
		failures := []struct {
			change func(*store.Workflow) error
			is     error
		}{
			{func(w *store.Workflow) error { w.Name = "Other"; w.Tags = nil; return nil }, store.ErrConflict},
			{func(w *store.Workflow) error { w.Name = ""; return nil }, store.ErrInvalid},
			{func(w *store.Workflow) error { w.Tags = []store.Tag{{ID: b.ID}, {ID: "nope"}}; return nil }, nil},
			{func(w *store.Workflow) error { w.Tags = nil; return errBoom }, errBoom},
		}
		for i, f := range failures {
			_, err := s.UpdateWorkflow(ctx, owner, w.ID, f.change)
			if f.is == nil {
				var unknown *store.UnknownTagError
				require.ErrorAs(t, err, &unknown, "case %d", i)
			} else {
				require.ErrorIs(t, err, f.is, "case %d", i)
			}
			now, err := s.GetWorkflow(ctx, w.ID)
			require.NoError(t, err)
			require.Equal(t, again.VersionID, now.VersionID, "case %d", i)
			require.Equal(t, "Renamed", now.Name, "case %d", i)
			require.Equal(t, []string{"a", "c"}, tagNames(now.Tags), "case %d", i)
		}

		_, err = s.UpdateWorkflow(ctx, owner, "missing", func(*store.Workflow) error { return nil })
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}

var errBoom = errors.New("boom")

func TestMembersReachOnlySharedWorkflows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		member := newUser(t, s, store.RoleMember)
		other := newUser(t, s, store.RoleMember)
		ownersOwn := newWorkflow(t, s, owner, "Owner's")
		membersOwn := newWorkflow(t, s, member, "Member's")
		shared := newWorkflow(t, s, other, "Shared")
		require.NoError(t, s.ShareWorkflow(ctx, shared.ID, member.ID, "editor"))
		require.ErrorIs(t, s.ShareWorkflow(ctx, shared.ID, member.ID, "editor"), store.ErrConflict)
		require.ErrorIs(t, s.ShareWorkflow(ctx, "missing", member.ID, "editor"), store.ErrNotFound)

		names := func(u *store.User) []string {
			list, err := s.ListWorkflows(ctx, u, store.WorkflowFilter{})
			require.NoError(t, err)
			var out []string
			for _, w := range list {
				out = append(out, w.Name)
			}
			return out
		}
		require.ElementsMatch(t, []string{"Owner's", "Member's", "Shared"}, names(owner))
		require.ElementsMatch(t, []string{"Member's", "Shared"}, names(member))
		require.ElementsMatch(t, []string{"Shared"}, names(other))

		_, err := s.GetWorkflowFor(ctx, member, ownersOwn.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		_, err = s.GetWorkflowFor(ctx, member, shared.ID)
		require.NoError(t, err)
		_, err = s.GetWorkflowFor(ctx, owner, membersOwn.ID)
		require.NoError(t, err)
		_, err = s.UpdateWorkflow(ctx, member, ownersOwn.ID, func(w *store.Workflow) error { w.Name = "Mine"; return nil })
		require.ErrorIs(t, err, store.ErrNotFound)
		require.ErrorIs(t, s.DeleteWorkflow(ctx, other, membersOwn.ID), store.ErrNotFound)
		require.NoError(t, s.DeleteWorkflow(ctx, owner, membersOwn.ID), "the owner reaches every workflow")
		require.ElementsMatch(t, []string{"Shared"}, names(member))
	})
}

func TestListWorkflowsFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		red, blue := newTag(t, s, "red"), newTag(t, s, "blue")
		newWorkflow(t, s, owner, "Sync Orders", red, blue)
		newWorkflow(t, s, owner, "sync_100%", red)
		active := newWorkflow(t, s, owner, "Reports")
		_, err := s.UpdateWorkflow(ctx, owner, active.ID, func(w *store.Workflow) error { w.Active = true; return nil })
		require.NoError(t, err)

		list := func(f store.WorkflowFilter) []string {
			got, err := s.ListWorkflows(ctx, owner, f)
			require.NoError(t, err)
			out := []string{}
			for _, w := range got {
				require.Nil(t, w.Nodes, "lists leave the document out")
				out = append(out, w.Name)
			}
			return out
		}
		yes, no := true, false
		require.Equal(t, []string{"Reports", "sync_100%", "Sync Orders"}, list(store.WorkflowFilter{}), "most recently updated first")
		require.Equal(t, []string{"sync_100%", "Sync Orders"}, list(store.WorkflowFilter{Name: "SYNC"}))
		require.Equal(t, []string{"sync_100%"}, list(store.WorkflowFilter{Name: "_100%"}), "LIKE wildcards match literally")
		require.Empty(t, list(store.WorkflowFilter{Name: "c%s"}))
		require.Empty(t, list(store.WorkflowFilter{Name: "c_o"}))
		require.Equal(t, []string{"Reports"}, list(store.WorkflowFilter{Active: &yes}))
		require.Equal(t, []string{"sync_100%", "Sync Orders"}, list(store.WorkflowFilter{Active: &no}))
		require.Equal(t, []string{"sync_100%", "Sync Orders"}, list(store.WorkflowFilter{TagIDs: []string{red.ID}}))
		require.Equal(t, []string{"Sync Orders"}, list(store.WorkflowFilter{TagIDs: []string{red.ID, blue.ID, red.ID}}), "every tag must be present")
		require.Empty(t, list(store.WorkflowFilter{TagIDs: []string{"nope"}}))

		got, err := s.ListWorkflows(ctx, owner, store.WorkflowFilter{Name: "orders"})
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.Equal(t, []string{"blue", "red"}, tagNames(got[0].Tags))
		require.NotEmpty(t, got[0].VersionID)
	})
}

func TestDeleteWorkflowCascades(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		tag := newTag(t, s, "x")
		w := newWorkflow(t, s, owner, "Gone", tag)
		require.NoError(t, s.DeleteWorkflow(ctx, owner, w.ID))
		require.ErrorIs(t, s.DeleteWorkflow(ctx, owner, w.ID), store.ErrNotFound)
		_, err := s.GetWorkflow(ctx, w.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		require.Zero(t, count(t, s, "workflow_tags"))
		require.Zero(t, count(t, s, "shared_workflows"))
		require.EqualValues(t, 1, count(t, s, "tags"), "tags outlive their workflows")
	})
}

func TestUniqueWorkflowName(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		unique := func(base string) string {
			name, err := s.UniqueWorkflowName(ctx, base)
			require.NoError(t, err)
			return name
		}
		require.Equal(t, "My workflow", unique("My workflow"))
		newWorkflow(t, s, owner, "My workflow")
		require.Equal(t, "My workflow 2", unique("My workflow"))
		newWorkflow(t, s, owner, "My workflow 2")
		newWorkflow(t, s, owner, "My workflow 7")
		newWorkflow(t, s, owner, "My workflow copy")
		newWorkflow(t, s, owner, "My workflow 99 copy")
		newWorkflow(t, s, owner, "My workflowX")
		require.Equal(t, "My workflow 8", unique("My workflow"), "one above the highest number in use")
		require.Equal(t, "My workflow copy 2", unique("My workflow copy"))
		require.Equal(t, "My workflowX 2", unique("My workflowX"))
		require.Equal(t, "100%_done", unique("100%_done"))

		long := strings.Repeat("n", store.WorkflowNameMaxLength)
		newWorkflow(t, s, owner, long)
		shorter := strings.Repeat("n", store.WorkflowNameMaxLength-2)
		require.Equal(t, shorter, unique(long), "no room for a number: the shortened base is free")
		newWorkflow(t, s, owner, shorter)
		require.Equal(t, shorter+" 2", unique(long))
	})
}

func TestListWorkflowPage(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner, member := newUser(t, s, store.RoleOwner), newUser(t, s, store.RoleMember)
		tag := newTag(t, s, "paged")
		var names []string
		for i := range 7 {
			w := newWorkflow(t, s, owner, "page "+string(rune('a'+i)), tag)
			names = append(names, w.Name)
		}
		newWorkflow(t, s, member, "the member's")
		all, err := s.ListWorkflows(ctx, owner, store.WorkflowFilter{TagIDs: []string{tag.ID}})
		require.NoError(t, err)
		require.Len(t, all, 7)

		var got []string
		for offset := 0; ; offset += 3 {
			page, more, err := s.ListWorkflowPage(ctx, owner, store.WorkflowFilter{TagIDs: []string{tag.ID}}, offset, 3)
			require.NoError(t, err)
			for _, w := range page {
				require.NotEmpty(t, w.Nodes, "whole workflows")
				require.Equal(t, []string{"paged"}, tagNames(w.Tags))
				got = append(got, w.Name)
			}
			if !more {
				require.Len(t, page, 1)
				break
			}
			require.Len(t, page, 3)
		}
		want := make([]string, len(all))
		for i, w := range all {
			want[i] = w.Name
		}
		require.Equal(t, want, got, "the pages follow ListWorkflows' order")

		page, more, err := s.ListWorkflowPage(ctx, member, store.WorkflowFilter{}, 0, 10)
		require.NoError(t, err)
		require.False(t, more)
		require.Len(t, page, 1, "members page through the workflows shared with them")
	})
}

// TestListWorkflowPageQueries counts the statements a page takes: no more for a bigger page.
func TestListWorkflowPageQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		tag := newTag(t, s, "counted")
		for i := range 12 {
			newWorkflow(t, s, owner, "counted "+string(rune('a'+i)), tag)
		}
		var mu sync.Mutex
		statements := 0
		// Each store is the test's own, so only this test's statements are counted.
		require.NoError(t, s.DB.Callback().Query().After("gorm:query").Register("test:count", func(*gorm.DB) {
			mu.Lock()
			statements++
			mu.Unlock()
		}))
		perPage := map[int]int{}
		for _, limit := range []int{1, 5, 12} {
			mu.Lock()
			statements = 0
			mu.Unlock()
			page, _, err := s.ListWorkflowPage(ctx, owner, store.WorkflowFilter{}, 0, limit)
			require.NoError(t, err)
			require.Len(t, page, limit)
			mu.Lock()
			perPage[limit] = statements
			mu.Unlock()
		}
		require.Positive(t, perPage[1])
		require.Equal(t, perPage[1], perPage[5], "statements per page: %v", perPage)
		require.Equal(t, perPage[1], perPage[12], "statements per page: %v", perPage)
	})
}
