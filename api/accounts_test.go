package main

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func cookieOf(res *http.Response) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == "flowmill-auth" {
			return c
		}
	}
	return nil
}

func TestOwnerSetupSignInAndSignOut(t *testing.T) {
	e, _ := startAccounts(t, nil)
	anon := e.person()
	status, b := anon.call(t, "GET", "rest/me", "")
	requireError(t, status, b, 401, "Unauthorized")

	// Before setup the browser is signed in as the password-less default owner.
	early := e.person()
	res, b := early.raw(t, "GET", "rest/login", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	var u userResponse
	decodeData(t, b, &u)
	require.True(t, u.IsPending)
	require.Nil(t, u.Email)
	require.Equal(t, roleResponse{ID: 1, Name: "owner", Scope: "global"}, u.GlobalRole)
	c := cookieOf(res)
	require.NotNil(t, c)
	require.True(t, c.HttpOnly)
	require.True(t, c.Secure, "the public URL is https")
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)
	require.Equal(t, "/flow/", c.Path)
	require.Equal(t, 7*24*3600, c.MaxAge)

	owner := e.person()
	owner.ok(t, "GET", "rest/login", "", nil)
	for _, bad := range []struct{ body, msg string }{
		{`{"email":"nope","firstName":"O","lastName":"W","password":"` + testPassword + `"}`, "Invalid email address"},
		{`{"email":"o@example.com","firstName":"","lastName":"W","password":"` + testPassword + `"}`, "firstName must be 1 to 32 characters long."},
		{`{"email":"o@example.com","firstName":"O","lastName":"` + strings.Repeat("x", 33) + `","password":"` + testPassword + `"}`, "lastName must be 1 to 32 characters long."},
		{`{"email":"o@example.com","firstName":"O","lastName":"W","password":"short"}`,
			"Password must be 8 to 64 characters long. Password must contain at least 1 number. Password must contain at least 1 uppercase letter."},
		{`{"email":"o@example.com","firstName":"O","lastName":"W","password":"` + strings.Repeat("A1", 33) + `"}`, "Password must be 8 to 64 characters long."},
		{`[1]`, "The body must be a JSON object"},
	} {
		status, b := owner.call(t, "POST", "rest/owner", bad.body)
		requireError(t, status, b, 400, bad.msg)
	}
	wf := e.createWorkflow(t, `{"name":"Before setup"}`)

	var created userResponse
	owner.ok(t, "POST", "rest/owner", `{"email":" Owner@Example.COM ","firstName":"Olga","lastName":"Owner","password":"`+testPassword+`"}`, &created)
	require.Equal(t, "owner@example.com", *created.Email, "e-mails are stored lower-case")
	require.False(t, created.IsPending)
	status, b = owner.call(t, "POST", "rest/owner", `{"email":"x@example.com","firstName":"X","lastName":"Y","password":"`+testPassword+`"}`)
	requireError(t, status, b, 409, "already set up")

	// The workflow made before setup belongs to the owner; the default-owner sessions ended.
	var got workflowJSON
	owner.ok(t, "GET", "rest/workflows/"+wf.ID, "", &got)
	status, _ = early.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status, "sessions of the default owner end at setup")
	status, b = anon.call(t, "GET", "rest/login", "")
	requireError(t, status, b, 401, "Unauthorized")

	var settings settingsResponse
	anon.ok(t, "GET", "rest/settings", "", &settings)
	require.False(t, settings.UserManagement.ShowSetupOnFirstLoad)
	require.True(t, settings.UserManagement.SMTPSetup)

	// Sign-in.
	status, b = anon.call(t, "POST", "rest/login", `{"email":"owner@example.com","password":"wrong"}`)
	requireError(t, status, b, 401, "Wrong username or password")
	status, b = anon.call(t, "POST", "rest/login", `{"email":"nobody@example.com","password":"`+testPassword+`"}`)
	requireError(t, status, b, 401, "Wrong username or password")
	status, b = anon.call(t, "POST", "rest/login", `{"email":"owner@example.com"}`)
	requireError(t, status, b, 400, "Email and password are both required")
	var me userResponse
	anon.ok(t, "POST", "rest/login", `{"email":"OWNER@example.com","password":"`+testPassword+`"}`, &me)
	require.Equal(t, created.ID, me.ID)
	anon.ok(t, "GET", "rest/me", "", &me)
	require.JSONEq(t, `null`, string(me.PersonalizationAnswers))

	// Sign-out removes the cookie.
	res, _ = anon.raw(t, "POST", "rest/logout", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, -1, cookieOf(res).MaxAge)
	status, _ = anon.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status)
	require.Empty(t, anon.session())
}

