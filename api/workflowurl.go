package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Limits of importing a workflow from a URL (documented in README.md, "Limits").
const (
	// workflowURLTimeout bounds the whole fetch, from connecting to the last byte: 10 s.
	workflowURLTimeout = 10 * time.Second
	// workflowURLMaxBytes is the largest workflow file accepted: 16 MiB.
	workflowURLMaxBytes = 16 << 20
	// workflowURLMaxRedirects is how many redirects a fetch follows.
	workflowURLMaxRedirects = 5
)

// errCannotLoad is the one answer to every failure to get an HTTP answer from the address
// (refused, reset, timed out, not HTTP, TLS failure, unknown name): telling them apart would
// let any member probe which ports are open.
var errCannotLoad = &apiError{Status: fiber.StatusBadRequest, Message: "Could not load a workflow from that URL",
	Hint: fmt.Sprintf("Check the address: it must answer over HTTP(S) within %s", workflowURLTimeout)}

// redirectError is a redirect the client will not follow. It is named in the answer: the
// address answered over HTTP, so that says nothing about its ports.
type redirectError struct{ reason string }

func (e *redirectError) Error() string { return e.reason }

// newWorkflowURLClient is the client that fetches workflow files for any member: the egress
// policy's strict profile (no loopback or private addresses unless FLOWMILL_EGRESS_ALLOW names
// them), checked on every connection; redirects are followed only to http(s) addresses.
func newWorkflowURLClient(policy *egress.Policy) *http.Client {
	c := policy.Strict().Client(egress.Options{})
	c.Timeout = workflowURLTimeout
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return &redirectError{"it redirects to an address that is not http or https"}
		}
		if len(via) >= workflowURLMaxRedirects {
			return &redirectError{fmt.Sprintf("it redirects more than %d times", workflowURLMaxRedirects)}
		}
		return nil
	}
	return c
}

// getWorkflowFromURL fetches a workflow file for the editor's "Import from URL": the query url
// must be an http(s) address whose path ends in .json, and the file a JSON object with a nodes list and a
// connections object. The answer is the file as it is; nothing is saved.
func (s *server) getWorkflowFromURL(c fiber.Ctx) error {
	raw := c.Query("url")
	if raw == "" {
		return badRequest("The query parameter url is missing")
	}
	if !isWorkflowURL(raw) {
		return &apiError{Status: fiber.StatusBadRequest, Message: "Invalid URL",
			Hint: "The URL must start with http:// or https:// and end in .json"}
	}
	body, err := fetchWorkflowFile(c.Context(), s.workflowURLClient, raw)
	if err != nil {
		return err
	}
	if !json.Valid(body) {
		return badRequest("The URL does not point to a JSON file")
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &doc) != nil || !startsWith(doc["nodes"], '[') || !startsWith(doc["connections"], '{') {
		return badRequest(`The file is not a workflow: it needs "nodes" (a list) and "connections" (an object)`)
	}
	if err := checkWorkflowFileLimits(s.cfg.WorkflowLimits(), body, doc["nodes"]); err != nil {
		return err
	}
	return respond(c, json.RawMessage(body))
}

// isWorkflowURL accepts an http(s) address with a host whose path ends in .json (any case); a
// query or fragment ending in .json does not count.
func isWorkflowURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.HasSuffix(strings.ToLower(u.Path), ".json")
}

// fetchWorkflowFile GETs rawURL within the time and size limits; every failure is the caller's
// to fix (a wrong or refused address, an unreachable or too slow server, a too large file), so
// it is a 400.
func fetchWorkflowFile(ctx context.Context, client *http.Client, rawURL string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &apiError{Status: fiber.StatusBadRequest, Message: "Invalid URL", cause: err}
	}
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return nil, fetchError(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, badRequest("Could not load a workflow from that URL: it answered " + res.Status)
	}
	if res.ContentLength > workflowURLMaxBytes {
		return nil, fileTooLarge()
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, workflowURLMaxBytes+1))
	if err != nil {
		return nil, fetchError(err)
	}
	if len(body) > workflowURLMaxBytes {
		return nil, fileTooLarge()
	}
	return bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")), nil // files saved on Windows may start with a BOM
}

// fetchError words a failed fetch: a policy refusal or a redirect the client would not follow
// says so; everything else is errCannotLoad.
func fetchError(err error) error {
	var rd *redirectError
	if re, ok := egress.Refusal(err); ok {
		return &apiError{Status: fiber.StatusBadRequest, Message: "Could not load a workflow from that URL: " + re.Error(), cause: err}
	} else if errors.As(err, &rd) {
		return &apiError{Status: fiber.StatusBadRequest, Message: "Could not load a workflow from that URL: " + rd.reason, cause: err}
	}
	return errCannotLoad
}

func fileTooLarge() error {
	return badRequest(fmt.Sprintf("The workflow file is larger than %d MiB", workflowURLMaxBytes>>20))
}

// startsWith reports whether a raw JSON value is of the kind its first byte c opens.
func startsWith(raw json.RawMessage, c byte) bool {
	return len(raw) > 0 && raw[0] == c
}

// checkWorkflowFileLimits applies the workflow limits to a file the editor is to import: its
// size and its number of nodes; the rest is checked when it is saved.
func checkWorkflowFileLimits(l workflow.Limits, body, nodes json.RawMessage) error {
	if err := l.CheckSize(body); err != nil {
		return err
	}
	var list []json.RawMessage
	if err := json.Unmarshal(nodes, &list); err != nil {
		return badRequest(`The file is not a workflow: "nodes" must be a list`)
	}
	return l.CheckNodes(&workflow.Workflow{Nodes: make([]workflow.Node, len(list))})
}
