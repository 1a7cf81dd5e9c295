package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
)

// nodeIconMaxAge is how long browsers may keep node icons (seconds); icons change only with a
// new build, which changes their ETag.
const nodeIconMaxAge = 7 * 24 * 60 * 60

// nodeTypesRequest is the body of POST /rest/node-types.
type nodeTypesRequest struct {
	NodeInfos []nodeInfo `json:"nodeInfos"`
}

type nodeInfo struct {
	Name    string  `json:"name"`
	Version float64 `json:"version"`
}

// getNodeTypes lists node type descriptions, one per registered version (onlyLatest=true: the
// highest version of each type), without properties unless includeProperties=true.
func (s *server) getNodeTypes(c fiber.Ctx) error {
	types := s.nodeTypes.Types()
	if c.Query("onlyLatest") == "true" {
		types = s.nodeTypes.Latest()
	}
	withProps := c.Query("includeProperties") == "true"
	out := make([]json.RawMessage, 0, len(types))
	for _, t := range types {
		d, err := s.described(t.Description, withProps)
		if err != nil {
			return err
		}
		out = append(out, d)
	}
	return respond(c, out)
}

// postNodeTypes answers the full descriptions of the requested types and versions; unknown ones
// are left out.
func (s *server) postNodeTypes(c fiber.Ctx) error {
	var req nodeTypesRequest
	if len(c.Body()) > 0 {
		if err := c.Bind().JSON(&req); err != nil {
			return badRequest("The body must be JSON: " + err.Error())
		}
	}
	out := make([]json.RawMessage, 0, len(req.NodeInfos))
	for _, info := range req.NodeInfos {
		t, ok := s.nodeTypes.Get(info.Name, info.Version)
		if !ok {
			continue
		}
		d, err := s.described(t.Description, true)
		if err != nil {
			return err
		}
		out = append(out, d)
	}
	return respond(c, out)
}

// describedKey names one written form of a registered description.
type describedKey struct {
	d     *nodes.Description
	props bool
}

// described is describe, written once per description and form: registered descriptions do
// not change, and the editor asks for them on every open.
func (s *server) described(d *nodes.Description, withProperties bool) (json.RawMessage, error) {
	key := describedKey{d, withProperties}
	if b, ok := s.descriptions.Load(key); ok {
		return b.(json.RawMessage), nil
	}
	b, err := describe(d, withProperties, s.cfg.BasePath)
	if err != nil {
		return nil, err
	}
	s.descriptions.Store(key, b)
	return b, nil
}

// describe writes a description, dropping its properties unless asked for. Descriptions are
// written as their JSON files hold them, so fields the editor knows and Go does not survive; a
// description without a documentationUrl gets the address of its built-in documentation page
// under basePath.
func describe(d *nodes.Description, withProperties bool, basePath string) (json.RawMessage, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("node type %s: %w", d.Name, err)
	}
	if withProperties && d.DocumentationURL != "" {
		return b, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("node type %s: %w", d.Name, err)
	}
	if !withProperties {
		delete(fields, "properties")
	}
	if d.DocumentationURL == "" {
		docs, err := json.Marshal(basePath + nodes.DocumentationPath(d.Name))
		if err != nil {
			return nil, err
		}
		fields["documentationUrl"] = docs
	}
	return json.Marshal(fields)
}

// typeParam is the node type a route names as :type, or as :scope/:type for the types of scoped
// packages (@scope/package.node).
func typeParam(c fiber.Ctx) string {
	if scope := c.Params("scope"); scope != "" {
		return scope + "/" + c.Params("type")
	}
	return c.Params("type")
}

// getNodeIcon serves the file behind a node type's "file:" icon, as n8n does for
// /rest/node-icon/<type> and /rest/node-icon/<@scope>/<type>.
func (s *server) getNodeIcon(c fiber.Ctx) error {
	t := s.latestType(typeParam(c))
	if t == nil {
		return notFound("The nodeType is not known.")
	}
	if !strings.HasPrefix(t.Description.Icon, "file:") || len(t.IconSVG) == 0 {
		return notFound("Node does not have a file icon.")
	}
	sum := sha256.Sum256(t.IconSVG)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	c.Set(fiber.HeaderCacheControl, fmt.Sprintf("private, max-age=%d", nodeIconMaxAge))
	c.Set(fiber.HeaderETag, etag)
	if c.Get(fiber.HeaderIfNoneMatch) == etag {
		return c.SendStatus(http.StatusNotModified)
	}
	c.Set(fiber.HeaderContentType, "image/svg+xml")
	return c.Send(t.IconSVG)
}

