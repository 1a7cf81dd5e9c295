package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ImportWorkflows stores ws as the command line's import:workflow does, all in one transaction:
// a workflow whose id exists is overwritten (document, name, tags), any other is created with its
// id (a new one when empty) and owned by ownerID. Every imported workflow is inactive and keeps
// no webhooks: activation is a separate step (update:workflow --active=true), as in n8n. w.Tags
// are matched by name, created when missing. ws is updated with the stored ids, version ids and
// timestamps. Any failure (a taken name, a name too long) leaves the database unchanged; the
// error names the workflow (ErrConflict, ErrInvalid).
func (s *Store) ImportWorkflows(ctx context.Context, ws []Workflow, ownerID string) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for i := range ws {
			if err := s.importWorkflow(tx, &ws[i], ownerID); err != nil {
				return &ImportError{Index: i, Err: err}
			}
		}
		return nil
	})
}

// ImportError is the failure of ImportWorkflows or ImportCredentials at the item with Index;
// nothing was imported.
type ImportError struct {
	Index int
	Err   error
}

func (e *ImportError) Error() string { return e.Err.Error() }
func (e *ImportError) Unwrap() error { return e.Err }

func (s *Store) importWorkflow(tx *gorm.DB, w *Workflow, ownerID string) error {
	if err := checkName("workflow", w.Name, WorkflowNameMaxLength); err != nil {
		return err
	}
	defaultDocument(w)
	tagIDs, tags, err := tagsByName(tx, w.Tags)
	if err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	w.Active, w.VersionID, w.UpdatedAt = false, NewUUID(), now
	if w.ID == "" {
		w.ID = NewID()
	}
	var existing Workflow
	err = tx.Where("id = ?", w.ID).Take(&existing).Error
	switch {
	case err == nil:
		w.CreatedAt = existing.CreatedAt
		err := tx.Model(&Workflow{}).Where("id = ?", w.ID).Updates(map[string]any{
			"name": w.Name, "active": false, "nodes": w.Nodes, "connections": w.Connections,
			"settings": w.Settings, "static_data": w.StaticData, "pin_data": w.PinData,
			"version_id": w.VersionID, "updated_at": w.UpdatedAt,
		}).Error
		if err != nil {
			return workflowWriteError(err, w.Name)
		}
		if err := tx.Where("workflow_id = ?", w.ID).Delete(&Webhook{}).Error; err != nil {
			return fmt.Errorf("remove the webhooks of workflow %s: %w", w.ID, err)
		}
		if err := tx.Where("workflow_id = ?", w.ID).Delete(&workflowTag{}).Error; err != nil {
			return fmt.Errorf("unlink tags of workflow %s: %w", w.ID, err)
		}
	case errors.Is(err, gorm.ErrRecordNotFound):
		if w.CreatedAt.IsZero() {
			w.CreatedAt = now
		}
		row := *w
		if err := tx.Omit(clause.Associations).Create(&row).Error; err != nil {
			return workflowWriteError(err, w.Name)
		}
		share := SharedWorkflow{WorkflowID: w.ID, UserID: ownerID, Role: WorkflowRoleOwner, CreatedAt: now}
		if err := tx.Create(&share).Error; err != nil {
			return fmt.Errorf("share workflow %s with its owner %s: %w", w.ID, ownerID, err)
		}
	default:
		return fmt.Errorf("read workflow %s: %w", w.ID, err)
	}
	if err := linkTags(tx, w.ID, tagIDs); err != nil {
		return err
	}
	w.Tags = tags
	return nil
}

// tagsByName returns the ids of the tags named in want, creating those that do not exist.
func tagsByName(tx *gorm.DB, want []Tag) ([]string, []Tag, error) {
	var ids []string
	var tags []Tag
	for _, t := range want {
		if err := checkName("tag", t.Name, TagNameMaxLength); err != nil {
			return nil, nil, err
		}
		var found Tag
		err := tx.Where("name = ?", t.Name).Take(&found).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			now := time.Now().UTC().Truncate(time.Microsecond)
			found = Tag{ID: NewID(), Name: t.Name, CreatedAt: now, UpdatedAt: now}
			err = tx.Create(&found).Error
		}
		if err != nil {
			return nil, nil, fmt.Errorf("tag %q: %w", t.Name, err)
		}
		ids = append(ids, found.ID)
		tags = append(tags, found)
	}
	return uniqueIDs(ids), tags, nil
}

// ImportCredentials stores cs as the command line's import:credentials does, in one
// transaction: a credential whose id exists is overwritten (name, type, data), any other is
// created with its id (a new one when empty) and owned by ownerID. Data must already be
// encrypted with the instance's key. Any failure leaves the database unchanged.
func (s *Store) ImportCredentials(ctx context.Context, cs []Credential, ownerID string) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for i := range cs {
			c := &cs[i]
			if err := checkName("credential", c.Name, CredentialNameMaxLength); err != nil {
				return &ImportError{Index: i, Err: err}
			}
			now := time.Now().UTC().Truncate(time.Microsecond)
			c.UpdatedAt = now
			if c.ID == "" {
				c.ID = NewID()
			}
			if len(c.NodesAccess) == 0 {
				c.NodesAccess = JSON("[]")
			}
			var existing Credential
			err := tx.Where("id = ?", c.ID).Take(&existing).Error
			switch {
			case err == nil:
				c.CreatedAt = existing.CreatedAt
				err = tx.Model(&Credential{}).Where("id = ?", c.ID).Updates(map[string]any{
					"name": c.Name, "type": c.Type, "data": c.Data, "updated_at": now}).Error
			case errors.Is(err, gorm.ErrRecordNotFound):
				if c.CreatedAt.IsZero() {
					c.CreatedAt = now
				}
				if err = tx.Create(c).Error; err == nil {
					err = tx.Create(&SharedCredential{CredentialID: c.ID, UserID: ownerID, Role: CredentialRoleOwner, CreatedAt: now}).Error
				}
			}
			if err != nil {
				return &ImportError{Index: i, Err: fmt.Errorf("save credential %q (%s): %w", c.Name, c.ID, err)}
			}
		}
		return nil
	})
}
