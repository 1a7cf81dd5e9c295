// Package oauthprovider is a local OAuth2 authorization server built on go-oauth2, for the
// credential tests and the end-to-end suite (bin/oauthprovider): authorization code with PKCE,
// client credentials and refresh tokens, an /authorize page with an "Authorize" button, a
// protected /api/me and grant counts at /stats. No Flowmill process uses it.
package oauthprovider

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"sync"
	"time"

	"github.com/go-oauth2/oauth2/v4"
	oerrors "github.com/go-oauth2/oauth2/v4/errors"
	"github.com/go-oauth2/oauth2/v4/manage"
	"github.com/go-oauth2/oauth2/v4/models"
	"github.com/go-oauth2/oauth2/v4/server"
	"github.com/go-oauth2/oauth2/v4/store"
)

// Config configures a Provider.
type Config struct {
	// ClientID and ClientSecret are the one client's credentials. Required.
	ClientID, ClientSecret string
	// RedirectURL, when set, is the only redirect_uri accepted; otherwise any is.
	RedirectURL string
	// AccessTokenTTL is the lifetime of access tokens; default 1 h.
	AccessTokenTTL time.Duration
	// Subject is the user every authorization is granted for; default "flowmill-test-user".
	Subject string
	// TokenDelay holds every token answer back this long, as a slow provider does; default 0.
	TokenDelay time.Duration
}

// Stats counts the successful token grants by grant type.
type Stats struct {
	AuthorizationCode int `json:"authorizationCode"`
	ClientCredentials int `json:"clientCredentials"`
	RefreshToken      int `json:"refreshToken"`
}

// Provider is the authorization server; Handler serves it.
type Provider struct {
	cfg     Config
	manager *manage.Manager
	srv     *server.Server

	mu    sync.Mutex
	stats Stats
}

// New builds a provider with an in-memory token store.
func New(cfg Config) (*Provider, error) {
	if cfg.ClientID == "" || cfg.ClientSecret == "" {
		return nil, errors.New("oauth provider: client id and secret are required")
	}
	cfg.AccessTokenTTL = cmp.Or(cfg.AccessTokenTTL, time.Hour)
	cfg.Subject = cmp.Or(cfg.Subject, "flowmill-test-user")

	m := manage.NewDefaultManager()
	m.SetAuthorizeCodeTokenCfg(&manage.Config{AccessTokenExp: cfg.AccessTokenTTL, RefreshTokenExp: 24 * time.Hour, IsGenerateRefresh: true})
	m.SetClientTokenCfg(&manage.Config{AccessTokenExp: cfg.AccessTokenTTL})
	m.SetRefreshTokenCfg(&manage.RefreshingConfig{AccessTokenExp: cfg.AccessTokenTTL, RefreshTokenExp: 24 * time.Hour,
		IsGenerateRefresh: true, IsRemoveAccess: true, IsRemoveRefreshing: true})
	m.MustTokenStorage(store.NewMemoryTokenStore())
	clients := store.NewClientStore()
	if err := clients.Set(cfg.ClientID, &models.Client{ID: cfg.ClientID, Secret: cfg.ClientSecret, Domain: cfg.RedirectURL}); err != nil {
		return nil, err
	}
	m.MapClientStorage(clients)
	m.SetValidateURIHandler(func(registered, redirect string) error {
		if registered != "" && registered != redirect {
			return oerrors.ErrInvalidRedirectURI
		}
		return nil
	})

	p := &Provider{cfg: cfg, manager: m}
	p.srv = server.NewServer(server.NewConfig(), m)
	// Clients authenticate by Basic header or by client_id/client_secret in the body.
	p.srv.SetClientInfoHandler(func(r *http.Request) (string, string, error) {
		if id, secret, err := server.ClientBasicHandler(r); err == nil {
			return id, secret, nil
		}
		return server.ClientFormHandler(r)
	})
	p.srv.SetUserAuthorizationHandler(p.authorizeUser)
	return p, nil
}

// Handler serves /authorize, /token, /api/me and /stats.
func (p *Provider) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		if err := p.srv.HandleAuthorizeRequest(w, r); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
		}
	})
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("GET /api/me", func(w http.ResponseWriter, r *http.Request) {
		ti, err := p.srv.ValidationBearerToken(r)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
			return
		}
		sub := ti.GetUserID()
		if sub == "" {
			sub = "client:" + ti.GetClientID()
		}
		writeJSON(w, http.StatusOK, map[string]string{"sub": sub})
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, p.Stats())
	})
	return mux
}

// Stats returns the grant counts so far.
func (p *Provider) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// Revoke makes access token access invalid, as a provider does when it revokes a token early.
func (p *Provider) Revoke(ctx context.Context, access string) error {
	return p.manager.RemoveAccessToken(ctx, access)
}

var authorizePage = template.Must(template.New("authorize").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Authorize</title></head>
<body style="font-family: sans-serif; margin: 3em">
<h1>Authorize access</h1>
<p>The application <b>{{.Client}}</b> asks for access to your account.</p>
<form method="post" action="/authorize?{{.Query}}"><button type="submit">Authorize</button></form>
</body></html>`))

// authorizeUser shows the approval page on GET; the page's POST approves for the subject.
func (p *Provider) authorizeUser(w http.ResponseWriter, r *http.Request) (string, error) {
	if r.Method == http.MethodPost {
		return p.cfg.Subject, nil
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	data := struct {
		Client string
		Query  template.URL
	}{r.URL.Query().Get("client_id"), template.URL(r.URL.RawQuery)}
	return "", authorizePage.Execute(w, data)
}

// token handles token requests and counts the ones granted.
func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	grant := oauth2.GrantType(r.FormValue("grant_type"))
	select {
	case <-time.After(p.cfg.TokenDelay):
	case <-r.Context().Done():
		return
	}
	if err := p.srv.HandleTokenRequest(rec, r); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if rec.status != http.StatusOK {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch grant {
	case oauth2.AuthorizationCode:
		p.stats.AuthorizationCode++
	case oauth2.ClientCredentials:
		p.stats.ClientCredentials++
	case oauth2.Refreshing:
		p.stats.RefreshToken++
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
