package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestOwnerSetupMigratesDataOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		def, err := s.EnsureDefaultOwner(ctx)
		require.NoError(t, err)
		// A workflow with no owner at all (imported straight into the table) is migrated too.
		orphan := &store.Workflow{ID: "orphan", Name: "orphan", Nodes: store.JSON("[]"), Connections: store.JSON("{}"),
			CreatedAt: time.Now(), UpdatedAt: time.Now()}
		require.NoError(t, s.DB.Omit("Tags").Create(orphan).Error)
		newWorkflow(t, s, def, "made before setup")

		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.SetUpOwner(ctx, def.ID, store.AccountFields{Email: "own@example.com", FirstName: "O", LastName: "W"}, "hash")
			}()
		}
		wg.Wait()
		require.Equal(t, 1, countNil(errs), "exactly one setup wins: %v", errs)
		for _, err := range errs {
			if err != nil {
				require.ErrorIs(t, err, store.ErrAlreadySetUp)
			}
		}
		v, err := s.GetSetting(ctx, store.SettingOwnerSetUp)
		require.NoError(t, err)
		require.Equal(t, "true", v)
		member := newUser(t, s, store.RoleMember)
		list, err := s.ListWorkflows(ctx, member, store.WorkflowFilter{})
		require.NoError(t, err)
		require.Empty(t, list)
		var shares []store.SharedWorkflow
		require.NoError(t, s.DB.Order("workflow_id").Find(&shares).Error)
		require.Len(t, shares, 2)
		for _, sh := range shares {
			require.Equal(t, def.ID, sh.UserID)
		}
	})
}

func countNil(errs []error) int {
	n := 0
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	return n
}

func TestInviteSignUpAndProfile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		got, err := s.InviteMembers(ctx, []string{"a@example.com", "b@example.com"})
		require.NoError(t, err)
		require.Len(t, got, 2)
		a := got[0].User
		require.Equal(t, store.RoleMember, a.GlobalRole)
		require.True(t, a.IsPending())

		// Inviting again returns the same pending user.
		again, err := s.InviteMembers(ctx, []string{"a@example.com"})
		require.NoError(t, err)
		require.Equal(t, a.ID, again[0].User.ID)

		done, err := s.CompleteSignUp(ctx, a.ID, "Ann", "Lee", "hash")
		require.NoError(t, err)
		require.False(t, done.IsPending())
		_, err = s.CompleteSignUp(ctx, a.ID, "Ann", "Lee", "hash")
		require.ErrorIs(t, err, store.ErrAlreadySetUp)
		_, err = s.CompleteSignUp(ctx, store.NewUUID(), "X", "Y", "hash")
		require.ErrorIs(t, err, store.ErrNotFound)

		// A finished account is not invited again.
		again, err = s.InviteMembers(ctx, []string{"a@example.com"})
		require.NoError(t, err)
		require.Nil(t, again[0].User)

		_, err = s.UpdateProfile(ctx, a.ID, store.AccountFields{Email: "b@example.com", FirstName: "Ann", LastName: "Lee"})
		require.ErrorIs(t, err, store.ErrConflict)
		u, err := s.UpdateProfile(ctx, a.ID, store.AccountFields{Email: "ann@example.com", FirstName: "Anne", LastName: "Lee"})
		require.NoError(t, err)
		require.Equal(t, "Anne", *u.FirstName)
		byEmail, err := s.GetUserByEmail(ctx, "ann@example.com")
		require.NoError(t, err)
		require.Equal(t, a.ID, byEmail.ID)

		require.NoError(t, s.SaveSurvey(ctx, a.ID, store.JSON(`{"version":"v2","codingSkill":"3"}`)))
		u, err = s.GetUser(ctx, a.ID)
		require.NoError(t, err)
		require.JSONEq(t, `{"version":"v2","codingSkill":"3"}`, string(u.PersonalizationAnswers))
	})
}

