package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func newCredential(t *testing.T, s *store.Store, owner *store.User, name, typ string) *store.Credential {
	t.Helper()
	c := &store.Credential{Name: name, Type: typ, Data: "v1:sealed-" + name}
	require.NoError(t, s.CreateCredential(context.Background(), c, owner.ID))
	return c
}

func TestCredentials(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		member := newUser(t, s, store.RoleMember)
		other := newUser(t, s, store.RoleMember)

		basic := newCredential(t, s, owner, "Basic", "httpBasicAuth")
		require.Len(t, basic.ID, 16)
		require.False(t, basic.CreatedAt.IsZero())
		require.JSONEq(t, `[]`, string(basic.NodesAccess))
		mine := newCredential(t, s, member, "Mine", "httpHeaderAuth")
		newCredential(t, s, member, "Basic", "httpBasicAuth")
		require.EqualValues(t, 3, count(t, s, "shared_credentials"), "one owner row per credential")

		got, err := s.GetCredential(ctx, basic.ID)
		require.NoError(t, err)
		require.Equal(t, "v1:sealed-Basic", got.Data)
		require.True(t, got.CreatedAt.Equal(basic.CreatedAt))
		_, err = s.GetCredential(ctx, "missing")
		require.ErrorIs(t, err, store.ErrNotFound)
		_, err = s.GetCredentialFor(ctx, member, basic.ID)
		require.ErrorIs(t, err, store.ErrNotFound, "members do not see others' credentials")
		_, err = s.GetCredentialFor(ctx, owner, mine.ID)
		require.NoError(t, err, "the owner sees every credential")

		for _, tc := range []struct {
			user  *store.User
			f     store.CredentialFilter
			names []string
		}{
			{owner, store.CredentialFilter{}, []string{"Basic", "Basic", "Mine"}},
			{owner, store.CredentialFilter{Type: "httpBasicAuth"}, []string{"Basic", "Basic"}},
			{owner, store.CredentialFilter{Type: "httpBasicAuth", Name: "Basic"}, []string{"Basic", "Basic"}},
			{member, store.CredentialFilter{}, []string{"Basic", "Mine"}},
			{member, store.CredentialFilter{Type: "httpBasicAuth", Name: "Basic"}, []string{"Basic"}},
			{member, store.CredentialFilter{Name: "Nope"}, []string{}},
			{other, store.CredentialFilter{}, []string{}},
		} {
			list, err := s.ListCredentials(ctx, tc.user, tc.f)
			require.NoError(t, err)
			names := []string{}
			for _, c := range list {
				names = append(names, c.Name)
			}
			require.Equal(t, tc.names, names, "%+v", tc.f)
		}

		for _, name := range []string{"", strings.Repeat("c", store.CredentialNameMaxLength+1)} {
			err := s.CreateCredential(ctx, &store.Credential{Name: name, Type: "httpBasicAuth", Data: "x"}, owner.ID)
			require.ErrorIs(t, err, store.ErrInvalid, "name %q", name)
		}
		require.NoError(t, s.CreateCredential(ctx, &store.Credential{Name: strings.Repeat("ü", store.CredentialNameMaxLength),
			Type: "httpBasicAuth", Data: "x"}, owner.ID), "the limit counts characters")
		err = s.CreateCredential(ctx, &store.Credential{Name: "Orphan", Type: "httpBasicAuth", Data: "x"}, "no-such-user")
		require.Error(t, err)
		orphans, err := s.ListCredentials(ctx, owner, store.CredentialFilter{Name: "Orphan"})
		require.NoError(t, err)
		require.Empty(t, orphans, "the credential and its owner row are written together or not at all")

		_, err = s.DeleteCredential(ctx, other, mine.ID)
		require.ErrorIs(t, err, store.ErrNotFound, "members delete only their own")
		deleted, err := s.DeleteCredential(ctx, member, mine.ID)
		require.NoError(t, err)
		require.Equal(t, "Mine", deleted.Name)
		_, err = s.DeleteCredential(ctx, member, mine.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		_, err = s.DeleteCredential(ctx, owner, basic.ID)
		require.NoError(t, err, "the owner deletes any credential")
		require.EqualValues(t, 2, count(t, s, "shared_credentials"), "owner rows go with their credential")
	})
}

func TestWorkflowOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		member := newUser(t, s, store.RoleMember)
		w := newWorkflow(t, s, member, "Flow")
		u, err := s.WorkflowOwner(ctx, w.ID)
		require.NoError(t, err)
		require.Equal(t, member.ID, u.ID)
		_, err = s.WorkflowOwner(ctx, "missing")
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}

// TestWhatAMemberMayRunAndSee checks the two rules of runs acting for a user: the workflow
// documents a user may run, and the executions a member sees (of their workflows, and the
// runs acting for them).
func TestWhatAMemberMayRunAndSee(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		member := newUser(t, s, store.RoleMember)
		ownersWF := newWorkflow(t, s, owner, "Owner's")
		membersWF := newWorkflow(t, s, member, "Member's")

		for _, tc := range []struct {
			u       *store.User
			id      string
			allowed bool
		}{
			{owner, ownersWF.ID, true}, {owner, membersWF.ID, true},
			{member, membersWF.ID, true}, {member, ownersWF.ID, false}, {member, "missing", false},
		} {
			doc, err := s.WorkflowDocumentFor(ctx, tc.u, tc.id)
			if tc.allowed {
				require.NoError(t, err)
				require.Contains(t, string(doc), tc.id)
			} else {
				require.ErrorIs(t, err, store.ErrNotFound, "a workflow the user may not run reads as missing")
			}
		}

		create := func(workflowID *string, userID string) int64 {
			e := &store.Execution{WorkflowID: workflowID, Status: workflow.StatusSuccess, Mode: "manual", UserID: userID}
			require.NoError(t, s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
			got, err := s.GetExecution(ctx, e.ID)
			require.NoError(t, err)
			require.Equal(t, userID, got.UserID)
			return e.ID
		}
		ofMembersWF := create(&membersWF.ID, member.ID)
		membersUnsaved := create(nil, member.ID)
		create(&ownersWF.ID, owner.ID)
		create(nil, owner.ID)
		list, err := s.ListExecutions(ctx, store.ExecutionFilter{SharedWith: member.ID}, 10)
		require.NoError(t, err)
		var ids []int64
		for _, e := range list {
			ids = append(ids, e.ID)
		}
		require.ElementsMatch(t, []int64{ofMembersWF, membersUnsaved}, ids)
	})
}

func TestCreateOwnedExecutionActsForTheWorkflowOwner(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		member := newUser(t, s, store.RoleMember)
		w := newWorkflow(t, s, member, "Flow")
		e := &store.Execution{WorkflowID: &w.ID, Status: workflow.StatusQueued, Mode: "webhook", UserID: "ignored"}
		require.NoError(t, s.CreateOwnedExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
		require.Equal(t, member.ID, e.UserID)
		got, err := s.GetExecution(ctx, e.ID)
		require.NoError(t, err)
		require.Equal(t, member.ID, got.UserID)
		data, err := s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.JSONEq(t, `{}`, string(data.WorkflowData))

		unsaved := "not-saved"
		e = &store.Execution{WorkflowID: &unsaved, Status: workflow.StatusQueued, Mode: "webhook"}
		require.NoError(t, s.CreateOwnedExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
		got, err = s.GetExecution(ctx, e.ID)
		require.NoError(t, err)
		require.Empty(t, got.UserID, "a workflow without an owner leaves no user")
	})
}
