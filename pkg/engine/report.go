package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Report is a run result in the shape `worker execute` prints: n8n's IRun subset plus the order
// of node runs.
type Report struct {
	Finished           bool            `json:"finished"`
	Status             workflow.Status `json:"status"`
	Mode               workflow.Mode   `json:"mode"`
	NodeExecutionOrder []string        `json:"nodeExecutionOrder"`
	Data               ReportData      `json:"data"`
	// WaitTill is set when the run was put to wait (status "waiting").
	WaitTill *time.Time `json:"waitTill,omitempty"`
}

// ReportData holds the result data.
type ReportData struct {
	ResultData ReportResult `json:"resultData"`
}

// ReportResult is resultData: run data per node, the last node that ran and the run's error.
type ReportResult struct {
	RunData          workflow.RunData         `json:"runData"`
	LastNodeExecuted string                   `json:"lastNodeExecuted,omitempty"`
	Error            *workflow.ExecutionError `json:"error,omitempty"`
}

// Report returns the printable form of a result.
func (res *Result) Report() Report {
	rep := Report{Finished: res.Finished, Status: res.Status, Mode: res.Mode, NodeExecutionOrder: []string{}, WaitTill: res.WaitTill}
	if s := res.State; s != nil {
		if s.NodeExecutionOrder != nil {
			rep.NodeExecutionOrder = s.NodeExecutionOrder
		}
		rep.Data.ResultData = ReportResult{
			RunData:          s.ResultData.RunData,
			LastNodeExecuted: s.ResultData.LastNodeExecuted,
			Error:            s.ResultData.Error,
		}
	}
	if rep.Data.ResultData.RunData == nil {
		rep.Data.ResultData.RunData = workflow.RunData{}
	}
	return rep
}

// ErrBadInput is matched by errors of ExecuteDocument about its input (the document or items),
// as opposed to a run that failed.
var ErrBadInput = errors.New("bad input")

// ExecuteDocument parses a workflow document and runs it in the given mode, with input as the
// start node's items (nil: one empty item). It is the path of `worker execute`, shared with the
// engine's corpus tests. A document or input that cannot be read is an error matching
// ErrBadInput; a workflow that cannot start gives a failed report.
func (e *Engine) ExecuteDocument(ctx context.Context, doc []byte, mode workflow.Mode, input []workflow.Item) (Report, error) {
	wf, err := e.opts.Host.Workflows.Parse(doc)
	if err != nil {
		return Report{}, fmt.Errorf("%w: %w", ErrBadInput, err)
	}
	res, err := e.Run(ctx, Request{Workflow: wf, Mode: mode, Input: input})
	if err != nil {
		var se *StartError
		if !errors.As(err, &se) {
			return Report{}, err
		}
		return Report{
			Status: workflow.StatusError, Mode: mode, NodeExecutionOrder: []string{},
			Data: ReportData{ResultData: ReportResult{
				RunData: workflow.RunData{},
				Error:   &workflow.ExecutionError{Name: "WorkflowOperationError", Message: se.Error(), Node: se.Node},
			}},
		}, nil
	}
	return res.Report(), nil
}

// ParseItems reads start-node input: a JSON list of items ({"json": …, "binary": …}) or of
// plain objects, which become the items' json; a single object is one item.
func ParseItems(b []byte) ([]workflow.Item, error) {
	b = bytes.TrimSpace(b)
	var raws []json.RawMessage
	if len(b) > 0 && b[0] == '{' {
		raws = []json.RawMessage{b}
	} else if err := json.Unmarshal(b, &raws); err != nil {
		return nil, fmt.Errorf("%w: items: want a JSON list of items: %w", ErrBadInput, err)
	}
	items := make([]workflow.Item, 0, len(raws))
	for i, r := range raws {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(r, &probe); err != nil {
			return nil, fmt.Errorf("%w: item %d: want an object", ErrBadInput, i)
		}
		var it workflow.Item
		if _, ok := probe["json"]; ok {
			if err := json.Unmarshal(r, &it); err != nil {
				return nil, fmt.Errorf("%w: item %d: %w", ErrBadInput, i, err)
			}
		} else if err := json.Unmarshal(r, &it.JSON); err != nil {
			return nil, fmt.Errorf("%w: item %d: %w", ErrBadInput, i, err)
		}
		if it.JSON == nil {
			it.JSON = workflow.NewObject(0)
		}
		items = append(items, it)
	}
	return items, nil
}
