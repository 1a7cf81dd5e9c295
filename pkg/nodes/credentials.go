package nodes

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// ErrCredentialsNotAvailable is returned when a node asks for credentials in a process that has no
// credential store connected (ExecutionConfig.Credentials is nil).
var ErrCredentialsNotAvailable = errors.New("credentials not available: no credential store is connected")

// CredentialNotFoundError is n8n's error for a credential a node selected by id that does not
// exist, or that the run may not use (said the same way, so nothing tells whose it is).
// Execution.Credentials returns it as it is, so runs fail with n8n's message.
type CredentialNotFoundError struct {
	ID, Type string
	// Cause is the lookup's own error kind (such as credential.ErrNotFound), for errors.Is.
	Cause error
}

func (e *CredentialNotFoundError) Error() string {
	return fmt.Sprintf("Credential with ID %q does not exist for type %q.", e.ID, e.Type)
}

func (e *CredentialNotFoundError) Unwrap() error { return e.Cause }

// CredentialRef names the credential a node selected for one credential type.
type CredentialRef struct {
	// Type is the credential type name, such as "httpBasicAuth".
	Type string
	// ID and Name identify the credential as stored on the node ({id, name}); ID may be empty
	// for workflows that only carry the name.
	ID   string
	Name string
	// Node is the name of the node asking.
	Node string
	// RefusedToken is set when a node asks again because the service refused this OAuth2
	// access token (401): the credential layer then gets a new token, unless the credential
	// already holds another one, which it returns.
	RefusedToken string
}

// CredentialsFunc returns the decrypted data of a credential (for httpBasicAuth: user and
// password). The credential layer provides it; it must honour ctx.
type CredentialsFunc func(ctx context.Context, ref CredentialRef) (map[string]any, error)

// Credentials returns the decrypted data of the credential the node selected for credType. It
// fails with a node error when the node has none of that type selected, and with
// ErrCredentialsNotAvailable when the process has no credential store.
func (ex *Execution) Credentials(ctx context.Context, credType string) (map[string]any, error) {
	return ex.credentials(ctx, credType, "")
}

// RefreshedCredentials returns the data of the credential the node selected for credType after
// the service refused its OAuth2 access token refused: with a new token (refreshed once for all
// runs that were refused the same token), or the newer one another run already saved.
func (ex *Execution) RefreshedCredentials(ctx context.Context, credType, refused string) (map[string]any, error) {
	return ex.credentials(ctx, credType, refused)
}

func (ex *Execution) credentials(ctx context.Context, credType, refused string) (map[string]any, error) {
	node := ex.cfg.Node
	ref, ok := SelectedCredential(node, credType)
	if !ok {
		return nil, &Error{Message: fmt.Sprintf("Node %q does not have any credentials set for %q!", node.Name, credType), ItemIndex: -1}
	}
	if ex.cfg.Credentials == nil {
		return nil, ErrCredentialsNotAvailable
	}
	ref.RefusedToken = refused
	data, err := ex.cfg.Credentials(ctx, ref)
	var notFound *CredentialNotFoundError
	if errors.As(err, &notFound) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("credentials %q of type %q: %w", ref.Name, credType, err)
	}
	return data, nil
}

// SelectedCredential names the credential node selected for credType; false when it selected
// none of that type.
func SelectedCredential(node *workflow.Node, credType string) (CredentialRef, bool) {
	sel, ok := node.Credentials[credType]
	if !ok || sel == nil {
		return CredentialRef{}, false
	}
	ref := CredentialRef{Type: credType, Node: node.Name}
	switch s := sel.(type) {
	case string:
		ref.Name = s
	case map[string]any:
		ref.ID, _ = s["id"].(string)
		ref.Name, _ = s["name"].(string)
	}
	return ref, true
}
