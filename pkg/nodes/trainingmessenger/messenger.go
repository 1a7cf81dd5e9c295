// Package trainingmessenger is the Customer Messenger (n8n training) node: it pretends to send a
// message to a customer and reports what it would have sent. Nothing leaves the instance.
package trainingmessenger

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	out := []workflow.Item{}
	for i := range ex.InputData(0) {
		id, err := ex.ParamString("customerId", i)
		if err != nil {
			return nil, err
		}
		msg, err := ex.ParamString("message", i)
		if err != nil {
			return nil, err
		}
		// Two spaces after the colon, as n8n writes it.
		out = append(out, workflow.Item{JSON: workflow.ObjectOf("output", "Sent message to customer "+id+":  "+msg)})
	}
	return [][]workflow.Item{out}, nil
}