func TestSessionCookieRenewalAndExpiry(t *testing.T) {
	e, _ := startAccounts(t, map[string]string{"FLOWMILL_PUBLIC_URL": "http://flow.example.com/flow/"})
	owner := setUpOwner(t, e)
	first := owner.session()

	// A proxy that terminates TLS makes the cookie Secure.
	res, _ := owner.raw(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`, "X-Forwarded-Proto", "https")
	require.True(t, cookieOf(res).Secure)
	res, _ = owner.raw(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`)
	require.False(t, cookieOf(res).Secure)

	start := time.Now()
	e.srv.clock = func() time.Time { return start.Add(3 * 24 * time.Hour) }
	res, _ = owner.raw(t, "GET", "rest/me", "")
	require.Equal(t, 200, res.StatusCode)
	require.Nil(t, cookieOf(res), "4 days left: no renewal")

	e.srv.clock = func() time.Time { return start.Add(5 * 24 * time.Hour) }
	res, _ = owner.raw(t, "GET", "rest/me", "")
	require.Equal(t, 200, res.StatusCode)
	require.NotNil(t, cookieOf(res), "2 days left: renewed")
	require.NotEqual(t, first, owner.session())

	// The old cookie expires 7 days after it was issued, the renewed one later.
	stale := e.person()
	stale.c.Jar.SetCookies(mustURL(t, e.base), []*http.Cookie{{Name: "flowmill-auth", Value: first}})
	e.srv.clock = func() time.Time { return start.Add(7*24*time.Hour + time.Minute) }
	status, _ := stale.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status)
	status, _ = owner.call(t, "GET", "rest/me", "")
	require.Equal(t, 200, status)

	// A forged cookie is refused.
	forged := e.person()
	forged.c.Jar.SetCookies(mustURL(t, e.base), []*http.Cookie{{Name: "flowmill-auth", Value: first[:len(first)-2] + "xx"}})
	status, _ = forged.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status)
}

func TestProfileSurveyAndPasswordChange(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "ann@example.com", "Ann")
	otherBrowser := e.person()
	otherBrowser.ok(t, "POST", "rest/login", `{"email":"ann@example.com","password":"`+testPassword+`"}`, nil)

	var u userResponse
	member.ok(t, "PATCH", "rest/me", `{"id":"ignored","email":"Anne@Example.com","firstName":"Anne","lastName":"Lee"}`, &u)
	require.Equal(t, "anne@example.com", *u.Email)
	require.Equal(t, "Anne", *u.FirstName)
	status, b := member.call(t, "PATCH", "rest/me", `{"email":"owner@example.com","firstName":"Anne","lastName":"Lee"}`)
	requireError(t, status, b, 409, "already in use")
	status, b = member.call(t, "PATCH", "rest/me", `{"firstName":"Anne","lastName":"Lee"}`)
	requireError(t, status, b, 400, "Email is mandatory")
	status, b = member.call(t, "PATCH", "rest/me", `{"email":"anne@example.com","firstName":"`+strings.Repeat("a", 33)+`","lastName":"Lee"}`)
	requireError(t, status, b, 400, "firstName must be 1 to 32 characters long.")

	member.ok(t, "POST", "rest/me/survey", `{"version":"v2","codingSkill":"3","companyType":"saas","automationGoal":["finance-accounting"],"otherAutomationGoal":null}`, nil)
	member.ok(t, "GET", "rest/me", "", &u)
	require.JSONEq(t, `{"version":"v2","codingSkill":"3","companyType":"saas","automationGoal":["finance-accounting"],"otherAutomationGoal":null}`,
		string(u.PersonalizationAnswers))
	status, b = member.call(t, "POST", "rest/me/survey", `{"version":"v1"}`)
	requireError(t, status, b, 400, "Unsupported survey version")
	status, b = member.call(t, "POST", "rest/me/survey", `{"codingSkill":{"x":1}}`)
	requireError(t, status, b, 400, "Answer codingSkill must be a string")
	status, b = member.call(t, "POST", "rest/me/survey", `"yes"`)
	requireError(t, status, b, 400, "Personalization answers are mandatory")

	status, b = member.call(t, "PATCH", "rest/me/password", `{"currentPassword":"Wrong1234","newPassword":"N3wPassword"}`)
	requireError(t, status, b, 400, "Provided current password is incorrect.")
	status, b = member.call(t, "PATCH", "rest/me/password", `{"currentPassword":"`+testPassword+`","newPassword":"nocapital1"}`)
	requireError(t, status, b, 400, "Password must contain at least 1 uppercase letter.")
	status, b = member.call(t, "PATCH", "rest/me/password", `{"currentPassword":"`+testPassword+`"}`)
	requireError(t, status, b, 400, "currentPassword and newPassword are both required")
	before := member.session()
	member.ok(t, "PATCH", "rest/me/password", `{"currentPassword":"`+testPassword+`","newPassword":"N3wPassword"}`, nil)
	require.NotEqual(t, before, member.session(), "this browser gets a new cookie")
	member.ok(t, "GET", "rest/me", "", nil)
	status, _ = otherBrowser.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status, "a password change ends the other sessions")
	status, _ = e.person().call(t, "POST", "rest/login", `{"email":"anne@example.com","password":"`+testPassword+`"}`)
	require.Equal(t, 401, status)
	e.person().ok(t, "POST", "rest/login", `{"email":"anne@example.com","password":"N3wPassword"}`, nil)
}

