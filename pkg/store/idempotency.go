package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// IdempotencyKey records that a call with Key reached the webhook named by Scope, and which
// execution it started (nil until that execution is stored).
type IdempotencyKey struct {
	Scope       string `gorm:"primaryKey"`
	Key         string `gorm:"primaryKey"`
	ExecutionID *int64
	CreatedAt   time.Time
}

// TableName keeps the table name of the schema.
func (IdempotencyKey) TableName() string { return "idempotency_keys" }

// ClaimIdempotencyKey records the first call with a key. It returns true when this call is the
// first (it must then run and SetIdempotencyExecution, or ReleaseIdempotencyKey on failure);
// false with the stored row when an earlier call holds the key. A key recorded before
// expiredBefore is expired: it is replaced and the call counts as the first. The primary key
// makes concurrent claims safe: exactly one insert wins.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, scope, key string, expiredBefore time.Time) (bool, *IdempotencyKey, error) {
	for range 3 {
		row := IdempotencyKey{Scope: scope, Key: key, CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
		res := s.DB.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row)
		if res.Error != nil {
			return false, nil, fmt.Errorf("claim idempotency key: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			return true, &row, nil
		}
		held, err := s.GetIdempotencyKey(ctx, scope, key)
		if errors.Is(err, ErrNotFound) {
			continue // released or expired meanwhile: try again
		}
		if err != nil {
			return false, nil, err
		}
		if !held.CreatedAt.Before(expiredBefore) {
			return false, held, nil
		}
		// Expired: remove it (only if still expired) and insert again; of concurrent callers
		// one insert wins.
		err = s.DB.WithContext(ctx).Where("scope = ? AND key = ? AND created_at < ?", scope, key, expiredBefore.UTC()).
			Delete(&IdempotencyKey{}).Error
		if err != nil {
			return false, nil, fmt.Errorf("expire idempotency key: %w", err)
		}
	}
	return false, nil, fmt.Errorf("claim idempotency key: %w: the key keeps changing", ErrConflict)
}

// GetIdempotencyKey returns a recorded key, or ErrNotFound.
func (s *Store) GetIdempotencyKey(ctx context.Context, scope, key string) (*IdempotencyKey, error) {
	var row IdempotencyKey
	err := s.DB.WithContext(ctx).Where("scope = ? AND key = ?", scope, key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read idempotency key: %w", err)
	}
	return &row, nil
}

// SetIdempotencyExecution records the execution the first call with a key started, on the
// claim made at claimedAt: false when that claim was taken over meanwhile (see
// TakeOverIdempotencyKey), so the key names one execution only.
func (s *Store) SetIdempotencyExecution(ctx context.Context, scope, key string, claimedAt time.Time, executionID int64) (bool, error) {
	res := s.DB.WithContext(ctx).Model(&IdempotencyKey{}).
		Where("scope = ? AND key = ? AND execution_id IS NULL AND created_at = ?", scope, key, claimedAt).
		Update("execution_id", executionID)
	if res.Error != nil {
		return false, fmt.Errorf("record idempotency key execution: %w", res.Error)
	}
	return res.RowsAffected == 1, nil
}

// TakeOverIdempotencyKey claims anew a key whose first call recorded no execution and was made
// before abandonedBefore (the call failed and could not give the key back, or died): true when
// this call now holds it, with the claim's new time.
func (s *Store) TakeOverIdempotencyKey(ctx context.Context, scope, key string, abandonedBefore time.Time) (bool, time.Time, error) {
	// Microseconds: what both databases keep, so SetIdempotencyExecution can compare it.
	now := time.Now().UTC().Truncate(time.Microsecond)
	res := s.DB.WithContext(ctx).Model(&IdempotencyKey{}).
		Where("scope = ? AND key = ? AND execution_id IS NULL AND created_at < ?", scope, key, abandonedBefore.UTC()).
		Update("created_at", now)
	if res.Error != nil {
		return false, time.Time{}, fmt.Errorf("take over idempotency key: %w", res.Error)
	}
	return res.RowsAffected == 1, now, nil
}

// ReleaseIdempotencyKey forgets the claim made at claimedAt of a key whose first call started no
// execution, so that a repeat runs.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, scope, key string, claimedAt time.Time) error {
	err := s.DB.WithContext(ctx).Where("scope = ? AND key = ? AND execution_id IS NULL AND created_at = ?", scope, key, claimedAt).
		Delete(&IdempotencyKey{}).Error
	if err != nil {
		return fmt.Errorf("release idempotency key: %w", err)
	}
	return nil
}
