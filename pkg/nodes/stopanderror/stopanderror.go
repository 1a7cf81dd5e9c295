// Package stopanderror is the Stop and Error node (version 1): it fails the workflow with a
// message or an error object, which Error Trigger workflows then receive.
package stopanderror

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	errorType, err := ex.ParamString("errorType", 0)
	if err != nil {
		return nil, err
	}
	if errorType != "errorObject" {
		message, err := ex.ParamString("errorMessage", 0)
		if err != nil {
			return nil, err
		}
		return nil, &nodes.Error{Message: message, ItemIndex: -1}
	}
	raw, err := ex.Param("errorObject", 0)
	if err != nil {
		return nil, err
	}
	var obj *workflow.Object
	switch v := raw.(type) {
	case string:
		parsed, err := workflow.DecodeJSONValue([]byte(v))
		if err != nil {
			return nil, &nodes.Error{Message: fmt.Sprintf("Error Object is not valid JSON: %v", err), ItemIndex: -1, Parameter: "errorObject"}
		}
		obj, _ = workflow.AsObject(parsed)
	default:
		obj, _ = workflow.AsObject(v)
	}
	if obj == nil {
		return nil, &nodes.Error{Message: "Error Object must be a JSON object", ItemIndex: -1, Parameter: "errorObject"}
	}
	wf := ex.ExprContext(0).Workflow
	message := fmt.Sprintf("Workflow ID %s %q has failed", wf.ID, wf.Name)
	if m, ok := obj.Lookup("message"); ok && m != nil {
		message = jsv.ToString(m)
	}
	e := &nodes.Error{Message: message, ItemIndex: -1}
	if d, ok := obj.Lookup("description"); ok && d != nil {
		e.Description = jsv.ToString(d)
	}
	return nil, e
}
