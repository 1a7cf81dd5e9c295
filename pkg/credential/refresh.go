package credential

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
)

// TokensConfig configures Tokens.
type TokensConfig struct {
	// Store holds the credentials and the refresh leases. Required.
	Store *store.Store
	// Cipher decrypts and encrypts credential data. Required.
	Cipher *Cipher
	// HTTP sends token requests; it must be the egress-checked client. Required.
	HTTP *http.Client
	// Owner names this process in refresh leases; default random.
	Owner string
	// LeaseTTL is how long one refresh may hold a credential; default 30 s. A process that
	// dies while refreshing blocks the others' refresh of that credential for at most this long.
	LeaseTTL time.Duration
	// ExpirySkew refreshes a token this long before its expires_at; default 10 s.
	ExpirySkew time.Duration
	// Poll is how often a process waiting for another's refresh looks again; default 50 ms.
	Poll time.Duration
}

// Tokens hands nodes OAuth2 credentials with a usable access token: it fetches a client
// credentials token when none is stored, and refreshes an expired or refused one. A refresh
// happens once per credential however many runs need it at the same moment: runs of one
// process share one call (singleflight), processes share a lease row in the database, and the
// new token is saved with a compare-and-set on the data it replaces; a run that waited reads
// the saved token instead of refreshing again.
type Tokens struct {
	cfg   TokensConfig
	group singleflight.Group
}

// NewTokens validates cfg and fills its defaults.
func NewTokens(cfg TokensConfig) (*Tokens, error) {
	if cfg.Store == nil || cfg.Cipher == nil || cfg.HTTP == nil {
		return nil, errors.New("credential tokens: store, cipher and HTTP client are required")
	}
	if cfg.Owner == "" {
		b := make([]byte, 8)
		_, _ = rand.Read(b)
		cfg.Owner = "tokens-" + hex.EncodeToString(b)
	}
	cfg.LeaseTTL = cmp.Or(cfg.LeaseTTL, 30*time.Second)
	cfg.ExpirySkew = cmp.Or(cfg.ExpirySkew, 10*time.Second)
	cfg.Poll = cmp.Or(cfg.Poll, 50*time.Millisecond)
	return &Tokens{cfg: cfg}, nil
}

// ForUserID is credential.ForUserID with OAuth2 tokens kept usable.
func (t *Tokens) ForUserID(userID string) nodes.CredentialsFunc {
	return forLookup(t.cfg.Store, userID, t.cfg.Store.GetUser, t.open)
}

// ForWorkflow is credential.ForWorkflow with OAuth2 tokens kept usable.
func (t *Tokens) ForWorkflow(workflowID string) nodes.CredentialsFunc {
	return forLookup(t.cfg.Store, workflowID, t.cfg.Store.WorkflowOwner, t.open)
}

// open decrypts cred and, for OAuth2 credentials, makes sure the token is usable.
func (t *Tokens) open(ctx context.Context, cred *store.Credential, ref nodes.CredentialRef) (map[string]any, error) {
	data, err := t.cfg.Cipher.Decrypt(cred.Data)
	if err != nil || !IsOAuth2(cred.Type, data) {
		return data, err
	}
	token := Token(data)
	current := field(token, "access_token")
	switch {
	case ref.RefusedToken != "" && ref.RefusedToken != current:
		return data, nil // another run refreshed it already
	case ref.RefusedToken != "":
	case current == "" && GrantType(data) == GrantClientCredentials:
	case current != "" && tokenExpired(token, time.Now(), t.cfg.ExpirySkew):
	default:
		return data, nil
	}
	if current != "" && field(token, "refresh_token") == "" && GrantType(data) != GrantClientCredentials {
		// Nothing to refresh with: the node's request tells the service's answer.
		return data, nil
	}
	return t.Refresh(ctx, cred.ID, current)
}

