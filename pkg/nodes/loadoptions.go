package nodes

import (
	"context"
	"slices"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// OptionValue is one choice answered by a load-options method (n8n's INodePropertyOptions).
type OptionValue struct {
	Name        string `json:"name"`
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}

// LoadOptionsRequest is what the editor sends when it fills an options parameter whose
// typeOptions name a loadOptionsMethod.
type LoadOptionsRequest struct {
	// NodeType and Version name the node the editor asks for.
	NodeType string
	Version  float64
	// Path is the parameter's path, such as "parameters.timezone".
	Path string
	// Parameters are the node's current parameter values, unresolved.
	Parameters map[string]any
	// Credentials are the node's selected credentials per type ({id, name}).
	Credentials map[string]any
	// Lookup returns the decrypted data of the credentials the signed-in user may use; nil
	// without a credential store (Execution().Credentials then fails with
	// ErrCredentialsNotAvailable).
	Lookup CredentialsFunc
	// Host is what the lookup may reach: the host runs of this instance get, so a lookup
	// connects only where a run may.
	Host Host
}

// lookupNodeName names the node of a lookup in credential errors.
const lookupNodeName = "lookup"

// Execution is a node context for a lookup, so lookups read parameters and open connections
// with the node's own code: the request's parameters and selected credentials, credentials
// through Lookup, the network through Host. Parameters holding expressions fail (a lookup has
// no input items to resolve them against).
func (r LoadOptionsRequest) Execution() *Execution {
	params := r.Parameters
	if params == nil {
		params = map[string]any{}
	}
	node := &workflow.Node{Name: lookupNodeName, Type: r.NodeType, TypeVersion: r.Version,
		Parameters: params, Credentials: r.Credentials}
	return NewExecution(ExecutionConfig{Node: node, Mode: workflow.ModeManual, Credentials: r.Lookup,
		Host: r.Host, Inputs: [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}})
}

// LoadOptionsFunc answers one load-options method of a node type.
type LoadOptionsFunc func(ctx context.Context, req LoadOptionsRequest) ([]OptionValue, error)

// ListSearchItem is one entry of a resource locator's list (n8n's INodeListSearchItems).
type ListSearchItem struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	URL   string `json:"url,omitempty"`
}

// ListSearchResult is what a list-search method answers: one page of entries and, when more
// follow, the token that asks for the next page.
type ListSearchResult struct {
	Results         []ListSearchItem `json:"results"`
	PaginationToken any              `json:"paginationToken,omitempty"`
}

// WorkflowRef names a stored workflow.
type WorkflowRef struct {
	ID   string
	Name string
}

// ListSearchRequest is what the editor sends when it fills the list mode of a resourceLocator
// parameter whose mode names a searchListMethod.
type ListSearchRequest struct {
	LoadOptionsRequest
	// Filter is the search text typed by the user ("" for all).
	Filter string
	// PaginationToken is the token of the previous page, "" for the first.
	PaginationToken string
	// Workflows lists the workflows the signed-in user may read whose name contains the text
	// (any case); nil when no store answers.
	Workflows func(ctx context.Context, name string) ([]WorkflowRef, error)
	// EditorURL is the editor's base URL ending in "/", for entry links.
	EditorURL string
}

// ListSearchFunc answers one searchListMethod of a node type.
type ListSearchFunc func(ctx context.Context, req ListSearchRequest) (*ListSearchResult, error)

// MapperField is one field a resourceMapper parameter offers (n8n's ResourceMapperField).
type MapperField struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	// Required fields must get a value (a column that is not nullable and has no default).
	Required bool `json:"required"`
	// DefaultMatch marks the field matched on by default (update, upsert).
	DefaultMatch bool `json:"defaultMatch"`
	// CanBeUsedToMatch marks fields that identify a row (for upsert: unique columns).
	CanBeUsedToMatch bool `json:"canBeUsedToMatch"`
	Display          bool `json:"display"`
	// Type is n8n's FieldType: string, number, boolean, dateTime, time, object, options, array.
	Type string `json:"type,omitempty"`
	// Options are the choices of an options field (enum labels).
	Options []OptionValue `json:"options,omitempty"`
}

// MapperFields is what a resourceMapperMethod answers.
type MapperFields struct {
	Fields []MapperField `json:"fields"`
	// EmptyFieldsNotice is shown instead of an empty list; "" for the editor's own text.
	EmptyFieldsNotice string `json:"emptyFieldsNotice,omitempty"`
}

// ResourceMappingFunc answers one resourceMapperMethod of a node type.
type ResourceMappingFunc func(ctx context.Context, req LoadOptionsRequest) (*MapperFields, error)

// AllColumnsFirst is n8n's getColumnsMultiOptions of the database nodes: the columns columns
// answers, after an entry "*" for all of them.
func AllColumnsFirst(columns LoadOptionsFunc) LoadOptionsFunc {
	return func(ctx context.Context, req LoadOptionsRequest) ([]OptionValue, error) {
		cols, err := columns(ctx, req)
		if err != nil {
			return nil, err
		}
		return append([]OptionValue{{Name: "*", Value: "*", Description: "All columns"}}, cols...), nil
	}
}

// WithoutColumnToMatchOn is n8n's getColumnsWithoutColumnToMatchOn of the database nodes: the
// columns columns answers but the one the node's columnToMatchOn parameter names.
func WithoutColumnToMatchOn(columns LoadOptionsFunc) LoadOptionsFunc {
	return func(ctx context.Context, req LoadOptionsRequest) ([]OptionValue, error) {
		cols, err := columns(ctx, req)
		if err != nil {
			return nil, err
		}
		match, _ := req.Parameters["columnToMatchOn"].(string)
		return slices.DeleteFunc(cols, func(o OptionValue) bool { return o.Value == match }), nil
	}
}
