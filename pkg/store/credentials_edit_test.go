package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func TestUpdateCredential(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		owner := newUser(t, s, store.RoleOwner)
		member := newUser(t, s, store.RoleMember)
		other := newUser(t, s, store.RoleMember)
		mine := newCredential(t, s, member, "Mine", "httpBasicAuth")

		got, err := s.UpdateCredential(ctx, member, mine.ID, func(c *store.Credential) error {
			c.Name, c.Data, c.NodesAccess = "Renamed", "v1:new", store.JSON(`[{"nodeType":"n8n-nodes-base.httpRequest"}]`)
			c.Type = "ignored"
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, "Renamed", got.Name)
		require.False(t, got.UpdatedAt.Before(mine.UpdatedAt))
		stored, err := s.GetCredential(ctx, mine.ID)
		require.NoError(t, err)
		require.Equal(t, "Renamed", stored.Name)
		require.Equal(t, "v1:new", stored.Data)
		require.Equal(t, "httpBasicAuth", stored.Type, "the type is not changed")
		require.JSONEq(t, `[{"nodeType":"n8n-nodes-base.httpRequest"}]`, string(stored.NodesAccess))

		_, err = s.UpdateCredential(ctx, other, mine.ID, func(*store.Credential) error { return nil })
		require.ErrorIs(t, err, store.ErrNotFound, "another member cannot change it")
		_, err = s.UpdateCredential(ctx, owner, mine.ID, func(c *store.Credential) error { c.Name = "By the owner"; return nil })
		require.NoError(t, err, "the instance owner can")

		refused := errors.New("refused")
		_, err = s.UpdateCredential(ctx, member, mine.ID, func(c *store.Credential) error { c.Name = "Half"; return refused })
		require.ErrorIs(t, err, refused)
		_, err = s.UpdateCredential(ctx, member, mine.ID, func(c *store.Credential) error { c.Name = strings.Repeat("x", 129); return nil })
		require.ErrorIs(t, err, store.ErrInvalid)
		stored, err = s.GetCredential(ctx, mine.ID)
		require.NoError(t, err)
		require.Equal(t, "By the owner", stored.Name, "nothing was written by the refused changes")

		role, err := s.CredentialRole(ctx, mine.ID, member.ID)
		require.NoError(t, err)
		require.Equal(t, store.CredentialRoleOwner, role)
		_, err = s.CredentialRole(ctx, mine.ID, owner.ID)
		require.ErrorIs(t, err, store.ErrNotFound)

		name, err := s.UniqueCredentialName(ctx, member, "By the owner", 64)
		require.NoError(t, err)
		require.Equal(t, "By the owner 2", name)
		name, err = s.UniqueCredentialName(ctx, other, "By the owner", 64)
		require.NoError(t, err)
		require.Equal(t, "By the owner", name, "only the credentials the user sees count")
	})
}