// latestType finds a node type by name, in its highest version.
func (s *server) latestType(name string) *nodes.Type {
	for _, t := range s.nodeTypes.Latest() {
		if t.Description.Name == name {
			return t
		}
	}
	return nil
}

// getNodeParameterOptions answers a node's load-options method for the editor:
// {data: [{name, value, description?}]}.
func (s *server) getNodeParameterOptions(c fiber.Ctx) error {
	req, err := parseOptionsQuery(c.Query("nodeTypeAndVersion"), c.Query("currentNodeParameters"), c.Query("credentials"))
	if err != nil {
		return err
	}
	req.path = c.Query("path")
	req.methodName = c.Query("methodName")
	req.declarative = c.Query("loadOptions") != ""
	options, err := loadParameterOptions(c.Context(), s.nodeTypes, req, s.lookupRequest(c, req))
	if err != nil {
		return err
	}
	return respond(c, options)
}

// getNodesListSearch answers the list of a resourceLocator parameter's list mode from the node's
// searchListMethod: {data: {results: [{name, value, url?}], paginationToken?}}. The query is
// that of node-parameter-options plus filter (the search text) and paginationToken.
func (s *server) getNodesListSearch(c fiber.Ctx) error {
	method, q, err := lookupMethod(s, c, func(t *nodes.Type) map[string]nodes.ListSearchFunc { return t.ListSearch })
	if err != nil {
		return err
	}
	user := sessionUser(c)
	req := nodes.ListSearchRequest{
		LoadOptionsRequest: s.lookupRequest(c, q),
		Filter:             c.Query("filter"),
		PaginationToken:    c.Query("paginationToken"),
		EditorURL:          s.cfg.PublicURL,
		Workflows: func(ctx context.Context, name string) ([]nodes.WorkflowRef, error) {
			list, err := s.in.Store.ListWorkflows(ctx, user, store.WorkflowFilter{Name: name})
			if err != nil {
				return nil, err
			}
			out := make([]nodes.WorkflowRef, len(list))
			for i, w := range list {
				out[i] = nodes.WorkflowRef{ID: w.ID, Name: w.Name}
			}
			return out, nil
		},
	}
	result, err := method(c.Context(), req)
	if err != nil {
		return lookupFailed("list", err)
	}
	if result == nil {
		result = &nodes.ListSearchResult{}
	}
	if result.Results == nil {
		result.Results = []nodes.ListSearchItem{}
	}
	return respond(c, result)
}

// getMappingFields answers the fields of a resourceMapper parameter from the node's
// resourceMapperMethod, as n8n 1.x's GET /rest/get-mapping-fields: {data: {fields: [{id,
// displayName, required, defaultMatch, canBeUsedToMatch, display, type, options?}]}}. The query
// is that of node-parameter-options.
func (s *server) getMappingFields(c fiber.Ctx) error {
	method, q, err := lookupMethod(s, c, func(t *nodes.Type) map[string]nodes.ResourceMappingFunc { return t.ResourceMapping })
	if err != nil {
		return err
	}
	fields, err := method(c.Context(), s.lookupRequest(c, q))
	if err != nil {
		return lookupFailed("fields", err)
	}
	if fields == nil {
		fields = &nodes.MapperFields{}
	}
	if fields.Fields == nil {
		fields.Fields = []nodes.MapperField{}
	}
	return respond(c, fields)
}

// lookupRequest is what a node's lookup method gets: the editor's node, parameters and selected
// credentials, the credentials the signed-in user may use (a member only theirs and those
// shared with them, as their manual runs) and the host runs get, so a lookup connects only
// where a run may.
func (s *server) lookupRequest(c fiber.Ctx, q parameterOptionsQuery) nodes.LoadOptionsRequest {
	req := q.request()
	req.Host = s.nodeHost
	req.Lookup = credential.ForUser(s.in.Store, s.credentials, sessionUser(c))
	return req
}

// request is the query as a lookup request, without credentials or host.
func (q parameterOptionsQuery) request() nodes.LoadOptionsRequest {
	params := q.parameters
	if params == nil {
		params = map[string]any{}
	}
	return nodes.LoadOptionsRequest{NodeType: q.node.Name, Version: q.node.Version, Path: q.path,
		Parameters: params, Credentials: q.credentials}
}

