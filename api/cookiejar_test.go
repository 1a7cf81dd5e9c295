package main

import (
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// hostJar is a cookie jar that keeps cookies per host:port, unlike net/http/cookiejar, which
// shares them across ports: every test server listens on its own port of 127.0.0.1, and each
// has its own sessions.
type hostJar struct {
	mu      sync.Mutex
	cookies map[string]map[string]*http.Cookie
}

func newHostJar() *hostJar { return &hostJar{cookies: map[string]map[string]*http.Cookie{}} }

func (j *hostJar) SetCookies(u *url.URL, cookies []*http.Cookie) {
	j.mu.Lock()
	defer j.mu.Unlock()
	m := j.cookies[u.Host]
	if m == nil {
		m = map[string]*http.Cookie{}
		j.cookies[u.Host] = m
	}
	for _, c := range cookies {
		if c.MaxAge < 0 || (!c.Expires.IsZero() && c.Expires.Before(time.Now())) {
			delete(m, c.Name)
			continue
		}
		m[c.Name] = c
	}
}

func (j *hostJar) Cookies(u *url.URL) []*http.Cookie {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []*http.Cookie
	for _, c := range j.cookies[u.Host] {
		out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	return out
}

// The tests' default client acts as one browser per server: signInDefault signs it in, and every
// later call through http.Get or http.DefaultClient carries that server's session.
func init() { http.DefaultClient.Jar = newHostJar() }

// signInDefault signs the default client in at base as the default owner, as the editor does on
// load. Once an owner is set up (a second server on a used database) nobody is signed in.
func signInDefault(t *testing.T, base string) {
	t.Helper()
	res, err := http.Get(base + "rest/login")
	require.NoError(t, err)
	res.Body.Close()
	require.Contains(t, []int{200, 401}, res.StatusCode, "sign in as the default owner at %s", base)
}

// browser is a client with its own cookies: one person's browser.
func browser() *http.Client { return &http.Client{Jar: newHostJar()} }
