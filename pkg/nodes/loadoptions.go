package nodes

import "context"

// OptionValue is one choice answered by a load-options method (n8n's INodePropertyOptions).
type OptionValue struct {
	Name        string `json:"name"`
	Value       any    `json:"value"`
	Description string `json:"description,omitempty"`
}

// LoadOptionsRequest is what the editor sends when it fills an options parameter whose
// typeOptions name a loadOptionsMethod.
type LoadOptionsRequest struct {
	// Path is the parameter's path, such as "parameters.timezone".
	Path string
	// Parameters are the node's current parameter values, unresolved.
	Parameters map[string]any
	// Credentials are the node's selected credentials per type ({id, name}).
	Credentials map[string]any
	// Lookup returns decrypted credential data; nil without a credential store.
	Lookup CredentialsFunc
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
