package executeworkflow

import (
	"context"
	"errors"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// searchWorkflows fills the workflow picker: the workflows the user may read whose name holds
// the search text, each with a link that opens it in the editor.
func searchWorkflows(ctx context.Context, req nodes.ListSearchRequest) (*nodes.ListSearchResult, error) {
	if req.Workflows == nil {
		return nil, errors.New("no workflow store")
	}
	list, err := req.Workflows(ctx, req.Filter)
	if err != nil {
		return nil, err
	}
	out := &nodes.ListSearchResult{Results: make([]nodes.ListSearchItem, 0, len(list))}
	for _, w := range list {
		item := nodes.ListSearchItem{Name: w.Name, Value: w.ID}
		if req.EditorURL != "" {
			item.URL = req.EditorURL + "workflow/" + w.ID
		}
		out.Results = append(out.Results, item)
	}
	return out, nil
}
