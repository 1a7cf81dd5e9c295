package store

import (
	"context"

	"gorm.io/gorm/clause"
)

// Setting keys used across packages.
const (
	SettingOwnerSetUp        = "userManagement.isInstanceOwnerSetUp"
	SettingSkipOwnerSetup    = "userManagement.skipInstanceOwnerSetup"
	SettingEncryptionKeyHash = "encryption.keyHash"
	SettingDefaultOwnerID    = "userManagement.defaultOwnerId"
)

// GetSetting returns the value of key, or ErrNotFound.
func (s *Store) GetSetting(ctx context.Context, key string) (string, error) {
	var row Setting
	if err := s.DB.WithContext(ctx).Where("key = ?", key).Take(&row).Error; err != nil {
		return "", notFound(err, "setting "+key)
	}
	return row.Value, nil
}

// SetSetting creates or replaces key.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	return s.DB.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key"}},
		DoUpdates: clause.AssignmentColumns([]string{"value"}),
	}).Create(&Setting{Key: key, Value: value, LoadOnStartup: true}).Error
}

// InitSetting stores key only when it is not set yet and returns the value now stored, so
// concurrent processes agree on the first writer's value.
func (s *Store) InitSetting(ctx context.Context, key, value string) (string, error) {
	err := s.DB.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).
		Create(&Setting{Key: key, Value: value, LoadOnStartup: true}).Error
	if err != nil {
		return "", err
	}
	return s.GetSetting(ctx, key)
}
