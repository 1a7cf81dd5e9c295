package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Webhook is a production webhook of an active workflow. Method and Path are unique across all
// workflows; a dynamic path (with ":name" segments) starts with its node's WebhookID and has
// PathLength segments after it.
type Webhook struct {
	ID         string `gorm:"primaryKey"`
	WorkflowID string
	Node       string
	Method     string
	Path       string
	WebhookID  *string
	PathLength int
}

// TableName keeps the table name of the schema.
func (Webhook) TableName() string { return "webhooks" }

// WebhookConflictError means a webhook's method and path are already registered by another
// active workflow (or twice in one).
type WebhookConflictError struct {
	Method, Path, Node string
	// WorkflowID and WorkflowName name the workflow holding the path; empty when a concurrent
	// activation took it and it is not known which.
	WorkflowID, WorkflowName string
}

func (e *WebhookConflictError) Error() string {
	holder := "another active workflow"
	if e.WorkflowName != "" {
		holder = fmt.Sprintf("the active workflow %q (ID %s)", e.WorkflowName, e.WorkflowID)
	}
	return fmt.Sprintf("The webhook path %q with method %s of node %q is already used by %s. Webhook paths must be unique across active workflows.",
		e.Path, e.Method, e.Node, holder)
}

func (e *WebhookConflictError) Unwrap() error { return ErrConflict }

// syncWebhooks makes the stored webhooks of w match its state, inside the transaction that saves
// it: none when it is inactive, w.Webhooks when it is active and they were given (nil leaves
// them alone).
func (s *Store) syncWebhooks(tx *gorm.DB, w *Workflow) error {
	if w.Active && w.Webhooks == nil {
		return nil
	}
	if err := tx.Where("workflow_id = ?", w.ID).Delete(&Webhook{}).Error; err != nil {
		return fmt.Errorf("remove webhooks of workflow %s: %w", w.ID, err)
	}
	if !w.Active {
		return nil
	}
	for i := range w.Webhooks {
		h := w.Webhooks[i]
		h.ID, h.WorkflowID = NewUUID(), w.ID
		var holder struct {
			ID   string
			Name string
		}
		err := tx.Table("webhooks").Select("workflows.id, workflows.name").
			Joins("JOIN workflows ON workflows.id = webhooks.workflow_id").
			Where("webhooks.method = ? AND webhooks.path = ?", h.Method, h.Path).Take(&holder).Error
		if err == nil {
			return &WebhookConflictError{Method: h.Method, Path: h.Path, Node: h.Node, WorkflowID: holder.ID, WorkflowName: holder.Name}
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return fmt.Errorf("look up webhook %s %s: %w", h.Method, h.Path, err)
		}
		if err := tx.Create(&h).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return &WebhookConflictError{Method: h.Method, Path: h.Path, Node: h.Node}
			}
			return fmt.Errorf("register webhook %s %s: %w", h.Method, h.Path, err)
		}
	}
	return nil
}

// FindWebhooks returns the webhook registered for method and path when there is one; otherwise
// the dynamic webhooks whose webhookId is the path's first segment and whose length fits, for
// the caller to match.
func (s *Store) FindWebhooks(ctx context.Context, method, path string) ([]Webhook, error) {
	var out []Webhook
	db := s.DB.WithContext(ctx)
	if err := db.Where("method = ? AND path = ?", method, path).Limit(1).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("find webhook %s %s: %w", method, path, err)
	}
	if len(out) > 0 {
		return out, nil
	}
	first, rest, ok := strings.Cut(path, "/")
	if !ok {
		return nil, nil
	}
	err := db.Where("webhook_id = ? AND method = ? AND path_length = ?", first, method, len(strings.Split(rest, "/"))).
		Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("find dynamic webhooks %s %s: %w", method, path, err)
	}
	return out, nil
}

// WebhookMethods lists the methods registered for path, exactly or dynamically (candidates by
// webhookId and length), for CORS preflight answers.
func (s *Store) WebhookMethods(ctx context.Context, path string) ([]Webhook, error) {
	var out []Webhook
	q := s.DB.WithContext(ctx).Where("path = ?", path)
	if first, rest, ok := strings.Cut(path, "/"); ok {
		q = q.Or("webhook_id = ? AND path_length = ?", first, len(strings.Split(rest, "/")))
	}
	if err := q.Find(&out).Error; err != nil {
		return nil, fmt.Errorf("find webhooks of %s: %w", path, err)
	}
	return out, nil
}

// ActiveWorkflowIDs lists the ids of the active workflows u may see.
func (s *Store) ActiveWorkflowIDs(ctx context.Context, u *User) ([]string, error) {
	ids := []string{}
	err := visibleTo(s.DB.WithContext(ctx).Model(&Workflow{}), u).Where("active = ?", true).Order("id").Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("list active workflows: %w", err)
	}
	return ids, nil
}

// ActiveWorkflowVersions maps every active workflow's id to its version id, so a reader can tell
// which ones changed since it last looked.
func (s *Store) ActiveWorkflowVersions(ctx context.Context) (map[string]string, error) {
	var rows []Workflow
	if err := s.DB.WithContext(ctx).Select("id", "version_id").Where("active = ?", true).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list active workflows: %w", err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.VersionID
	}
	return out, nil
}

// ResumeWaitingExecution queues a waiting execution again with a new saved state (the resume
// webhook's request in place of the waiting node's input) and start data (how to answer that
// request), in one transaction; false means it was no longer waiting.
func (s *Store) ResumeWaitingExecution(ctx context.Context, id int64, data, startData JSON) (bool, error) {
	resumed := false
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Execution{}).Where("id = ? AND status = ?", id, workflow.StatusWaiting).
			Updates(map[string]any{"status": workflow.StatusQueued, "wait_till": nil})
		if res.Error != nil || res.RowsAffected != 1 {
			return res.Error
		}
		resumed = true
		return tx.Model(&ExecutionData{}).Where("execution_id = ?", id).
			Updates(map[string]any{"data": data, "start_data": startData}).Error
	})
	if err != nil {
		return false, fmt.Errorf("resume execution %d: %w", id, err)
	}
	return resumed, nil
}
