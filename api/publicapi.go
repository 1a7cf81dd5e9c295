package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	"github.com/flowmill/flowmill/pkg/store"
)

// publicAPIDoc is the OpenAPI 3 document of /api/v1; every call is validated against it.
//
//go:embed openapi/v1.yml
var publicAPIDoc []byte

// apiKeyHeader carries the public API key; n8nAPIKeyHeader, n8n's name for it, works as well so
// that n8n's API clients work unchanged.
const (
	apiKeyHeader    = "X-FLOWMILL-API-KEY"
	n8nAPIKeyHeader = "X-N8N-API-KEY"
)

// localsPublicAPI marks a request to the public API, whose errors are {"message"} only.
const localsPublicAPI = "publicApi"

type openAPISpec struct {
	doc    *openapi3.T
	router routers.Router
}

// loadPublicAPISpec parses and checks the embedded document once.
var loadPublicAPISpec = sync.OnceValues(func() (*openAPISpec, error) {
	doc, err := openapi3.NewLoader().LoadFromData(publicAPIDoc)
	if err != nil {
		return nil, fmt.Errorf("public API document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("public API document: %w", err)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("public API routes: %w", err)
	}
	return &openAPISpec{doc: doc, router: router}, nil
})

// publicAPIGuard admits public API calls while the public API is enabled, with a known key and a
// request that matches the OpenAPI document; the key's user is then the caller. The key is checked
// first, so that nothing about the API answers without one. An error the operation does not
// declare in the document is answered as a 400 with its message, so that clients generated from
// the document meet only the statuses it lists.
func (s *server) publicAPIGuard(c fiber.Ctx) error {
	u, err := s.publicAPIKeyUser(c)
	if err != nil {
		return err
	}
	route, err := s.validatePublicAPIRequest(c)
	if err != nil {
		return err
	}
	c.Locals(localsUser, u)
	return declaredError(route, c.Next())
}

// publicAPIKeyUser marks the request as a public API call and finds the user of its key.
func (s *server) publicAPIKeyUser(c fiber.Ctx) (*store.User, error) {
	c.Locals(localsPublicAPI, true)
	if s.cfg.PublicAPIDisabled {
		return nil, notFound("Not found")
	}
	key := c.Get(apiKeyHeader)
	if key == "" {
		key = c.Get(n8nAPIKeyHeader)
	}
	if key == "" {
		return nil, unauthorized("'" + apiKeyHeader + "' or '" + n8nAPIKeyHeader + "' header required")
	}
	u, err := s.in.Store.UserByAPIKey(c.Context(), auth.HashToken(key))
	if errors.Is(err, store.ErrNotFound) {
		return nil, unauthorized("Unauthorized")
	}
	return u, err
}

// publicAPIFallback answers a public API path no route took: after the key check, 405 when the
// document has the path with other methods, else 404.
func (s *server) publicAPIFallback(c fiber.Ctx) error {
	if _, err := s.publicAPIKeyUser(c); err != nil {
		return err
	}
	_, _, _, err := s.findPublicAPIRoute(c)
	return err
}

// findPublicAPIRoute finds the document's operation of the request.
func (s *server) findPublicAPIRoute(c fiber.Ctx) (*http.Request, *routers.Route, map[string]string, error) {
	spec, err := loadPublicAPISpec()
	if err != nil {
		return nil, nil, nil, err
	}
	u := &url.URL{Path: "/" + strings.TrimPrefix(c.Path(), s.cfg.BasePath), RawQuery: string(c.Request().URI().QueryString())}
	req, err := http.NewRequestWithContext(c.Context(), c.Method(), u.String(), bytes.NewReader(c.Body()))
	if err != nil {
		return nil, nil, nil, badRequest("Bad request: " + err.Error())
	}
	for k, v := range c.Request().Header.All() {
		req.Header.Add(string(k), string(v))
	}
	route, params, err := spec.router.FindRoute(req)
	if err == nil {
		return req, route, params, nil
	}
	// The router tells a wrong method only for paths without parameters: try the others.
	if allowed := allowedMethods(spec.router, req); len(allowed) > 0 {
		c.Set(fiber.HeaderAllow, strings.Join(allowed, ", "))
		return nil, nil, nil, &apiError{Status: fiber.StatusMethodNotAllowed,
			Message: "Method " + c.Method() + " is not allowed on " + c.Path()}
	}
	return nil, nil, nil, notFound("Not found")
}

// allowedMethods lists the methods the document has for the path of req.
func allowedMethods(router routers.Router, req *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		r := req.Clone(req.Context())
		r.Method = m
		if _, _, err := router.FindRoute(r); err == nil {
			out = append(out, m)
		}
	}
	return out
}

