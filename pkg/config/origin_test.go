package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOrigin(t *testing.T) {
	for raw, want := range map[string]string{
		"https://Flow.Example.com/base/": "https://flow.example.com",
		"https://flow.example.com:443/":  "https://flow.example.com",
		"http://flow.example.com:80":     "http://flow.example.com",
		"http://localhost:5678/x?y#z":    "http://localhost:5678",
		"https://flow.example.com:80/":   "https://flow.example.com:80",
		"http://[::1]:5678/":             "http://[::1]:5678",
		" https://flow.example.com ":     "https://flow.example.com",
	} {
		got, err := Origin(raw)
		require.NoError(t, err, raw)
		require.Equal(t, want, got, raw)
	}
	for _, raw := range []string{"null", "", "ftp://x", "file:///etc/passwd", "https://", "http://%zz"} {
		_, err := Origin(raw)
		require.Error(t, err, raw)
	}
}

func TestWebhookSandboxNeedsASeparateOrigin(t *testing.T) {
	base := map[string]string{"FLOWMILL_DATA_DIR": t.TempDir()}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	c, err := Load(nil, env(base))
	require.NoError(t, err)
	require.True(t, c.WebhookSandbox, "on by default")

	for _, m := range []map[string]string{
		with("FLOWMILL_WEBHOOK_SANDBOX", "false"),
		with("FLOWMILL_WEBHOOK_SANDBOX", "false", "FLOWMILL_PUBLIC_URL", "https://flow.example.com/editor/", "FLOWMILL_WEBHOOK_URL", "https://FLOW.example.com:443/hooks/"),
	} {
		_, err := Load(nil, env(m))
		require.ErrorContains(t, err, "FLOWMILL_WEBHOOK_SANDBOX: may be false only when FLOWMILL_WEBHOOK_URL has an origin of its own")
	}
	for _, m := range []map[string]string{
		with("FLOWMILL_WEBHOOK_SANDBOX", "false", "FLOWMILL_WEBHOOK_URL", "https://hooks.example.com/"),
		with("FLOWMILL_WEBHOOK_SANDBOX", "false", "FLOWMILL_WEBHOOK_URL", "http://localhost:5679/"),
	} {
		c, err := Load(nil, env(m))
		require.NoError(t, err)
		require.False(t, c.WebhookSandbox)
	}
}

func TestDemoFrameOrigins(t *testing.T) {
	c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir(),
		"FLOWMILL_TEMPLATES_HOST":       "https://api.templates.example.com/v1/",
		"FLOWMILL_DEMO_FRAME_ANCESTORS": "https://blog.example.com,  http://localhost:3000 https://api.templates.example.com"}))
	require.NoError(t, err)
	require.Equal(t, []string{"https://api.templates.example.com", "https://blog.example.com", "http://localhost:3000"}, c.DemoFrameOrigins())

	c, err = Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir()}))
	require.NoError(t, err)
	require.Empty(t, c.DemoFrameOrigins())

	for _, bad := range []string{"blog.example.com", "https://blog.example.com/page", "'self'", "*"} {
		_, err := Load(nil, env(map[string]string{"FLOWMILL_DEMO_FRAME_ANCESTORS": bad}))
		require.ErrorContains(t, err, "FLOWMILL_DEMO_FRAME_ANCESTORS: "+`"`+bad+`" is not an origin such as https://templates.example.com`)
	}
	_, err = Load(nil, env(map[string]string{"FLOWMILL_TEMPLATES_HOST": "templates.example.com"}))
	require.ErrorContains(t, err, "FLOWMILL_TEMPLATES_HOST")
}