func TestResetTokensAreSingleUse(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := newUser(t, s, store.RoleMember)
		now := time.Now()
		require.NoError(t, s.CreateAuthToken(ctx, u.ID, "password-reset", "h1", now.Add(time.Hour)))
		require.NoError(t, s.CreateAuthToken(ctx, u.ID, "password-reset", "h2", now.Add(time.Hour)))
		require.NoError(t, s.CreateAuthToken(ctx, u.ID, "password-reset", "old", now.Add(-time.Second)))

		require.NoError(t, s.CheckAuthToken(ctx, u.ID, "password-reset", "h1", now))
		require.ErrorIs(t, s.CheckAuthToken(ctx, u.ID, "password-reset", "old", now), store.ErrNotFound, "expired")
		require.ErrorIs(t, s.CheckAuthToken(ctx, store.NewUUID(), "password-reset", "h1", now), store.ErrNotFound, "other user")

		// An error in the follow-up undoes the use.
		boom := errors.New("boom")
		require.ErrorIs(t, s.UseAuthToken(ctx, u.ID, "password-reset", "h1", now, func(*store.Store) error { return boom }), boom)
		require.NoError(t, s.UseAuthToken(ctx, u.ID, "password-reset", "h1", now, func(tx *store.Store) error {
			return tx.SetPassword(ctx, u.ID, "new-hash")
		}))
		require.ErrorIs(t, s.UseAuthToken(ctx, u.ID, "password-reset", "h1", now, func(*store.Store) error { return nil }), store.ErrNotFound)
		// Setting the password voided the other outstanding token.
		require.ErrorIs(t, s.CheckAuthToken(ctx, u.ID, "password-reset", "h2", now), store.ErrNotFound)
		got, err := s.GetUser(ctx, u.ID)
		require.NoError(t, err)
		require.Equal(t, "new-hash", *got.Password)
		require.NotNil(t, got.PasswordChangedAt)
	})
}

func TestDeleteUserTransfersOrDeletes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		leaver := newUser(t, s, store.RoleMember)
		gone := newUser(t, s, store.RoleMember)
		kept := newWorkflow(t, s, leaver, "kept")
		both := newWorkflow(t, s, owner, "both")
		require.NoError(t, s.ShareWorkflow(ctx, both.ID, leaver.ID, "editor"))
		dropped := newWorkflow(t, s, gone, "dropped")
		require.NoError(t, s.ReplaceAPIKey(ctx, leaver.ID, "keyhash", "hint"))
		waiting := &store.Execution{WorkflowID: &kept.ID, Status: workflow.StatusWaiting, Mode: "trigger", UserID: leaver.ID}
		require.NoError(t, s.CreateExecution(ctx, waiting, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))

		require.ErrorIs(t, s.DeleteUser(ctx, leaver.ID, store.NewUUID()), store.ErrNotFound)
		require.NoError(t, s.DeleteUser(ctx, leaver.ID, owner.ID))
		got, err := s.GetExecution(ctx, waiting.ID)
		require.NoError(t, err)
		require.Equal(t, owner.ID, got.UserID, "a waiting run of a workflow passed on acts for its new owner")
		_, err = s.GetUser(ctx, leaver.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		var sh store.SharedWorkflow
		require.NoError(t, s.DB.Where("workflow_id = ?", kept.ID).Take(&sh).Error)
		require.Equal(t, owner.ID, sh.UserID)
		require.Equal(t, store.WorkflowRoleOwner, sh.Role)
		var shBoth []store.SharedWorkflow
		require.NoError(t, s.DB.Where("workflow_id = ?", both.ID).Find(&shBoth).Error)
		require.Len(t, shBoth, 1)
		require.Equal(t, store.WorkflowRoleOwner, shBoth[0].Role, "the transferee keeps their own role")
		_, err = s.UserByAPIKey(ctx, "keyhash")
		require.ErrorIs(t, err, store.ErrNotFound, "keys go with their user")

		require.NoError(t, s.DeleteUser(ctx, gone.ID, ""))
		_, err = s.GetWorkflow(ctx, dropped.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		_, err = s.GetWorkflow(ctx, kept.ID)
		require.NoError(t, err)
	})
}

func TestAPIKeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		u := newUser(t, s, store.RoleMember)
		_, err := s.APIKeyHint(ctx, u.ID)
		require.ErrorIs(t, err, store.ErrNotFound)
		require.NoError(t, s.ReplaceAPIKey(ctx, u.ID, "h1", "hint1"))
		require.NoError(t, s.ReplaceAPIKey(ctx, u.ID, "h2", "hint2"))
		hint, err := s.APIKeyHint(ctx, u.ID)
		require.NoError(t, err)
		require.Equal(t, "hint2", hint)
		_, err = s.UserByAPIKey(ctx, "h1")
		require.ErrorIs(t, err, store.ErrNotFound, "replaced keys stop working")
		got, err := s.UserByAPIKey(ctx, "h2")
		require.NoError(t, err)
		require.Equal(t, u.ID, got.ID)
		require.NoError(t, s.DeleteAPIKeys(ctx, u.ID))
		_, err = s.UserByAPIKey(ctx, "h2")
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}
