package main

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/auth"
)

// remoteSetup runs a fresh instance (no owner yet) behind a trusted proxy on loopback, so
// X-Forwarded-For stands for callers on other machines.
func remoteSetup(t *testing.T, vars map[string]string) *testEnv {
	env := map[string]string{"FLOWMILL_TRUSTED_PROXIES": "127.0.0.1/32"}
	for k, v := range vars {
		env[k] = v
	}
	return startServer(t, env)
}

func TestDefaultOwnerIsOnlyForLocalCallersOrTheSetupToken(t *testing.T) {
	e := remoteSetup(t, nil)
	token := auth.SetupToken(e.cfg.EncryptionKey)

	// A stranger gets no session, and no REST call answers them.
	stranger := e.from("203.0.113.5")
	status, b := stranger.call(t, "GET", "rest/login", "")
	requireError(t, status, b, 401, "only open on the machine it runs on")
	require.Empty(t, stranger.session())
	status, _ = stranger.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 401, status)
	status, _ = stranger.call(t, "POST", "rest/owner", `{"email":"evil@example.com","firstName":"E","lastName":"V","password":"Passw0rd!"}`)
	require.Equal(t, 401, status)
	status, b = stranger.call(t, "GET", "rest/login?setupToken=wrong", "")
	requireError(t, status, b, 401, "This setup link is not valid")

	// A request forwarded by a proxy that is not trusted is never taken for a local one.
	untrusted := startServer(t, nil)
	res, b := untrusted.do(t, "GET", "rest/login", "", "X-Forwarded-For", "127.0.0.1")
	requireError(t, res.StatusCode, b, 401, "only open on the machine it runs on")

	// A session opened locally does not work from elsewhere.
	local := e.person()
	local.ok(t, "GET", "rest/login", "", nil)
	stolen := e.from("203.0.113.5")
	stolen.c.Jar = local.c.Jar
	status, _ = stolen.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 401, status, "the default owner's local session from another address")
	local.ok(t, "GET", "rest/workflows", "", nil)

	// The setup link's token opens a session that works from anywhere, and setup goes on.
	admin := e.from("198.51.100.9")
	var u userResponse
	admin.ok(t, "GET", "rest/login?setupToken="+token, "", &u)
	require.True(t, isDefaultUserResponse(u))
	admin.ok(t, "GET", "rest/workflows", "", nil)

	// Skipping setup leaves the instance closed to strangers.
	admin.ok(t, "POST", "rest/owner/skip-setup", "", nil)
	status, _ = e.from("203.0.113.6").call(t, "GET", "rest/login", "")
	require.Equal(t, 401, status)
	admin.ok(t, "POST", "rest/owner", `{"email":"owner@example.com","firstName":"O","lastName":"W","password":"Passw0rd!"}`, nil)

	// Once the owner exists the token opens nothing, and every default-owner session has ended.
	status, _ = e.from("203.0.113.6").call(t, "GET", "rest/login?setupToken="+token, "")
	require.Equal(t, 401, status)
	status, _ = e.person().call(t, "GET", "rest/login", "")
	require.Equal(t, 401, status, "a local caller no longer gets the default owner either")
	status, _ = local.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 401, status)
	admin.ok(t, "GET", "rest/me", "", nil)
}

func isDefaultUserResponse(u userResponse) bool { return u.GlobalRole.Name == "owner" && u.IsPending }

func TestWithoutUserManagementStrangersNeedTheSetupToken(t *testing.T) {
	e := remoteSetup(t, map[string]string{"FLOWMILL_USER_MANAGEMENT_DISABLED": "true"})
	stranger := e.from("203.0.113.5")
	status, _ := stranger.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 401, status)
	status, _ = stranger.call(t, "GET", "rest/login", "")
	require.Equal(t, 401, status)
	stranger.ok(t, "GET", "rest/login?setupToken="+auth.SetupToken(e.cfg.EncryptionKey), "", nil)
	stranger.ok(t, "GET", "rest/workflows", "", nil)
	e.person().ok(t, "GET", "rest/workflows", "", nil)
}

func TestSignOutEndsTheSessionOnEveryReplica(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	second := startServer(t, map[string]string{"FLOWMILL_REDIS_URL": e.redisURL, "FLOWMILL_DATABASE_URL": e.dbURL,
		"FLOWMILL_BASE_PATH": "/flow/"})
	cookie := owner.session()
	require.NotEmpty(t, cookie)
	withCookie := func(env *testEnv) int {
		res, _ := env.do(t, "GET", "rest/me", "", "Cookie", auth.CookieName+"="+cookie)
		return res.StatusCode
	}
	require.Equal(t, http.StatusOK, withCookie(e))
	require.Equal(t, http.StatusOK, withCookie(second))

	// Another session of the same user is not affected.
	other := e.person()
	other.ok(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`, nil)

	owner.ok(t, "POST", "rest/logout", "", nil)
	require.Empty(t, owner.session())
	require.Equal(t, http.StatusUnauthorized, withCookie(e), "the old cookie, replayed")
	require.Equal(t, http.StatusUnauthorized, withCookie(second), "on another replica")
	other.ok(t, "GET", "rest/me", "", nil)

	// Signing out twice, or without a session, is fine.
	res, _ := e.do(t, "POST", "rest/logout", "", "Cookie", auth.CookieName+"="+cookie)
	require.Equal(t, http.StatusOK, res.StatusCode)
	res, _ = e.do(t, "POST", "rest/logout", "")
	require.Equal(t, http.StatusOK, res.StatusCode)
}