// parameterOptionsQuery is the decoded query of GET /rest/node-parameter-options.
type parameterOptionsQuery struct {
	node        nodeInfo
	parameters  map[string]any
	credentials map[string]any
	path        string
	methodName  string
	declarative bool
}

func parseOptionsQuery(nodeTypeAndVersion, currentNodeParameters, credentials string) (parameterOptionsQuery, error) {
	var q parameterOptionsQuery
	if nodeTypeAndVersion == "" {
		return q, badRequest("The query parameter nodeTypeAndVersion is missing")
	}
	if err := json.Unmarshal([]byte(nodeTypeAndVersion), &q.node); err != nil || q.node.Name == "" {
		return q, badRequest("The query parameter nodeTypeAndVersion must be JSON {name, version}")
	}
	if currentNodeParameters != "" {
		if err := json.Unmarshal([]byte(currentNodeParameters), &q.parameters); err != nil {
			return q, badRequest("The query parameter currentNodeParameters must be a JSON object")
		}
	}
	if credentials != "" {
		if err := json.Unmarshal([]byte(credentials), &q.credentials); err != nil {
			return q, badRequest("The query parameter credentials must be a JSON object")
		}
	}
	return q, nil
}

// loadParameterOptions calls the node type's load-options method. Declarative (routing-based)
// load options belong to declarative nodes, which Flowmill does not have.
func loadParameterOptions(ctx context.Context, reg *nodes.Registry, q parameterOptionsQuery, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	t, ok := reg.Get(q.node.Name, q.node.Version)
	if !ok {
		return nil, notFound(fmt.Sprintf("The node-type %q (version %g) is not known", q.node.Name, q.node.Version))
	}
	if q.methodName == "" {
		if q.declarative {
			return nil, badRequest("Load options by request description are not supported")
		}
		return []nodes.OptionValue{}, nil
	}
	method, ok := t.LoadOptions[q.methodName]
	if !ok {
		return nil, notFound(fmt.Sprintf("The node-type %q does not have the method %q defined!", t.Description.Name, q.methodName))
	}
	options, err := method(ctx, req)
	if err != nil {
		return nil, lookupFailed("parameter options", err)
	}
	if options == nil {
		options = []nodes.OptionValue{}
	}
	return options, nil
}

// getNodeTranslationHeaders answers the headers of installed node translations. Only the
// built-in English texts exist, so, like n8n without a headers file, there is nothing to send:
// n8n's body is then {} (its data is undefined).
func (s *server) getNodeTranslationHeaders(c fiber.Ctx) error {
	return c.JSON(fiber.Map{})
}

// lookupMethod reads the query of an editor lookup (that of node-parameter-options plus
// methodName and path) and finds the node type's method of that name in the table methods gives.
func lookupMethod[F any](s *server, c fiber.Ctx, methods func(*nodes.Type) map[string]F) (F, parameterOptionsQuery, error) {
	var none F
	q, err := parseOptionsQuery(c.Query("nodeTypeAndVersion"), c.Query("currentNodeParameters"), c.Query("credentials"))
	if err != nil {
		return none, q, err
	}
	methodName := c.Query("methodName")
	if methodName == "" {
		return none, q, badRequest("The query parameter methodName is missing")
	}
	t, ok := s.nodeTypes.Get(q.node.Name, q.node.Version)
	if !ok {
		return none, q, notFound(fmt.Sprintf("The node-type %q (version %g) is not known", q.node.Name, q.node.Version))
	}
	method, ok := methods(t)[methodName]
	if !ok {
		return none, q, notFound(fmt.Sprintf("The node-type %q does not have the method %q defined!", t.Description.Name, methodName))
	}
	q.path = c.Query("path")
	return method, q, nil
}

// lookupFailed is the answer to an editor lookup that failed: 404 when the node's credential is
// not one the signed-in user may use, else 500 with the node's message, as n8n answers.
func lookupFailed(what string, err error) *apiError {
	status := http.StatusInternalServerError
	if _, ok := errors.AsType[*nodes.CredentialNotFoundError](err); ok {
		status = http.StatusNotFound
	}
	return &apiError{Status: status, Message: "Problem loading the " + what + ": " + err.Error(), cause: err}
}
