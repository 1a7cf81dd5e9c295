// Package executeworkflow is the Execute Workflow node (versions 1, 1.1 and 1.2): it runs another
// workflow, loaded from the workflow store by id, from a local file, from a parameter or from a
// URL, with this node's input items as the input of the sub-workflow's Execute Workflow Trigger
// (or start node), and outputs what the sub-workflow's last node output. The sub-workflow runs
// synchronously in mode "integrated", once with all items or once per item (mode).
package executeworkflow

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// maxWorkflowSize bounds a workflow read from a file or URL.
const maxWorkflowSize = 16 << 20

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.ListSearch = map[string]nodes.ListSearchFunc{"searchWorkflows": searchWorkflows}
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items, err := inputItems(ex)
	if err != nil {
		return nil, err
	}
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	if mode == "each" {
		return runEach(ctx, ex, items)
	}
	out, err := runOnce(ctx, ex, items)
	if err != nil {
		if ex.ContinueOnFail() {
			return [][]workflow.Item{{{JSON: workflow.ObjectOf("error", err.Error())}}}, nil
		}
		return nil, err
	}
	return out, nil
}

// runOnce hands all items to one run of the sub-workflow. Without waitForSubWorkflow n8n
// returns the input at once; here the run still completes first (runs are synchronous) and
// its output is dropped.
func runOnce(ctx context.Context, ex *nodes.Execution, items []workflow.Item) ([][]workflow.Item, error) {
	wait, err := waitFor(ex, 0)
	if err != nil {
		return nil, err
	}
	wf, err := load(ctx, ex, 0)
	if err != nil {
		return nil, err
	}
	out, err := ex.ExecuteWorkflow(ctx, wf, items)
	if err != nil {
		return nil, err
	}
	if !wait {
		return [][]workflow.Item{items}, nil
	}
	return out, nil
}

// runEach runs the sub-workflow once per item; every output item is paired with the item
// that started its run.
func runEach(ctx context.Context, ex *nodes.Execution, items []workflow.Item) ([][]workflow.Item, error) {
	var outputs [][]workflow.Item
	add := func(index int, it workflow.Item) {
		for len(outputs) <= index {
			outputs = append(outputs, []workflow.Item{})
		}
		outputs[index] = append(outputs[index], it)
	}
	for i, item := range items {
		out, wait, err := runItem(ctx, ex, item, i)
		if err != nil {
			if ex.ContinueOnFail() {
				add(0, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}})
				continue
			}
			return nil, &nodes.Error{Message: fmt.Sprintf("Error executing workflow with item at index %d", i),
				Description: err.Error(), ItemIndex: i, Cause: err}
		}
		if !wait {
			add(0, item)
			continue
		}
		for o, list := range out {
			for _, it := range list {
				it.PairedItem = &workflow.PairedItems{{Item: i}}
				add(o, it)
			}
		}
	}
	if outputs == nil {
		outputs = [][]workflow.Item{{}}
	}
	return outputs, nil
}

func runItem(ctx context.Context, ex *nodes.Execution, item workflow.Item, i int) ([][]workflow.Item, bool, error) {
	wait, err := waitFor(ex, i)
	if err != nil {
		return nil, false, err
	}
	wf, err := load(ctx, ex, i)
	if err != nil {
		return nil, false, err
	}
	out, err := ex.ExecuteWorkflow(ctx, wf, []workflow.Item{item})
	return out, wait, err
}

func waitFor(ex *nodes.Execution, i int) (bool, error) {
	v, err := ex.ParamOr("options.waitForSubWorkflow", i, true)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	return !ok || b, nil
}