// Refresh gets a new token for credential id, whose access token stale (empty: none) is no
// longer usable, saves it and returns the credential's data with it. When the credential already
// holds another token (a concurrent refresh saved it), that one is returned without a request.
func (t *Tokens) Refresh(ctx context.Context, id, stale string) (map[string]any, error) {
	ch := t.group.DoChan(id+"\x00"+stale, func() (any, error) {
		// Detached from the first caller's cancellation: the others share the result.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.cfg.LeaseTTL)
		defer cancel()
		return t.refreshLeased(ctx, id, stale)
	})
	select {
	case <-ctx.Done():
		return nil, fmt.Errorf("refresh the OAuth token of credential %s: %w", id, ctx.Err())
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		// Each caller gets its own copy: nodes may change what they get.
		return cloneData(res.Val.(map[string]any)), nil
	}
}

func (t *Tokens) refreshLeased(ctx context.Context, id, stale string) (map[string]any, error) {
	// Each refresh holds the lease under its own name, so even two refreshes of this process
	// (for different stale tokens) exclude each other.
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	owner := t.cfg.Owner + "-" + hex.EncodeToString(b)
	for {
		held, err := t.cfg.Store.LeaseCredentialRefresh(ctx, id, owner, t.cfg.LeaseTTL)
		if err != nil {
			return nil, err
		}
		cred, data, err := t.load(ctx, id)
		if err != nil {
			if held {
				_ = t.cfg.Store.ReleaseCredentialRefresh(context.WithoutCancel(ctx), id, owner)
			}
			return nil, err
		}
		if AccessToken(data) != stale {
			if held {
				err = t.cfg.Store.ReleaseCredentialRefresh(ctx, id, owner)
			}
			return data, err
		}
		if held {
			defer func() { _ = t.cfg.Store.ReleaseCredentialRefresh(context.WithoutCancel(ctx), id, owner) }()
			return t.refreshHeld(ctx, cred, data)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for another process to refresh the OAuth token of credential %s: %w", id, ctx.Err())
		case <-time.After(t.cfg.Poll):
		}
	}
}

// refreshHeld requests the new token while this process holds the lease, and saves it.
func (t *Tokens) refreshHeld(ctx context.Context, cred *store.Credential, data map[string]any) (map[string]any, error) {
	token, err := grantRefresh(ctx, t.cfg.HTTP, data)
	if err != nil {
		return nil, err
	}
	data[TokenKey] = token
	sealed, err := t.cfg.Cipher.Encrypt(data)
	if err != nil {
		return nil, err
	}
	saved, err := t.cfg.Store.UpdateCredentialDataIf(ctx, cred.ID, cred.Data, sealed)
	if err != nil {
		return nil, err
	}
	if !saved {
		// The credential was edited meanwhile: what is stored now wins.
		_, data, err = t.load(ctx, cred.ID)
		return data, err
	}
	return data, nil
}

func (t *Tokens) load(ctx context.Context, id string) (*store.Credential, map[string]any, error) {
	cred, err := t.cfg.Store.GetCredential(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	data, err := t.cfg.Cipher.Decrypt(cred.Data)
	if err != nil {
		return nil, nil, err
	}
	return cred, data, nil
}

// SaveToken stores token as the OAuth token data of credential id (compare-and-set on the data
// read, retried when the credential changed meanwhile).
func SaveToken(ctx context.Context, s *store.Store, c *Cipher, id string, token map[string]any) error {
	for range 5 {
		cred, err := s.GetCredential(ctx, id)
		if err != nil {
			return err
		}
		data, err := c.Decrypt(cred.Data)
		if err != nil {
			return err
		}
		data[TokenKey] = token
		sealed, err := c.Encrypt(data)
		if err != nil {
			return err
		}
		if saved, err := s.UpdateCredentialDataIf(ctx, id, cred.Data, sealed); err != nil || saved {
			return err
		}
	}
	return fmt.Errorf("save the OAuth token of credential %s: it keeps changing: %w", id, store.ErrConflict)
}

func cloneData(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if inner, ok := v.(map[string]any); ok {
			v = cloneData(inner)
		}
		out[k] = v
	}
	return out
}
