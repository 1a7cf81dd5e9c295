package main

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRoutePermissionMatrix calls every /rest route of the route table (read at test time, so
// routes added later are covered) as each kind of caller and checks the access rule: anonymous
// callers get 401 on every route that is not public; a signed-in caller gets 403 when a deny rule
// matches (member on owner routes, the default user on account routes) before any allow rule is
// looked at, and otherwise reaches the handler.
func TestRoutePermissionMatrix(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	rows := e.srv.routes()
	var rest []route
	for _, r := range rows {
		if strings.HasPrefix(r.path, "/rest/") {
			rest = append(rest, r)
		}
	}
	require.Greater(t, len(rest), 30, "the table has the account routes")

	// Before setup: anonymous and the default user.
	def := e.person()
	def.ok(t, "GET", "rest/login", "", nil)
	before := map[string]string{"anonymous": "", "default": def.session()}
	checkMatrix(t, e, rest, before)

	// After setup: anonymous, a member and the owner.
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "member@example.com", "Mia")
	after := map[string]string{"anonymous": "", "member": member.session(), "owner": owner.session()}
	checkMatrix(t, e, rest, after)

	// Public API rows need a key whoever calls: a session cookie is not enough.
	keyed := 0
	for _, r := range rows {
		if r.access != apiKey {
			continue
		}
		keyed++
		path := pathParam.ReplaceAllString(r.path, "1")
		req, err := http.NewRequest(r.method, e.base+strings.TrimPrefix(path, "/"), strings.NewReader("{}"))
		require.NoError(t, err)
		req.AddCookie(&http.Cookie{Name: "flowmill-auth", Value: owner.session()})
		res, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 401, res.StatusCode, "%s %s without a key", r.method, r.path)
	}
	require.Greater(t, keyed, 10)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var pathParam = regexp.MustCompile(`:[A-Za-z]+|\*`)

func checkMatrix(t *testing.T, e *testEnv, rows []route, callers map[string]string) {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second}
	// Signing out ends the caller's session, so it comes last.
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b route) int {
		return cmp.Compare(boolInt(a.path == "/rest/logout"), boolInt(b.path == "/rest/logout"))
	})
	for _, r := range rows {
		path := pathParam.ReplaceAllString(r.path, "matrix-missing")
		for who, cookie := range callers {
			req, err := http.NewRequest(r.method, e.base+strings.TrimPrefix(path, "/"), strings.NewReader("{}"))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if cookie != "" {
				req.AddCookie(&http.Cookie{Name: "flowmill-auth", Value: cookie})
			}
			res, err := client.Do(req)
			require.NoError(t, err, "%s %s as %s", r.method, path, who)
			res.Body.Close()
			want := expectedAccess(r.access, who)
			label := fmt.Sprintf("%s %s as %s: status %d", r.method, r.path, who, res.StatusCode)
			switch want {
			case 401, 403:
				require.Equal(t, want, res.StatusCode, label)
			default:
				require.NotEqual(t, 403, res.StatusCode, label)
				if r.access != public {
					require.NotEqual(t, 401, res.StatusCode, label)
				}
			}
		}
	}
}

// expectedAccess is the one table of the rules: the status a caller gets from the guard, 0 when
// the guard lets the call through to its handler.
func expectedAccess(a access, who string) int {
	if a == public {
		return 0
	}
	if who == "anonymous" {
		return 401
	}
	deny := map[access][]string{ownerOnly: {"member"}, accountOnly: {"default"}}
	for _, denied := range deny[a] {
		if denied == who {
			return 403
		}
	}
	return 0
}