func load(ctx context.Context, ex *nodes.Execution, i int) (*workflow.Workflow, error) {
	source, err := ex.ParamString("source", i)
	if err != nil {
		return nil, err
	}
	var doc []byte
	switch source {
	case "database":
		id, err := workflowID(ex, i)
		if err != nil {
			return nil, err
		}
		wf, err := ex.LoadWorkflow(ctx, id)
		if err != nil {
			return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Parameter: "workflowId", Cause: err}
		}
		// A workflow stored before the node limit was lowered is still held to it.
		if err := ex.Host().Workflows.CheckNodes(wf); err != nil {
			return nil, &nodes.Error{Message: "The workflow to execute is not valid: " + err.Error(), ItemIndex: -1, Cause: err}
		}
		return wf, nil
	case "localFile":
		path, err := ex.ParamString("workflowPath", i)
		if err != nil {
			return nil, err
		}
		if doc, err = readFile(ex, path); err != nil {
			return nil, err
		}
	case "parameter":
		v, err := ex.Param("workflowJson", i)
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case string:
			doc = []byte(x)
		default:
			// An expression may give the workflow as an object.
			if doc, err = json.Marshal(x); err != nil {
				return nil, nodes.Errorf(-1, "Workflow JSON: %v", err)
			}
		}
	case "url":
		url, err := ex.ParamString("workflowUrl", i)
		if err != nil {
			return nil, err
		}
		if doc, err = fetch(ctx, ex.HTTPClient(), url); err != nil {
			return nil, err
		}
	default:
		return nil, nodes.Errorf(-1, "The source '%s' is not known", source)
	}
	wf, err := ex.Host().Workflows.Parse(doc)
	if err != nil {
		return nil, &nodes.Error{Message: "The workflow to execute is not valid: " + err.Error(), ItemIndex: -1, Cause: err}
	}
	return wf, nil
}

// readFile reads the workflow file at path, through the instance's file fence.
func readFile(ex *nodes.Execution, path string) ([]byte, error) {
	f, err := ex.OpenFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nodes.Errorf(-1, "The file \"%s\" could not be found.", path)
	}
	if err != nil {
		return nil, nodes.Errorf(-1, "%v", err)
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxWorkflowSize))
}

// fetch loads a workflow from url with the instance's client, which applies the egress policy.
func fetch(ctx context.Context, client *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nodes.Errorf(-1, "Workflow URL: %v", err)
	}
	req.Header.Set("Accept", "application/json,text/*;q=0.99")
	resp, err := client.Do(req)
	if re, refused := egress.Refusal(err); refused {
		return nil, &nodes.Error{Message: re.Error(), ItemIndex: -1, Cause: err}
	}
	if err != nil {
		return nil, fmt.Errorf("load workflow from %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxWorkflowSize))
	if err != nil {
		return nil, fmt.Errorf("load workflow from %s: %w", url, err)
	}
	if resp.StatusCode >= 300 {
		return nil, nodes.Errorf(-1, "%d - %s", resp.StatusCode, string(body))
	}
	return body, nil
}

// workflowID reads workflowId: a string in version 1, a resource locator ({__rl, mode, value})
// from version 1.1.
func workflowID(ex *nodes.Execution, i int) (string, error) {
	v, err := ex.Param("workflowId", i)
	if err != nil {
		return "", err
	}
	if rl, ok := v.(map[string]any); ok {
		v = rl["value"]
	}
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case float64:
		return fmt.Sprint(x), nil
	}
	return fmt.Sprint(v), nil
}

// inputItems are the items handed to the sub-workflow: the input as it is, or from version 1.2
// with a workflowInputs schema, per item the mapped values without the fields marked removed.
func inputItems(ex *nodes.Execution) ([]workflow.Item, error) {
	items := ex.InputData(0)
	if ex.TypeVersion() < 1.2 {
		return items, nil
	}
	schema, _ := workflow.LookupPath(ex.Node().Parameters, "workflowInputs.schema")
	fields, _ := schema.([]any)
	if len(fields) == 0 {
		return items, nil
	}
	out := make([]workflow.Item, len(items))
	for i := range items {
		v, err := ex.ParamOr("workflowInputs.value", i, nil)
		if err != nil {
			return nil, err
		}
		values, _ := v.(map[string]any)
		// Parameters do not keep key order; the schema lists the fields in the editor's order.
		obj := workflow.NewObject(len(fields))
		for _, f := range fields {
			m, _ := f.(map[string]any)
			name, _ := m["id"].(string)
			if workflow.Truthy(m["removed"]) {
				continue
			}
			if val, ok := values[name]; ok {
				obj.Set(name, workflow.FromMaps(val))
			}
		}
		out[i] = workflow.Item{JSON: obj, PairedItem: &workflow.PairedItems{{Item: i}}}
	}
	return out, nil
}
