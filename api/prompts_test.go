package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuiltInPromptsHost drives the built-in prompts host over HTTP as the editor does: the
// contact prompt first, then the value survey, answers checked and kept, listed for the owner only.
func TestBuiltInPromptsHost(t *testing.T) {
	e, smtp := startAccounts(t, map[string]string{"FLOWMILL_PROMPTS_ENABLED": "true"})
	owner := setUpOwner(t, e)
	member, memberID := signUpMember(t, owner, smtp, "member@example.com", "Mia")

	var settings struct {
		Prompts promptsSettings `json:"prompts"`
	}
	owner.ok(t, "GET", "rest/settings", "", &settings)
	require.Equal(t, promptsSettings{Enabled: true, Host: "/flow/rest/prompts-host"}, settings.Prompts)

	get := func(p *person) map[string]any {
		t.Helper()
		status, b := p.call(t, "GET", "rest/prompts-host/prompts", "")
		require.Equal(t, 200, status, string(b))
		var out map[string]any
		require.NoError(t, json.Unmarshal(b, &out), "answered as an outside host would, not wrapped in data")
		return out
	}
	first := get(member)
	require.Equal(t, true, first["showContactPrompt"])
	require.Equal(t, false, first["showValueSurvey"])
	require.NotEmpty(t, first["title"])

	for _, tt := range []struct{ path, body, want string }{
		{"rest/prompts-host/prompt", `{"email":"nope"}`, `"nope" is not a valid email`},
		{"rest/prompts-host/prompt", `{}`, "email is required"},
		{"rest/prompts-host/prompt", `[1]`, "The body must be JSON"},
		{"rest/prompts-host/value-survey", `{"email":"a@example.com"}`, "value is missing"},
		{"rest/prompts-host/value-survey", `{"value":12}`, "from 0 to 10, got 12"},
		{"rest/prompts-host/value-survey", `{"value":3.5}`, "The body must be JSON"},
	} {
		status, b := member.call(t, "POST", tt.path, tt.body)
		require.Equal(t, 400, status, "%s %s: %s", tt.path, tt.body, b)
		var body struct{ Message string }
		require.NoError(t, json.Unmarshal(b, &body))
		require.Contains(t, body.Message, tt.want)
	}

	status, b := member.call(t, "POST", "rest/prompts-host/prompt", `{"email":"mia@example.com"}`)
	require.Equal(t, 200, status, string(b))
	require.JSONEq(t, `{"updated":true}`, string(b))
	require.Equal(t, true, get(member)["showValueSurvey"])
	status, b = member.call(t, "POST", "rest/prompts-host/value-survey", `{"value":9,"email":"mia@example.com"}`)
	require.Equal(t, 200, status, string(b))
	require.Equal(t, map[string]any{"showContactPrompt": false, "showValueSurvey": false}, get(member))

	// The owner reads the answers; a member may not.
	status, _ = member.call(t, "GET", "rest/prompt-answers", "")
	require.Equal(t, 403, status)
	var answers []promptAnswerResponse
	owner.ok(t, "GET", "rest/prompt-answers", "", &answers)
	require.Len(t, answers, 2)
	require.Equal(t, "valueSurvey", answers[0].Kind)
	require.Equal(t, 9, *answers[0].Value)
	require.Equal(t, "member@example.com", answers[0].UserEmail)
	require.Equal(t, "contact", answers[1].Kind)
	require.Equal(t, "mia@example.com", answers[1].Email)
	require.Nil(t, answers[1].Value)

	// A deleted user's answers go with them.
	owner.ok(t, "DELETE", "rest/users/"+memberID, "", nil)
	owner.ok(t, "GET", "rest/prompt-answers", "", &answers)
	require.Empty(t, answers)
}

// TestPromptsOffByDefault: the built-in host answers 404 and the settings say prompts are off;
// with an outside host the built-in one stays off and the host's origin may be called.
func TestPromptsOffByDefault(t *testing.T) {
	e := startServer(t, nil)
	owner := e.person()
	owner.ok(t, "GET", "rest/login", "", nil)
	var settings struct {
		Prompts promptsSettings `json:"prompts"`
	}
	owner.ok(t, "GET", "rest/settings", "", &settings)
	require.Equal(t, promptsSettings{Enabled: false, Host: "/rest/prompts-host"}, settings.Prompts)
	status, b := owner.call(t, "GET", "rest/prompts-host/prompts", "")
	require.Equal(t, 404, status)
	require.Contains(t, string(b), "FLOWMILL_PROMPTS_ENABLED=true")
	res, _ := owner.raw(t, "GET", "", "")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "connect-src 'self';")

	outside := startServer(t, map[string]string{"FLOWMILL_PROMPTS_ENABLED": "true", "FLOWMILL_PROMPTS_HOST": "https://prompts.example.com/api"})
	p := outside.person()
	p.ok(t, "GET", "rest/login", "", nil)
	p.ok(t, "GET", "rest/settings", "", &settings)
	require.Equal(t, promptsSettings{Enabled: true, Host: "https://prompts.example.com/api"}, settings.Prompts)
	status, _ = p.call(t, "GET", "rest/prompts-host/prompts", "")
	require.Equal(t, 404, status)
	res, _ = p.raw(t, "GET", "", "")
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "connect-src 'self' https://prompts.example.com;")
}
