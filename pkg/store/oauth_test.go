package store_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func TestOAuthStateIsTakenOnceAndExpires(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		cred := newCredential(t, s, owner, "OAuth", "oAuth2Api")
		save := func(key string, expires time.Time) {
			require.NoError(t, s.SaveOAuthState(ctx, key, store.OAuthState{Kind: "oauth2", UserID: owner.ID,
				CredentialID: cred.ID, Secret: "v1:sealed", ExpiresAt: expires}))
		}
		save("live", time.Now().Add(time.Minute))
		save("old", time.Now().Add(-time.Second))
		var raw string
		require.NoError(t, s.DB.Raw("SELECT key_hash FROM oauth_states LIMIT 1").Scan(&raw).Error)
		require.Len(t, raw, 64, "only a hash of the key is stored")

		_, err := s.TakeOAuthState(ctx, "oauth1", "live")
		require.ErrorIs(t, err, store.ErrNotFound, "the kind must match")
		// Several replicas get the same callback at once: one takes it.
		var took atomic.Int32
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if st, err := s.TakeOAuthState(ctx, "oauth2", "live"); err == nil {
					require.Equal(t, cred.ID, st.CredentialID)
					require.Equal(t, owner.ID, st.UserID)
					took.Add(1)
				}
			})
		}
		wg.Wait()
		require.EqualValues(t, 1, took.Load())
		_, err = s.TakeOAuthState(ctx, "oauth2", "old")
		require.ErrorIs(t, err, store.ErrNotFound, "expired")

		save("next", time.Now().Add(time.Minute))
		require.EqualValues(t, 1, count(t, s, "oauth_states"), "saving drops the expired ones")
		_, err = s.DeleteCredential(ctx, owner, cred.ID)
		require.NoError(t, err)
		require.EqualValues(t, 0, count(t, s, "oauth_states"), "they go with their credential")
	})
}

func TestCredentialRefreshLeaseAndCompareAndSet(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		cred := newCredential(t, s, owner, "OAuth", "oAuth2Api")

		held, err := s.LeaseCredentialRefresh(ctx, cred.ID, "a", time.Minute)
		require.NoError(t, err)
		require.True(t, held)
		held, err = s.LeaseCredentialRefresh(ctx, cred.ID, "b", time.Minute)
		require.NoError(t, err)
		require.False(t, held, "one holder at a time")
		require.NoError(t, s.ReleaseCredentialRefresh(ctx, cred.ID, "b"), "only the holder gives it back")
		held, err = s.LeaseCredentialRefresh(ctx, cred.ID, "b", time.Minute)
		require.NoError(t, err)
		require.False(t, held)
		require.NoError(t, s.ReleaseCredentialRefresh(ctx, cred.ID, "a"))
		held, err = s.LeaseCredentialRefresh(ctx, cred.ID, "b", -time.Second)
		require.NoError(t, err)
		require.True(t, held)
		held, err = s.LeaseCredentialRefresh(ctx, cred.ID, "c", time.Minute)
		require.NoError(t, err)
		require.True(t, held, "an expired lease is taken over")

		ok, err := s.UpdateCredentialDataIf(ctx, cred.ID, "v1:other", "v1:new")
		require.NoError(t, err)
		require.False(t, ok, "the data changed meanwhile")
		ok, err = s.UpdateCredentialDataIf(ctx, cred.ID, cred.Data, "v1:new")
		require.NoError(t, err)
		require.True(t, ok)
		got, err := s.GetCredential(ctx, cred.ID)
		require.NoError(t, err)
		require.Equal(t, "v1:new", got.Data)
	})
}
