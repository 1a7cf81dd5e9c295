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

var errRedirectScheme = errors.New("it redirects to an address that is not http or https")

// workflowURLClient fetches workflow files. Redirects are followed only to http(s) addresses.
var workflowURLClient = &http.Client{
	Timeout: workflowURLTimeout,
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return errRedirectScheme
		}
		if len(via) >= workflowURLMaxRedirects {
			return fmt.Errorf("it redirects more than %d times", workflowURLMaxRedirects)
		}
		return nil
	},
}

// getWorkflowFromURL fetches a workflow file for the editor's "Import from URL": the query url
// must be an http(s) address ending in .json, and the file a JSON object with a nodes list and a
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
	body, err := fetchWorkflowFile(c.Context(), raw)
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
	return respond(c, json.RawMessage(body))
}

// isWorkflowURL accepts what the editor does, an http(s) address ending in .json (any case), and
// also requires a host.
func isWorkflowURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.HasSuffix(strings.ToLower(raw), ".json")
}

// fetchWorkflowFile GETs rawURL within the time and size limits; every failure is the caller's
// to fix (a wrong address, an unreachable or too slow server, a too large file), so it is a 400.
func fetchWorkflowFile(ctx context.Context, rawURL string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &apiError{Status: fiber.StatusBadRequest, Message: "Invalid URL", cause: err}
	}
	req.Header.Set("Accept", "application/json")
	res, err := workflowURLClient.Do(req)
	if err != nil {
		return nil, fetchError(err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, badRequest("Could not fetch the workflow: the URL answered " + res.Status)
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

func fetchError(err error) error {
	var msg string
	switch {
	case errors.Is(err, errRedirectScheme):
		msg = "Could not fetch the workflow: " + errRedirectScheme.Error()
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		msg = fmt.Sprintf("Could not fetch the workflow: the URL did not answer within %s", workflowURLTimeout)
	default:
		msg = "Could not fetch the workflow: " + err.Error()
	}
	return &apiError{Status: fiber.StatusBadRequest, Message: msg, cause: err}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

func fileTooLarge() error {
	return badRequest(fmt.Sprintf("The workflow file is larger than %d MiB", workflowURLMaxBytes>>20))
}

// startsWith reports whether a raw JSON value is of the kind its first byte c opens.
func startsWith(raw json.RawMessage, c byte) bool {
	return len(raw) > 0 && raw[0] == c
}
