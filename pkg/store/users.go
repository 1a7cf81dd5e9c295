package store

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// NewUUID returns a random version-4 UUID string.
func NewUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = (b[6] & 0x0f) | 0x40
	b[8] = (b[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// EnsureDefaultOwner creates the password-less owner that stands in for the instance owner until
// setup, and returns the owner. Owner setup later fills in this same row. Safe to call from
// several processes at once: the id is agreed through the settings table first.
func (s *Store) EnsureDefaultOwner(ctx context.Context) (*User, error) {
	id, err := s.InitSetting(ctx, SettingDefaultOwnerID, NewUUID())
	if err != nil {
		return nil, fmt.Errorf("ensure default owner: %w", err)
	}
	now := time.Now().UTC()
	err = s.DB.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&User{ID: id, GlobalRole: RoleOwner, CreatedAt: now, UpdatedAt: now}).Error
	if err != nil {
		return nil, fmt.Errorf("ensure default owner: %w", err)
	}
	return s.GetUser(ctx, id)
}

// GetUser returns the user with id, or ErrNotFound.
func (s *Store) GetUser(ctx context.Context, id string) (*User, error) {
	var u User
	if err := s.DB.WithContext(ctx).Where("id = ?", id).Take(&u).Error; err != nil {
		return nil, notFound(err, "user "+id)
	}
	return &u, nil
}

// Owner returns the instance owner (the default user before setup), or ErrNotFound.
func (s *Store) Owner(ctx context.Context) (*User, error) {
	var u User
	if err := s.DB.WithContext(ctx).Where("global_role = ?", RoleOwner).Order("created_at").Take(&u).Error; err != nil {
		return nil, notFound(err, "owner")
	}
	return &u, nil
}
