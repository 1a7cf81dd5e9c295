package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// RevokedSession is a signed-out session: its cookie is refused until it would have expired.
type RevokedSession struct {
	ID        string `gorm:"primaryKey"`
	ExpiresAt time.Time
}

// SessionUser returns the user of a session that has not been revoked; ErrNotFound when the
// user does not exist or the session was revoked. One statement, so checking a session costs
// no more than reading its user.
func (s *Store) SessionUser(ctx context.Context, userID, sessionID string) (*User, error) {
	var u User
	err := s.DB.WithContext(ctx).
		Where("id = ? AND NOT EXISTS (SELECT 1 FROM revoked_sessions WHERE revoked_sessions.id = ?)", userID, sessionID).
		Take(&u).Error
	if err != nil {
		return nil, notFound(err, "session of user "+userID)
	}
	return &u, nil
}

// RevokeSession refuses the session id from now on, until expiresAt, when its cookie stops
// working anyway; revocations past their expiry are removed on the way. Revoking twice is fine.
func (s *Store) RevokeSession(ctx context.Context, sessionID string, expiresAt time.Time) error {
	db := s.DB.WithContext(ctx)
	if err := db.Where("expires_at < ?", time.Now().UTC()).Delete(&RevokedSession{}).Error; err != nil {
		return fmt.Errorf("prune revoked sessions: %w", err)
	}
	r := RevokedSession{ID: sessionID, ExpiresAt: expiresAt.UTC()}
	if err := db.Clauses(clause.OnConflict{DoNothing: true}).Create(&r).Error; err != nil {
		return fmt.Errorf("revoke session: %w", err)
	}
	return nil
}

// ReplaceAuthToken stores the hash of a new token of kind for userID, valid until expiresAt, in
// place of every earlier token of that kind: a re-sent invitation makes the older link useless.
func (s *Store) ReplaceAuthToken(ctx context.Context, userID, kind, hash string, expiresAt time.Time) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("user_id = ? AND kind = ?", userID, kind).Delete(&AuthToken{}).Error; err != nil {
			return fmt.Errorf("replace %s token: %w", kind, err)
		}
		return (&Store{DB: tx, Dialect: s.Dialect, log: s.log}).CreateAuthToken(ctx, userID, kind, hash, expiresAt)
	})
}
