package credential

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
)

// ErrNotFound means a node's credential selection matches no credential the run may use.
var ErrNotFound = errors.New("credential not found")

// ErrAmbiguous means a node selected a credential by a name that several credentials share.
var ErrAmbiguous = errors.New("credential not clearly identified")

// ErrUnsavedWorkflow means a run that acts for nobody (a workflow never saved, outside a manual
// run, which acts for whoever started it) asked for credentials: there is nobody whose
// credentials it may use.
var ErrUnsavedWorkflow = errors.New("credentials can only be used by saved workflows")

// ForUser returns the nodes.CredentialsFunc that hands nodes the decrypted data of the
// credentials u may see (the instance owner sees all, a member those shared with them).
func ForUser(s *store.Store, c *Cipher, u *store.User) nodes.CredentialsFunc {
	return func(ctx context.Context, ref nodes.CredentialRef) (map[string]any, error) {
		return resolve(ctx, s, u, ref, c.open)
	}
}

// ForWorkflow returns the nodes.CredentialsFunc of a run of saved workflow workflowID: the
// credentials its owner may see, as in n8n, where a workflow runs with its owner's access. The
// owner is looked up when a node first asks, and kept for the run once found. An empty
// workflowID (an unsaved workflow) makes every request fail with ErrUnsavedWorkflow.
func ForWorkflow(s *store.Store, c *Cipher, workflowID string) nodes.CredentialsFunc {
	return forLookup(s, workflowID, s.WorkflowOwner, c.open)
}

// ForUserID returns the nodes.CredentialsFunc of a run that acts for user userID (see
// store.Execution.UserID): the credentials that user may see. The user is looked up when a node
// first asks, and kept for the run once found. An empty userID (a run acting for nobody) makes
// every request fail with ErrUnsavedWorkflow; a user that no longer exists sees no credential.
func ForUserID(s *store.Store, c *Cipher, userID string) nodes.CredentialsFunc {
	return forLookup(s, userID, s.GetUser, c.open)
}

// openFunc turns the stored credential a node selected into the data it gets.
type openFunc func(ctx context.Context, cred *store.Credential, ref nodes.CredentialRef) (map[string]any, error)

// open decrypts the stored data as it is.
func (c *Cipher) open(_ context.Context, cred *store.Credential, _ nodes.CredentialRef) (map[string]any, error) {
	return c.Decrypt(cred.Data)
}

// forLookup resolves credentials for the user lookup(key) names, looked up once.
func forLookup(s *store.Store, key string, lookup func(context.Context, string) (*store.User, error), open openFunc) nodes.CredentialsFunc {
	var (
		mu   sync.Mutex
		user *store.User
	)
	return func(ctx context.Context, ref nodes.CredentialRef) (map[string]any, error) {
		if key == "" {
			return nil, ErrUnsavedWorkflow
		}
		mu.Lock()
		u := user
		mu.Unlock()
		if u == nil {
			var err error
			if u, err = lookup(ctx, key); errors.Is(err, store.ErrNotFound) {
				// Said as for a credential that is not there: nothing about whose it is.
				return nil, fmt.Errorf("no credential with that id or name: %w", ErrNotFound)
			} else if err != nil {
				return nil, err
			}
			mu.Lock()
			user = u
			mu.Unlock()
		}
		return resolve(ctx, s, u, ref, open)
	}
}

// resolve finds the credential by id, else by a name that exactly one credential of the type
// carries (workflows imported from elsewhere keep names but not ids), and opens its data.
func resolve(ctx context.Context, s *store.Store, u *store.User, ref nodes.CredentialRef, open openFunc) (map[string]any, error) {
	if ref.ID != "" {
		cred, err := s.GetCredentialFor(ctx, u, ref.ID)
		switch {
		case err == nil && cred.Type == ref.Type:
			return open(ctx, cred, ref)
		case err != nil && !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
	}
	if ref.Name == "" && ref.ID == "" {
		return nil, fmt.Errorf("the node selected no credential of type %q: %w", ref.Type, ErrNotFound)
	}
	if ref.Name == "" {
		return nil, &nodes.CredentialNotFoundError{ID: ref.ID, Type: ref.Type, Cause: ErrNotFound}
	}
	list, err := s.ListCredentials(ctx, u, store.CredentialFilter{Type: ref.Type, Name: ref.Name})
	if err != nil {
		return nil, err
	}
	switch len(list) {
	case 0:
		if ref.ID != "" {
			// Selected by id (the name only helps imported workflows): n8n's message for a
			// credential that was deleted or is not the run owner's.
			return nil, &nodes.CredentialNotFoundError{ID: ref.ID, Type: ref.Type, Cause: ErrNotFound}
		}
		return nil, fmt.Errorf("no credential with that id or name: %w", ErrNotFound)
	case 1:
		return open(ctx, &list[0], ref)
	}
	return nil, fmt.Errorf("%d credentials are called %q; select one in the node: %w", len(list), ref.Name, ErrAmbiguous)
}