func TestPasswordResetByMail(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, memberID := signUpMember(t, owner, smtp, "ann@example.com", "Ann")
	anon := e.person()

	status, b := anon.call(t, "POST", "rest/forgot-password", `{"email":"not-an-address"}`)
	requireError(t, status, b, 400, "Invalid email address")
	status, b = anon.call(t, "POST", "rest/forgot-password", `{}`)
	requireError(t, status, b, 400, "Email is mandatory")
	// Unknown and known addresses get the same answer; only the known one gets a mail (the
	// first mail to arrive is Ann's, so none went out for the unknown address).
	unknownStatus, unknownBody := anon.call(t, "POST", "rest/forgot-password", `{"email":"nobody@example.com"}`)
	knownStatus, knownBody := anon.call(t, "POST", "rest/forgot-password", `{"email":"ANN@example.com"}`)
	require.Equal(t, 200, unknownStatus)
	require.Equal(t, knownStatus, unknownStatus)
	require.Equal(t, string(knownBody), string(unknownBody))
	m := smtp.Next(t)
	require.Equal(t, "ann@example.com", m.To)
	require.Equal(t, "Reset your Flowmill password", m.Subject)
	link := mustURL(t, m.Links()[len(m.Links())-1])
	require.Equal(t, "https://flow.example.com/flow/change-password", link.Scheme+"://"+link.Host+link.Path)
	token, userID := link.Query().Get("token"), link.Query().Get("userId")
	require.Equal(t, memberID, userID)

	anon.ok(t, "GET", "rest/resolve-password-token?token="+token+"&userId="+userID, "", nil)
	status, b = anon.call(t, "GET", "rest/resolve-password-token?token=wrong&userId="+userID, "")
	requireError(t, status, b, 404, "invalid or has expired")
	status, b = anon.call(t, "GET", "rest/resolve-password-token?userId="+userID, "")
	requireError(t, status, b, 400, "token and userId are both required")

	body := func(pw string) string {
		raw, _ := json.Marshal(map[string]string{"token": token, "userId": userID, "password": pw})
		return string(raw)
	}
	status, b = anon.call(t, "POST", "rest/change-password", body("weak"))
	requireError(t, status, b, 400, "Password must be 8 to 64 characters long.")
	status, b = anon.call(t, "POST", "rest/change-password", `{"token":"`+token+`","userId":"`+userID+`"}`)
	requireError(t, status, b, 400, "Missing user ID or password or reset password token")
	res, b := anon.raw(t, "POST", "rest/change-password", body("Res3tPassword"))
	require.Equal(t, 200, res.StatusCode, string(b))
	require.NotNil(t, cookieOf(res), "the browser is signed in")
	anon.ok(t, "GET", "rest/me", "", nil)
	status, b = e.person().call(t, "POST", "rest/change-password", body("An0therPassword"))
	requireError(t, status, b, 404, "invalid or has expired")
	status, _ = member.call(t, "GET", "rest/me", "")
	require.Equal(t, 401, status, "the reset ends older sessions")
	e.person().ok(t, "POST", "rest/login", `{"email":"ann@example.com","password":"Res3tPassword"}`, nil)

	// Links expire after two hours.
	anon.ok(t, "POST", "rest/forgot-password", `{"email":"ann@example.com"}`, nil)
	link = mustURL(t, smtp.Next(t).Links()[1])
	e.srv.clock = func() time.Time { return time.Now().Add(2*time.Hour + time.Second) }
	status, _ = anon.call(t, "GET", "rest/resolve-password-token?"+link.RawQuery, "")
	require.Equal(t, 404, status)
}

