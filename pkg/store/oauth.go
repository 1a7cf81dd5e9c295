package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// OAuthState is one OAuth connect in progress: the OAuth2 state or the OAuth1 request token
// handed to the browser, bound to the user and the credential. Only a hash of the key is
// stored; Secret is the encrypted server-side half (PKCE verifier, OAuth1 token secret).
type OAuthState struct {
	KeyHash      string `gorm:"primaryKey"`
	Kind         string
	UserID       string
	CredentialID string
	Secret       string
	ExpiresAt    time.Time
	CreatedAt    time.Time
}

// CredentialRefreshLease is held by the one process refreshing a credential's OAuth token.
type CredentialRefreshLease struct {
	CredentialID string `gorm:"primaryKey"`
	Owner        string
	ExpiresAt    time.Time
}

func hashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// SaveOAuthState keeps st under key (stored hashed) until st.ExpiresAt, and drops states
// that have expired.
func (s *Store) SaveOAuthState(ctx context.Context, key string, st OAuthState) error {
	now := time.Now().UTC()
	st.KeyHash, st.CreatedAt = hashKey(key), now
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("expires_at < ?", now).Delete(&OAuthState{}).Error; err != nil {
			return fmt.Errorf("drop expired oauth states: %w", err)
		}
		if err := tx.Create(&st).Error; err != nil {
			return fmt.Errorf("save oauth state: %w", err)
		}
		return nil
	})
}

// TakeOAuthState returns the state saved under key of the given kind and deletes it, so it is
// used once even when two api replicas get it at the same moment. ErrNotFound when there is
// none, it was taken already, or it expired.
func (s *Store) TakeOAuthState(ctx context.Context, kind, key string) (*OAuthState, error) {
	var st OAuthState
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("key_hash = ? AND kind = ?", hashKey(key), kind).Take(&st).Error; err != nil {
			return notFound(err, "oauth state")
		}
		res := tx.Where("key_hash = ?", st.KeyHash).Delete(&OAuthState{})
		if res.Error != nil {
			return fmt.Errorf("use oauth state: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("oauth state used already: %w", ErrNotFound)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !time.Now().Before(st.ExpiresAt) {
		return nil, fmt.Errorf("oauth state expired: %w", ErrNotFound)
	}
	return &st, nil
}

// UpdateCredentialDataIf replaces credential id's encrypted data with data when it still holds
// old (compare-and-set). It reports false when another writer changed it first.
func (s *Store) UpdateCredentialDataIf(ctx context.Context, id, old, data string) (bool, error) {
	res := s.DB.WithContext(ctx).Model(&Credential{}).Where("id = ? AND data = ?", id, old).
		Updates(map[string]any{"data": data, "updated_at": time.Now().UTC().Truncate(time.Microsecond)})
	if res.Error != nil {
		return false, fmt.Errorf("update credential %s: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// LeaseCredentialRefresh gives owner the refresh lease of credential id for ttl when nobody
// holds a live one (or owner holds it). It reports whether owner holds it now.
func (s *Store) LeaseCredentialRefresh(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	now := time.Now().UTC()
	lease := CredentialRefreshLease{CredentialID: id, Owner: owner, ExpiresAt: now.Add(ttl)}
	db := s.DB.WithContext(ctx)
	if err := db.Clauses(clause.OnConflict{DoNothing: true}).Create(&lease).Error; err != nil {
		return false, fmt.Errorf("lease credential %s refresh: %w", id, err)
	}
	res := db.Model(&CredentialRefreshLease{}).
		Where("credential_id = ? AND (owner = ? OR expires_at < ?)", id, owner, now).
		Updates(map[string]any{"owner": owner, "expires_at": lease.ExpiresAt})
	if res.Error != nil {
		return false, fmt.Errorf("lease credential %s refresh: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// ReleaseCredentialRefresh gives back owner's refresh lease of credential id.
func (s *Store) ReleaseCredentialRefresh(ctx context.Context, id, owner string) error {
	err := s.DB.WithContext(ctx).Where("credential_id = ? AND owner = ?", id, owner).
		Delete(&CredentialRefreshLease{}).Error
	if err != nil {
		return fmt.Errorf("release credential %s refresh: %w", id, err)
	}
	return nil
}

// TableName keeps gorm from spelling the table o_auth_states.
func (OAuthState) TableName() string { return "oauth_states" }
