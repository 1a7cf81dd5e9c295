package store

import (
	"context"
	"encoding/json"
	"fmt"

	"gorm.io/gorm"
)

// WorkflowDocument returns the stored workflow id as an n8n workflow document (id, name, active,
// nodes, connections, settings, staticData), for running it.
func (s *Store) WorkflowDocument(ctx context.Context, id string) ([]byte, error) {
	return workflowDocument(s.DB.WithContext(ctx), id)
}

// WorkflowDocumentFor returns the document of workflow id as WorkflowDocument does, but only
// when u may see it (see ListWorkflows); otherwise ErrNotFound, as for a workflow that does not
// exist.
func (s *Store) WorkflowDocumentFor(ctx context.Context, u *User, id string) ([]byte, error) {
	return workflowDocument(visibleTo(s.DB.WithContext(ctx), u), id)
}

func workflowDocument(q *gorm.DB, id string) ([]byte, error) {
	var w Workflow
	if err := q.Where("id = ?", id).Take(&w).Error; err != nil {
		return nil, notFound(err, "workflow "+id)
	}
	return w.Document()
}

// Document returns w as an n8n workflow document for workflow.Parse and for running it: id,
// name, active, nodes and connections (null when empty), and settings and staticData when set.
// Pin data is left out, as runs never use it; see EditorDocument.
func (w *Workflow) Document() ([]byte, error) {
	return w.document(false)
}

// EditorDocument is Document with the pin data as well, the whole document the editor saves.
func (w *Workflow) EditorDocument() ([]byte, error) {
	return w.document(true)
}

func (w *Workflow) document(pinData bool) ([]byte, error) {
	doc := map[string]any{"id": w.ID, "name": w.Name, "active": w.Active,
		"nodes": w.Nodes, "connections": w.Connections}
	if len(w.Settings) > 0 {
		doc["settings"] = w.Settings
	}
	if len(w.StaticData) > 0 {
		doc["staticData"] = w.StaticData
	}
	if pinData && len(w.PinData) > 0 {
		doc["pinData"] = w.PinData
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encode workflow %s: %w", w.ID, err)
	}
	return b, nil
}

// SetWorkflowStaticData stores the static data a run changed.
func (s *Store) SetWorkflowStaticData(ctx context.Context, id string, data JSON) error {
	return s.DB.WithContext(ctx).Model(&Workflow{}).Where("id = ?", id).Update("static_data", data).Error
}
