package main

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/store"
)

// OAuthStateTTL is how long an OAuth connect may take from the authorization URL to the
// callback: the state (OAuth2) or request token (OAuth1) is refused after it, and after its
// first use.
const OAuthStateTTL = 10 * time.Minute

// OAuth connect kinds, as kept in oauth_states.
const (
	oauthKind1 = "oauth1"
	oauthKind2 = "oauth2"
)

// oauthSuccessScript tells the editor window that opened the popup that the account is
// connected, then closes the popup. Its hash is the only script the callback page may run.
const oauthSuccessScript = `if (window.opener) { window.opener.postMessage('success', window.location.origin); } window.close();`

// oauthPagePolicy is the Content-Security-Policy of the callback pages.
var oauthPagePolicy = func() string {
	sum := sha256.Sum256([]byte(oauthSuccessScript))
	return "default-src 'none'; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; " +
		"style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}()

// oauthPage is the HTML the callback answers: n8n's text on success, the reason otherwise.
func oauthPage(c fiber.Ctx, status int, message string) error {
	script := ""
	if status == http.StatusOK {
		script = "<script>" + oauthSuccessScript + "</script>"
	}
	c.Status(status)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.SendString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Flowmill OAuth</title></head>` +
		`<body style="font-family: sans-serif; margin: 2em; color: #333">` +
		`<p>` + html.EscapeString(message) + `</p>` + script + `</body></html>`)
}

// isOAuthCallback tells the callback paths, whose errors are pages in the editor's popup.
func isOAuthCallback(path string) bool {
	return strings.HasSuffix(path, "/rest/oauth1-credential/callback") || strings.HasSuffix(path, "/rest/oauth2-credential/callback")
}

// oauthErrorPage answers a callback that failed before or outside its handler (no session, a
// store failure) with a page instead of JSON.
func oauthErrorPage(c fiber.Ctx, body errorBody) error {
	msg := body.Message
	if body.Code == http.StatusUnauthorized {
		msg = "You are not signed in to Flowmill in this browser. Sign in, then connect the credential again."
	}
	return oauthPage(c, body.Code, msg)
}

// oauthCallbackURL is the redirect URL settings advertise for kind (oauth1 or oauth2).
func (s *server) oauthCallbackURL(kind string) string {
	return s.cfg.PublicURL + "rest/" + kind + "-credential/callback"
}

// oauthCredential loads credential id for the signed-in caller (404 when they may not use it)
// with its decrypted data.
func (s *server) oauthCredential(c fiber.Ctx, id string) (*store.Credential, map[string]any, error) {
	if id == "" {
		return nil, nil, badRequest("The query parameter id (the credential's id) is missing")
	}
	cred, err := s.in.Store.GetCredentialFor(c.Context(), sessionUser(c), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, notFound(fmt.Sprintf("Credential with id %q not found", id))
	} else if err != nil {
		return nil, nil, err
	}
	data, err := s.credentials.Decrypt(cred.Data)
	if err != nil {
		return nil, nil, err
	}
	return cred, data, nil
}

// saveOAuthState keeps the server-side half of a connect under key for OAuthStateTTL.
func (s *server) saveOAuthState(c fiber.Ctx, kind, key, credentialID string, secret map[string]any) error {
	sealed, err := s.credentials.Encrypt(secret)
	if err != nil {
		return err
	}
	return s.in.Store.SaveOAuthState(c.Context(), key, store.OAuthState{Kind: kind, UserID: sessionUser(c).ID,
		CredentialID: credentialID, Secret: sealed, ExpiresAt: s.now().Add(OAuthStateTTL)})
}

// oauthFailure is a callback that cannot finish: answered as an error page with its status.
type oauthFailure struct {
	status  int
	message string
}

func (f *oauthFailure) Error() string { return f.message }

// oauthCallback is a connect a callback finishes: the credential and its decrypted data, and
// the server-side half of the connect.
type oauthCallback struct {
	cred   *store.Credential
	data   map[string]any
	secret map[string]any
}

// finishOAuth answers a callback: the success page, a failure's page, or err to the error
// handler (store or decryption failures).
func finishOAuth(c fiber.Ctx, err error) error {
	var f *oauthFailure
	switch {
	case err == nil:
		return oauthPage(c, http.StatusOK, "Got connected. The window can be closed now.")
	case errors.As(err, &f):
		return oauthPage(c, f.status, f.message)
	}
	return err
}

// takeOAuthCallback takes the state a callback names, once, and checks that the signed-in
// user started the connect and may still use the credential.
func (s *server) takeOAuthCallback(c fiber.Ctx, kind, key string) (*oauthCallback, error) {
	st, err := s.in.Store.TakeOAuthState(c.Context(), kind, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &oauthFailure{http.StatusBadRequest, "This connection attempt is unknown, was used already or expired (after " +
			OAuthStateTTL.String() + "). Close this window and connect again."}
	} else if err != nil {
		return nil, err
	}
	u := sessionUser(c)
	if st.UserID != u.ID {
		return nil, &oauthFailure{http.StatusForbidden, "This connection was started by another user. Close this window and connect again."}
	}
	cred, err := s.in.Store.GetCredentialFor(c.Context(), u, st.CredentialID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &oauthFailure{http.StatusNotFound, "The credential of this connection does not exist any more."}
	} else if err != nil {
		return nil, err
	}
	cb := &oauthCallback{cred: cred}
	if cb.data, err = s.credentials.Decrypt(cred.Data); err != nil {
		return nil, err
	}
	if cb.secret, err = s.credentials.Decrypt(st.Secret); err != nil {
		return nil, err
	}
	return cb, nil
}

// getOAuth2Auth answers the authorization URL the editor opens in its popup for an OAuth2
// credential (authorization code or PKCE), with a new single-use state.
func (s *server) getOAuth2Auth(c fiber.Ctx) error {
	cred, data, err := s.oauthCredential(c, c.Query("id"))
	if err != nil {
		return err
	}
	if !credential.IsOAuth2(cred.Type, data) {
		return badRequest(fmt.Sprintf("Credential %q is of type %s, not an OAuth2 credential", cred.Name, cred.Type))
	}
	req, err := credential.NewOAuth2AuthRequest(data, s.oauthCallbackURL(oauthKind2))
	if err != nil {
		return badRequest(err.Error())
	}
	if err := s.saveOAuthState(c, oauthKind2, req.State, cred.ID, map[string]any{"verifier": req.Verifier}); err != nil {
		return err
	}
	return respond(c, req.URL)
}

// getOAuth2Callback is where the provider sends the browser back: it exchanges the code for a
// token and stores it in the credential.
func (s *server) getOAuth2Callback(c fiber.Ctx) error {
	return finishOAuth(c, s.oauth2Callback(c))
}

func (s *server) oauth2Callback(c fiber.Ctx) error {
	state := c.Query("state")
	if state == "" {
		return &oauthFailure{http.StatusBadRequest, "The query parameter state is missing."}
	}
	cb, err := s.takeOAuthCallback(c, oauthKind2, state)
	if err != nil {
		return err
	}
	if e := c.Query("error"); e != "" {
		if d := c.Query("error_description"); d != "" {
			e += ": " + d
		}
		return &oauthFailure{http.StatusBadRequest, "The provider did not authorize the connection (" + e + ")."}
	}
	code := c.Query("code")
	if code == "" {
		return &oauthFailure{http.StatusBadRequest, "The query parameter code is missing."}
	}
	verifier, _ := cb.secret["verifier"].(string)
	token, err := credential.ExchangeCode(c.Context(), s.nodeHost.HTTP, cb.data, code, s.oauthCallbackURL(oauthKind2), verifier)
	if err != nil {
		return &oauthFailure{http.StatusBadGateway, "The access token could not be obtained: " + err.Error()}
	}
	return credential.SaveToken(c.Context(), s.in.Store, s.credentials, cb.cred.ID, token)
}

// getOAuth1Auth obtains a request token for an OAuth1 credential and answers the authorization
// URL with it; the token secret stays on the server, bound to the caller and the credential.
func (s *server) getOAuth1Auth(c fiber.Ctx) error {
	cred, data, err := s.oauthCredential(c, c.Query("id"))
	if err != nil {
		return err
	}
	if !credential.IsOAuth1(cred.Type, data) {
		return badRequest(fmt.Sprintf("Credential %q is of type %s, not an OAuth1 credential", cred.Name, cred.Type))
	}
	rt, err := credential.RequestOAuth1Token(c.Context(), s.nodeHost.HTTP, data, s.oauthCallbackURL(oauthKind1))
	if err != nil {
		return &apiError{Status: http.StatusBadGateway, Message: err.Error()}
	}
	if err := s.saveOAuthState(c, oauthKind1, rt.Token, cred.ID, map[string]any{"tokenSecret": rt.TokenSecret}); err != nil {
		return err
	}
	return respond(c, rt.AuthURL)
}

// getOAuth1Callback exchanges the verified request token for an access token and stores it.
func (s *server) getOAuth1Callback(c fiber.Ctx) error {
	return finishOAuth(c, s.oauth1Callback(c))
}

func (s *server) oauth1Callback(c fiber.Ctx) error {
	token, verifier := c.Query("oauth_token"), c.Query("oauth_verifier")
	if token == "" || verifier == "" {
		return &oauthFailure{http.StatusBadRequest, "The query parameters oauth_token and oauth_verifier are required."}
	}
	cb, err := s.takeOAuthCallback(c, oauthKind1, token)
	if err != nil {
		return err
	}
	tokenSecret, _ := cb.secret["tokenSecret"].(string)
	access, err := credential.ExchangeOAuth1Token(c.Context(), s.nodeHost.HTTP, cb.data, token, tokenSecret, verifier)
	if err != nil {
		return &oauthFailure{http.StatusBadGateway, "The access token could not be obtained: " + err.Error()}
	}
	return credential.SaveToken(c.Context(), s.in.Store, s.credentials, cb.cred.ID, access)
}
