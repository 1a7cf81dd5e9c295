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
