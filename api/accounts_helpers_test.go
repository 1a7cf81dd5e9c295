package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/mail/mailtest"
)

// person is one browser talking to a test server, with its own cookies.
type person struct {
	e *testEnv
	c *http.Client
	// headers go with every request (name, value, …): X-Forwarded-For makes a remote caller.
	headers []string
}

// from is a new browser that reaches e through a trusted proxy on loopback, for the client
// address ip (the server needs FLOWMILL_TRUSTED_PROXIES=127.0.0.1).
func (e *testEnv) from(ip string) *person {
	return &person{e: e, c: browser(), headers: []string{"X-Forwarded-For", ip}}
}

func (e *testEnv) person() *person { return &person{e: e, c: browser()} }

// call sends a JSON request and returns the status and body; the response is kept for headers.
func (p *person) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	res, b := p.raw(t, method, path, body)
	return res.StatusCode, b
}

func (p *person) raw(t *testing.T, method, path, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, p.e.base+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	headers = append(slices.Clone(p.headers), headers...)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := p.c.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

// ok calls and requires 200, decoding data into v when v is not nil.
func (p *person) ok(t *testing.T, method, path, body string, v any) {
	t.Helper()
	status, b := p.call(t, method, path, body)
	require.Equal(t, 200, status, "%s %s: %s", method, path, b)
	if v != nil {
		decodeData(t, b, v)
	}
}

// session is the person's current session cookie for the server, "" when signed out.
func (p *person) session() string {
	u, _ := url.Parse(p.e.base)
	for _, c := range p.c.Jar.Cookies(u) {
		if c.Name == "flowmill-auth" {
			return c.Value
		}
	}
	return ""
}

const testPassword = "Passw0rd!"

// startAccounts runs a server with e-mail going to an in-process SMTP server, reachable at a
// public URL with a base path, so mailed links can be checked.
func startAccounts(t *testing.T, vars map[string]string) (*testEnv, *mailtest.Server) {
	t.Helper()
	smtp := mailtest.Start(t)
	env := map[string]string{
		"FLOWMILL_SMTP_HOST": smtp.Host, "FLOWMILL_SMTP_PORT": fmt.Sprint(smtp.Port), "FLOWMILL_SMTP_SSL": "false",
		"FLOWMILL_SMTP_SENDER": "Flowmill <flowmill@example.com>", "FLOWMILL_PUBLIC_URL": "https://flow.example.com/flow/",
		"FLOWMILL_BASE_PATH": "/flow/",
	}
	for k, v := range vars {
		env[k] = v
	}
	return startServer(t, env), smtp
}

// setUpOwner signs a new browser in as the default owner and sets the owner account up.
func setUpOwner(t *testing.T, e *testEnv) *person {
	t.Helper()
	owner := e.person()
	owner.ok(t, "GET", "rest/login", "", nil)
	owner.ok(t, "POST", "rest/owner", `{"email":"Owner@Example.com","firstName":"Olga","lastName":"Owner","password":"`+testPassword+`"}`, nil)
	return owner
}

// invite has owner invite email and returns the invitee's id and the mailed sign-up link.
func invite(t *testing.T, owner *person, smtp *mailtest.Server, email string) (string, *url.URL) {
	t.Helper()
	var out []inviteResult
	owner.ok(t, "POST", "rest/users", fmt.Sprintf(`[{"email":%q}]`, email), &out)
	require.Len(t, out, 1)
	require.Empty(t, out[0].User.Error)
	m := smtp.Next(t)
	links := m.Links()
	require.NotEmpty(t, links)
	link, err := url.Parse(links[len(links)-1])
	require.NoError(t, err)
	return *out[0].User.ID, link
}

// signUpMember invites email and completes the sign-up from the mailed link in a new browser.
func signUpMember(t *testing.T, owner *person, smtp *mailtest.Server, email, firstName string) (*person, string) {
	t.Helper()
	id, link := invite(t, owner, smtp, email)
	q := link.Query()
	m := owner.e.person()
	m.ok(t, "POST", "rest/users/"+q.Get("inviteeId"), fmt.Sprintf(`{"inviterId":%q,"token":%q,"firstName":%q,"lastName":"Member","password":%q}`,
		q.Get("inviterId"), q.Get("token"), firstName, testPassword), nil)
	return m, id
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	require.NoError(t, err)
	return u
}