// validatePublicAPIRequest checks the request's path, query and body against the document: a
// body that is not JSON is 415, any other mismatch 400.
func (s *server) validatePublicAPIRequest(c fiber.Ctx) (*routers.Route, error) {
	req, route, params, err := s.findPublicAPIRoute(c)
	if err != nil {
		return nil, err
	}
	if route.Operation.RequestBody != nil && (len(c.Body()) > 0 || route.Operation.RequestBody.Value.Required) {
		if mt, _, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType)); mt != fiber.MIMEApplicationJSON {
			return nil, &apiError{Status: fiber.StatusUnsupportedMediaType,
				Message: "Unsupported Media Type: the body must be application/json"}
		}
	}
	err = openapi3filter.ValidateRequest(c.Context(), &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	})
	if err != nil {
		return nil, badRequest(validationMessage(err))
	}
	return route, nil
}

// declaredError passes err on when the operation declares its status (or it is a server error),
// else makes it a 400 with the same message.
func declaredError(route *routers.Route, err error) error {
	if err == nil {
		return nil
	}
	status := statusOf(err)
	if status >= 500 || route.Operation.Responses.Status(status) != nil {
		return err
	}
	return &apiError{Status: fiber.StatusBadRequest, Message: toErrorBody(err).Message, cause: err}
}

// validationMessage words a validation failure as n8n's validator does: where, then what.
func validationMessage(err error) string {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return err.Error()
	}
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		where := "request/body"
		if re.Parameter != nil {
			where = "request/" + re.Parameter.In + "/" + re.Parameter.Name
		}
		if p := se.JSONPointer(); len(p) > 0 {
			where += "/" + strings.Join(p, "/")
		}
		return where + " " + se.Reason
	}
	if re.Parameter != nil {
		reason := re.Reason
		if re.Err != nil {
			reason = re.Err.Error()
		}
		return "request/" + re.Parameter.In + "/" + re.Parameter.Name + " " + reason
	}
	if re.RequestBody != nil {
		if re.Err != nil {
			return "request/body " + re.Err.Error()
		}
		return "request/body " + re.Reason
	}
	return re.Error()
}

// apiUser is the key's user of a public API call.
func apiUser(c fiber.Ctx) *store.User { return sessionUser(c) }

// pageCursor is the opaque position of the next page: an offset, or the last id for executions.
type pageCursor struct {
	Offset int   `json:"offset,omitempty"`
	LastID int64 `json:"lastId,omitempty"`
	Limit  int   `json:"limit"`
}

// defaultPageSize is the page size when limit is not given.
const defaultPageSize = 100

// readPage returns the page a list call asks for: limit and cursor (whose own limit wins, so
// the pages of one listing stay the same size).
func readPage(c fiber.Ctx) (pageCursor, error) {
	p := pageCursor{Limit: fiber.Query[int](c, "limit", defaultPageSize)}
	raw := c.Query("cursor")
	if raw == "" {
		return p, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || json.Unmarshal(b, &p) != nil || p.Limit < 1 || p.Limit > 250 || p.Offset < 0 || p.LastID < 0 {
		return p, badRequest("cursor is not one this API gave out")
	}
	return p, nil
}

// nextCursor encodes p, or answers null when there is no next page.
func nextCursor(p *pageCursor) *string {
	if p == nil {
		return nil
	}
	b, _ := json.Marshal(p)
	s := base64.RawURLEncoding.EncodeToString(b)
	return &s
}

// pageOf cuts the page p out of n items: the range to answer and the next cursor.
func pageOf(p pageCursor, n int) (from, to int, next *string) {
	from, to = min(p.Offset, n), min(p.Offset+p.Limit, n)
	if to < n {
		next = nextCursor(&pageCursor{Offset: to, Limit: p.Limit})
	}
	return from, to, next
}

type listAnswer struct {
	Data       any     `json:"data"`
	NextCursor *string `json:"nextCursor"`
}

func notImplemented(msg string) error {
	return &apiError{Status: fiber.StatusNotImplemented, Message: msg}
}