func TestWithoutMailInvitesAndResetsAreRefused(t *testing.T) {
	e := startServer(t, nil)
	owner := e.person()
	owner.ok(t, "GET", "rest/login", "", nil)
	owner.ok(t, "POST", "rest/owner", `{"email":"o@example.com","firstName":"O","lastName":"W","password":"`+testPassword+`"}`, nil)
	var settings settingsResponse
	owner.ok(t, "GET", "rest/settings", "", &settings)
	require.False(t, settings.UserManagement.SMTPSetup)
	status, b := owner.call(t, "POST", "rest/users", `[{"email":"a@example.com"}]`)
	requireError(t, status, b, 400, "Email sending must be set up")
	status, b = e.person().call(t, "POST", "rest/forgot-password", `{"email":"o@example.com"}`)
	requireError(t, status, b, 400, "Email sending must be set up")
}

func TestRateLimitsOnSignInAndReset(t *testing.T) {
	e, smtp := startAccounts(t, map[string]string{"FLOWMILL_TRUSTED_PROXIES": "127.0.0.1"})
	setUpOwner(t, e)
	e.srv.limits.loginPair.Limit = 3
	e.srv.limits.loginIP.Limit = 5
	e.srv.limits.loginBackoff.Free = 100
	e.srv.limits.resetAccount.Limit = 1
	attacker := e.from("203.0.113.7")
	for range 3 {
		status, _ := attacker.call(t, "POST", "rest/login", `{"email":"owner@example.com","password":"Guess1234"}`)
		require.Equal(t, 401, status)
	}
	res, b := attacker.raw(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`)
	requireError(t, res.StatusCode, b, 429, "Too many attempts")
	wait, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.True(t, wait >= 1 && wait <= 900, "Retry-After %d is within the 15-minute window", wait)

	// The owner, signing in from elsewhere, is not locked out by the stranger's attempts.
	e.from("198.51.100.20").ok(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`, nil)

	// Other accounts from the attacker's address run into the per-IP limit.
	status, _ := attacker.call(t, "POST", "rest/login", `{"email":"other@example.com","password":"Guess1234"}`)
	require.Equal(t, 401, status, "fifth attempt from one address")
	status, _ = attacker.call(t, "POST", "rest/login", `{"email":"other@example.com","password":"Guess1234"}`)
	require.Equal(t, 429, status, "sixth attempt from one address")

	// The limits live in Redis, so a second api on the same Redis enforces them too.
	second := startServer(t, map[string]string{"FLOWMILL_REDIS_URL": e.redisURL, "FLOWMILL_DATABASE_URL": e.dbURL, "FLOWMILL_TRUSTED_PROXIES": "127.0.0.1"})
	second.srv.limits = e.srv.limits
	status, _ = second.from("203.0.113.7").call(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`)
	require.Equal(t, 429, status)

	e.person().ok(t, "POST", "rest/forgot-password", `{"email":"owner@example.com"}`, nil)
	smtp.Next(t)
	res, b = e.person().raw(t, "POST", "rest/forgot-password", `{"email":"owner@example.com"}`)
	requireError(t, res.StatusCode, b, 429, "Too many attempts")
	require.NotEmpty(t, res.Header.Get("Retry-After"))
}

func TestFailedSignInsFromOneAddressWaitLongerEachTime(t *testing.T) {
	e, _ := startAccounts(t, map[string]string{"FLOWMILL_TRUSTED_PROXIES": "127.0.0.1"})
	setUpOwner(t, e)
	e.srv.limits.loginBackoff.Free = 2
	now := time.Now()
	e.srv.clock = func() time.Time { return now }
	attacker := e.from("203.0.113.9")
	guess := func(email string) (int, string) {
		res, b := attacker.raw(t, "POST", "rest/login", `{"email":"`+email+`","password":"Guess1234"}`)
		return res.StatusCode, res.Header.Get("Retry-After") + " " + string(b)
	}
	for range 2 {
		status, b := guess("owner@example.com")
		require.Equal(t, 401, status, b)
	}
	// The third attempt is let through and sets a 1 s wait; the next one within it is refused,
	// whatever account it names.
	status, b := guess("owner@example.com")
	require.Equal(t, 401, status, b)
	status, b = guess("someone@example.com")
	require.Equal(t, 429, status, b)
	require.True(t, strings.HasPrefix(b, "1 "), "Retry-After: %s", b)
	now = now.Add(time.Second)
	status, b = guess("owner@example.com")
	require.Equal(t, 401, status, b)
	status, b = guess("owner@example.com")
	require.Equal(t, 429, status, b)
	require.True(t, strings.HasPrefix(b, "2 "), "the wait doubles: %s", b)
	now = now.Add(2 * time.Second)
	status, b = guess("owner@example.com")
	require.Equal(t, 401, status, b)
	status, b = guess("owner@example.com")
	require.True(t, strings.HasPrefix(b, "4 "), "the wait doubles again: %s", b)
	require.Equal(t, 429, status, b)

	// Meanwhile the owner signs in from another address at once.
	e.from("198.51.100.20").ok(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`, nil)
}
