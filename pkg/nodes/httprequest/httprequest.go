// Package httprequest is the HTTP Request node, versions 1 and 2 (n8n's HttpRequestV1/V2): one
// request per input item with the method, URL, query, headers and body given as key/value
// lists or JSON, form, multipart, raw or binary bodies, credential-based authentication, and the
// response returned as JSON, string or file. Version 2 differs only in how authentication is
// chosen (generic or predefined credential types).
package httprequest

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/httpauth"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v1.json
var v1JSON []byte

//go:embed v2.json
var v2JSON []byte

// TypeV1 returns version 1 for registration.
func TypeV1() nodes.Type {
	return nodes.Define(v1JSON, nodes.KindAction, execute)
}

// TypeV2 returns version 2 for registration.
func TypeV2() nodes.Type {
	return nodes.Define(v2JSON, nodes.KindAction, execute)
}

// defaultTimeout applies when the timeout option is not set, as in n8n.
const defaultTimeout = time.Hour

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	responseFormat, err := ex.ParamString("responseFormat", 0)
	if err != nil {
		return nil, err
	}
	auth, err := loadAuth(ctx, ex)
	if err != nil {
		return nil, err
	}
	out := make([]workflow.Item, 0, len(items))
	for i := range items {
		if err := batchPause(ctx, ex, i); err != nil {
			return nil, err
		}
		res, err := doItem(ctx, ex, auth, responseFormat, i)
		if err == nil {
			var produced []workflow.Item
			produced, err = toItems(ex, res, responseFormat, items[i], i)
			out = append(out, produced...)
		}
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !ex.ContinueOnFail() {
			return nil, asNodeError(err, i)
		}
		out = append(out, errorItem(err, i))
	}
	return [][]workflow.Item{out}, nil
}

// batchPause waits batchInterval ms before every batchSize-th item (batch size 0 counts as 1).
func batchPause(ctx context.Context, ex *nodes.Execution, i int) error {
	if i == 0 {
		return nil
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return err
	}
	size, hasSize := options["batchSize"].(float64)
	interval, _ := options["batchInterval"].(float64)
	if !hasSize || size < 0 || interval <= 0 {
		return nil
	}
	if size == 0 {
		size = 1
	}
	if i%int(size) != 0 {
		return nil
	}
	return nodes.SleepContext(ctx, time.Duration(interval*float64(time.Millisecond)))
}

// doItem builds and sends the request of one item.
func doItem(ctx context.Context, ex *nodes.Execution, auth *httpauth.Auth, responseFormat string, i int) (*response, error) {
	req, err := buildRequest(ex, responseFormat, i)
	if err != nil {
		return nil, err
	}
	return sendItem(ctx, ex, auth, req, i)
}

// sendItem sends one item's request with the credential's parameters and the instance's
// idempotency key, through the egress policy.
func sendItem(ctx context.Context, ex *nodes.Execution, auth *httpauth.Auth, req *request, i int) (*response, error) {
	if err := applyAuth(auth, req); err != nil {
		return nil, err
	}
	// A key the node's own headers set wins.
	if name := ex.Host().IdempotencyHeader; name != "" && !req.headers.hasFold(name) {
		if key := ex.IdempotencyKey(i); key != "" {
			if req.page > 0 {
				// Each page is a request of its own.
				sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00page\x00%d", key, req.page))
				key = hex.EncodeToString(sum[:])
			}
			req.headers.set(name, key)
		}
	}
	return send(ctx, ex.HTTPClient(), req, auth)
}

// asNodeError turns a request failure into the node error recorded on the run.
func asNodeError(err error, i int) error {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		if ne.ItemIndex < 0 {
			ne.ItemIndex = i
		}
		return ne
	}
	var he *statusError
	if errors.As(err, &he) {
		return &nodes.Error{Name: "NodeApiError", Message: fmt.Sprintf("Request failed with status code %d", he.status),
			Description: he.description(), HTTPCode: fmt.Sprint(he.status), ItemIndex: i, Cause: err}
	}
	return &nodes.Error{Name: "NodeApiError", Message: err.Error(), ItemIndex: i, Cause: err}
}

// errorItem is the output for a failed item with continueOnFail: the error as n8n's request
// helper describes it.
func errorItem(err error, i int) workflow.Item {
	// Members in the order the request library's errors have them.
	var e *workflow.Object
	var he *statusError
	var ne *nodes.Error
	switch {
	case errors.As(err, &he):
		e = workflow.ObjectOf("name", "StatusCodeError", "statusCode", float64(he.status), "message", he.Error(), "error", he.body)
	case errors.As(err, &ne):
		e = workflow.ObjectOf("name", "NodeOperationError", "message", ne.Message)
	default:
		e = workflow.ObjectOf("name", "RequestError", "message", err.Error())
	}
	return workflow.Item{JSON: workflow.ObjectOf("error", e), PairedItem: &workflow.PairedItems{{Item: i}}}
}
