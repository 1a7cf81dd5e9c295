package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
)

// glebarezTimeFormat is how github.com/glebarez/go-sqlite, the SQLite driver before
// modernc.org/sqlite's, wrote a time.Time: files written then hold this text.
const glebarezTimeFormat = "2006-01-02 15:04:05.999999999-07:00"

// A SQLite file written before the driver change reads back the same times, in UTC as then,
// and the store writes times as the old driver did, so old and new rows still sort as text.
func TestSQLiteTimesMatchTheFormerDriver(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "db.sqlite")
	s, err := Open(ctx, Options{SQLitePath: path})
	require.NoError(t, err)
	want := time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.UTC)
	old := map[string]struct {
		text string
		want time.Time
	}{
		"fraction":   {want.Format(glebarezTimeFormat), want},
		"whole":      {"2025-03-04 05:06:07+00:00", want.Truncate(time.Second)},
		"sqlite-now": {"2025-03-04 05:06:07", want.Truncate(time.Second)}, // CURRENT_TIMESTAMP's form
	}
	for id, o := range old {
		require.NoError(t, s.DB.Exec(`INSERT INTO tags (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			id, id, o.text, o.text).Error)
	}
	// A time in another zone, as the old driver wrote it: the same instant reads back.
	require.NoError(t, s.DB.Exec(`INSERT INTO tags (id, name, created_at, updated_at) VALUES ('zone', 'zone', ?, ?)`,
		"2025-03-04 07:06:07.123456789+02:00", "2025-03-04 07:06:07.123456789+02:00").Error)
	require.NoError(t, s.Close())

	s, err = Open(ctx, Options{SQLitePath: path})
	require.NoError(t, err)
	defer func() { _ = s.Close() }()
	for id, o := range old {
		var tag Tag
		require.NoError(t, s.DB.First(&tag, "id = ?", id).Error)
		require.Equal(t, o.want, tag.CreatedAt, id) // Equal compares the location too: UTC
		require.Equal(t, o.want, tag.UpdatedAt, id)
	}
	var zoned Tag
	require.NoError(t, s.DB.First(&zoned, "id = ?", "zone").Error)
	require.True(t, want.Equal(zoned.CreatedAt), zoned.CreatedAt.String())

	berlin := time.FixedZone("CET", 3600)
	require.NoError(t, s.DB.Create(&Tag{ID: "new", Name: "new", CreatedAt: want, UpdatedAt: want.In(berlin)}).Error)
	var created, updated string
	require.NoError(t, s.DB.Raw(`SELECT created_at || '', updated_at || '' FROM tags WHERE id = 'new'`).
		Row().Scan(&created, &updated))
	require.Equal(t, want.Format(glebarezTimeFormat), created)
	require.Equal(t, want.Format(glebarezTimeFormat), updated, "another zone's time is written in UTC")

	var order []string
	require.NoError(t, s.DB.Raw(`SELECT id FROM tags WHERE id IN ('fraction', 'whole', 'new') ORDER BY created_at, id`).
		Scan(&order).Error)
	require.Equal(t, []string{"whole", "fraction", "new"}, order)
}

// Unique and foreign-key violations still come out as gorm's errors, which the repositories
// turn into ErrConflict.
func TestSQLiteConstraintErrorsTranslate(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, Options{SQLitePath: filepath.Join(t.TempDir(), "db.sqlite")})
	require.NoError(t, err)
	defer func() { _ = s.Close() }()
	now := time.Now().UTC()
	require.NoError(t, s.DB.Create(&Tag{ID: "a", Name: "same", CreatedAt: now, UpdatedAt: now}).Error)
	err = s.DB.Create(&Tag{ID: "b", Name: "same", CreatedAt: now, UpdatedAt: now}).Error
	require.ErrorIs(t, err, gorm.ErrDuplicatedKey)
	err = s.DB.Create(&Tag{ID: "a", Name: "other", CreatedAt: now, UpdatedAt: now}).Error
	require.ErrorIs(t, err, gorm.ErrDuplicatedKey)
	err = s.DB.Exec(`INSERT INTO workflow_tags (workflow_id, tag_id) VALUES ('missing', 'a')`).Error
	require.ErrorIs(t, err, gorm.ErrForeignKeyViolated)
}
