package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// TagNameMaxLength is the longest tag name, in characters.
const TagNameMaxLength = 24

// TagUsage is a tag with the number of workflows that carry it.
type TagUsage struct {
	Tag
	UsageCount int64
}

// UnknownTagError is returned when a workflow is given a tag id that does not exist.
type UnknownTagError struct {
	ID string
}

func (e *UnknownTagError) Error() string { return fmt.Sprintf("tag %s does not exist", e.ID) }

// workflowTag is one row of the workflow_tags join table.
type workflowTag struct {
	WorkflowID string
	TagID      string
}

func (workflowTag) TableName() string { return "workflow_tags" }

// ListTags returns every tag, sorted by name.
func (s *Store) ListTags(ctx context.Context) ([]Tag, error) {
	out := []Tag{}
	if err := s.DB.WithContext(ctx).Order("name").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list tags: %w", err)
	}
	return out, nil
}

// ListTagsWithUsage returns every tag, sorted by name, with the number of workflows (of any
// owner) that carry it.
func (s *Store) ListTagsWithUsage(ctx context.Context) ([]TagUsage, error) {
	out := []TagUsage{}
	err := s.DB.WithContext(ctx).Model(&Tag{}).
		Select("tags.id, tags.name, tags.created_at, tags.updated_at, COUNT(workflow_tags.workflow_id) AS usage_count").
		Joins("LEFT JOIN workflow_tags ON workflow_tags.tag_id = tags.id").
		Group("tags.id, tags.name, tags.created_at, tags.updated_at").
		Order("tags.name").
		Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list tags with usage: %w", err)
	}
	return out, nil
}

// CreateTag stores a new tag. A name that is taken is ErrConflict; a name of 0 or more than
// TagNameMaxLength characters is ErrInvalid.
func (s *Store) CreateTag(ctx context.Context, name string) (*Tag, error) {
	if err := checkName("tag", name, TagNameMaxLength); err != nil {
		return nil, err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	t := Tag{ID: NewID(), Name: name, CreatedAt: now, UpdatedAt: now}
	if err := s.DB.WithContext(ctx).Create(&t).Error; err != nil {
		return nil, tagWriteError(err, name)
	}
	return &t, nil
}

// UpdateTag renames tag id. Errors as CreateTag, plus ErrNotFound for a missing tag.
func (s *Store) UpdateTag(ctx context.Context, id, name string) (*Tag, error) {
	if err := checkName("tag", name, TagNameMaxLength); err != nil {
		return nil, err
	}
	var t Tag
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Tag{}).Where("id = ?", id).
			Updates(map[string]any{"name": name, "updated_at": time.Now().UTC().Truncate(time.Microsecond)})
		if res.Error != nil {
			return tagWriteError(res.Error, name)
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("tag %s: %w", id, ErrNotFound)
		}
		return tx.Where("id = ?", id).Take(&t).Error
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// DeleteTag deletes tag id; the workflows that carried it lose it. ErrNotFound for a missing tag.
func (s *Store) DeleteTag(ctx context.Context, id string) error {
	res := s.DB.WithContext(ctx).Where("id = ?", id).Delete(&Tag{})
	if res.Error != nil {
		return fmt.Errorf("delete tag %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("tag %s: %w", id, ErrNotFound)
	}
	return nil
}

func tagWriteError(err error, name string) error {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("tag name %q is taken: %w", name, ErrConflict)
	}
	return fmt.Errorf("save tag %q: %w", name, err)
}

// findTags returns the tags with the given ids, sorted by name, or an *UnknownTagError naming the
// first id that does not exist. On Postgres the rows stay locked against deletion until the
// transaction ends, so the links written next cannot point at a tag deleted meanwhile; SQLite
// transactions hold the write lock already.
func (s *Store) findTags(tx *gorm.DB, ids []string) ([]Tag, error) {
	tags := []Tag{}
	if len(ids) == 0 {
		return tags, nil
	}
	q := tx.Where("id IN ?", ids)
	if s.Dialect == Postgres {
		q = q.Clauses(clause.Locking{Strength: "KEY SHARE"})
	}
	if err := q.Order("name").Find(&tags).Error; err != nil {
		return nil, fmt.Errorf("find tags: %w", err)
	}
	found := make(map[string]bool, len(tags))
	for _, t := range tags {
		found[t.ID] = true
	}
	for _, id := range ids {
		if !found[id] {
			return nil, &UnknownTagError{ID: id}
		}
	}
	return tags, nil
}

func linkTags(tx *gorm.DB, workflowID string, tagIDs []string) error {
	if len(tagIDs) == 0 {
		return nil
	}
	rows := make([]workflowTag, len(tagIDs))
	for i, id := range tagIDs {
		rows[i] = workflowTag{WorkflowID: workflowID, TagID: id}
	}
	if err := tx.Create(&rows).Error; err != nil {
		return fmt.Errorf("link tags to workflow %s: %w", workflowID, err)
	}
	return nil
}

// tagIDsOf returns the ids of tags without repeats, in their order.
func tagIDsOf(tags []Tag) []string {
	ids := make([]string, len(tags))
	for i, t := range tags {
		ids[i] = t.ID
	}
	return uniqueIDs(ids)
}

func uniqueIDs(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
