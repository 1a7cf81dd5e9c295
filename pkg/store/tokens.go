package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// AuthToken is a single-use secret sent to a user (a password-reset link); only its hash is
// stored.
type AuthToken struct {
	ID        string `gorm:"primaryKey"`
	UserID    string
	Kind      string
	TokenHash string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

// APIKey is a user's public API key; only its hash and a hint are stored.
type APIKey struct {
	ID        string `gorm:"primaryKey"`
	UserID    string
	KeyHash   string
	KeyHint   string
	CreatedAt time.Time
}

// CreateAuthToken stores the hash of a new token of kind for userID, valid until expiresAt.
func (s *Store) CreateAuthToken(ctx context.Context, userID, kind, hash string, expiresAt time.Time) error {
	t := AuthToken{ID: NewUUID(), UserID: userID, Kind: kind, TokenHash: hash, ExpiresAt: expiresAt.UTC(), CreatedAt: time.Now().UTC()}
	if err := s.DB.WithContext(ctx).Create(&t).Error; err != nil {
		return fmt.Errorf("store %s token: %w", kind, err)
	}
	return nil
}

// CheckAuthToken reports ErrNotFound unless userID holds an unused, unexpired token of kind with
// this hash at now.
func (s *Store) CheckAuthToken(ctx context.Context, userID, kind, hash string, now time.Time) error {
	var n int64
	err := s.DB.WithContext(ctx).Model(&AuthToken{}).Where("user_id = ? AND kind = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ?",
		userID, kind, hash, now.UTC()).Count(&n).Error
	if err != nil {
		return fmt.Errorf("check %s token: %w", kind, err)
	}
	if n == 0 {
		return fmt.Errorf("%s token: %w", kind, ErrNotFound)
	}
	return nil
}

// UseAuthToken marks the token used, if it is still valid at now, and runs then in the same
// transaction; a token can be used once even by concurrent requests. ErrNotFound when it is
// missing, used or expired; an error from then undoes the use.
func (s *Store) UseAuthToken(ctx context.Context, userID, kind, hash string, now time.Time, then func(tx *Store) error) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&AuthToken{}).Where("user_id = ? AND kind = ? AND token_hash = ? AND used_at IS NULL AND expires_at > ?",
			userID, kind, hash, now.UTC()).Update("used_at", now.UTC())
		if res.Error != nil {
			return fmt.Errorf("use %s token: %w", kind, res.Error)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("%s token: %w", kind, ErrNotFound)
		}
		return then(&Store{DB: tx, Dialect: s.Dialect, log: s.log})
	})
}

// ReplaceAPIKey makes hash the only API key of userID.
func (s *Store) ReplaceAPIKey(ctx context.Context, userID, hash, hint string) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("user_id = ?", userID).Delete(&APIKey{}).Error; err != nil {
			return fmt.Errorf("replace API key: %w", err)
		}
		k := APIKey{ID: NewUUID(), UserID: userID, KeyHash: hash, KeyHint: hint, CreatedAt: time.Now().UTC()}
		if err := tx.Create(&k).Error; err != nil {
			return fmt.Errorf("store API key: %w", err)
		}
		return nil
	})
}

// APIKeyHint returns the hint of userID's API key, or ErrNotFound when there is none.
func (s *Store) APIKeyHint(ctx context.Context, userID string) (string, error) {
	var k APIKey
	if err := s.DB.WithContext(ctx).Where("user_id = ?", userID).Take(&k).Error; err != nil {
		return "", notFound(err, "API key")
	}
	return k.KeyHint, nil
}

// DeleteAPIKeys removes userID's API keys.
func (s *Store) DeleteAPIKeys(ctx context.Context, userID string) error {
	if err := s.DB.WithContext(ctx).Where("user_id = ?", userID).Delete(&APIKey{}).Error; err != nil {
		return fmt.Errorf("delete API key: %w", err)
	}
	return nil
}

// UserByAPIKey returns the enabled user whose API key has this hash, or ErrNotFound.
func (s *Store) UserByAPIKey(ctx context.Context, hash string) (*User, error) {
	var u User
	err := s.DB.WithContext(ctx).Where("disabled = ? AND id = (SELECT user_id FROM api_keys WHERE key_hash = ?)", false, hash).Take(&u).Error
	if err != nil {
		return nil, notFound(err, "API key")
	}
	return &u, nil
}
