// Package executeworkflow is the Execute Workflow node (version 1): it runs another workflow,
// loaded from the workflow store by id, from a local file, from a parameter or from a URL, with
// this node's input items as the sub-workflow's start node input, and outputs what the
// sub-workflow's last node output. The sub-workflow runs synchronously in mode "integrated".
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
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	out, err := run(ctx, ex)
	if err != nil {
		if ex.ContinueOnFail() {
			return [][]workflow.Item{{{JSON: workflow.ObjectOf("error", err.Error())}}}, nil
		}
		return nil, err
	}
	return out, nil
}

func run(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	wf, err := load(ctx, ex)
	if err != nil {
		return nil, err
	}
	return ex.ExecuteWorkflow(ctx, wf, ex.InputData(0))
}

func load(ctx context.Context, ex *nodes.Execution) (*workflow.Workflow, error) {
	source, err := ex.ParamString("source", 0)
	if err != nil {
		return nil, err
	}
	var doc []byte
	switch source {
	case "database":
		id, err := ex.ParamString("workflowId", 0)
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
		path, err := ex.ParamString("workflowPath", 0)
		if err != nil {
			return nil, err
		}
		if doc, err = readFile(ex, path); err != nil {
			return nil, err
		}
	case "parameter":
		v, err := ex.Param("workflowJson", 0)
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
		url, err := ex.ParamString("workflowUrl", 0)
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
