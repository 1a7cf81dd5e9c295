package config

import (
	"flag"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the settings table in README.md")

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDefaults(t *testing.T) {
	c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir()}))
	require.NoError(t, err)
	require.Equal(t, 5678, c.Port)
	require.Equal(t, "/", c.BasePath)
	require.Equal(t, "http://localhost:5678/", c.PublicURL)
	require.Equal(t, c.PublicURL, c.WebhookURL)
	require.True(t, c.Embedded())
	require.True(t, c.SQLite())
	require.Equal(t, 10, c.WorkerConcurrency)
	require.Equal(t, 10*time.Millisecond, c.QueuePollInterval)
	require.Equal(t, "America/New_York", c.Timezone)
	require.Equal(t, -1, c.ExecutionsTimeout)
	timeout, memory := c.ScriptLimits()
	require.Equal(t, 60*time.Second, timeout)
	require.Equal(t, int64(256<<20), memory)
}

func TestScriptLimits(t *testing.T) {
	for _, tt := range []struct {
		timeout, memory string
		wantTimeout     time.Duration
		wantMemory      int64
		wantErr         string
	}{
		{"5", "64", 5 * time.Second, 64 << 20, ""},
		{"0", "0", 0, -1, ""},
		{"-1", "1", 0, 1 << 20, ""},
		{"-2", "256", 0, 0, "FLOWMILL_SCRIPT_TIMEOUT"},
		{"60", "-1", 0, 0, "FLOWMILL_SCRIPT_MEMORY_LIMIT"},
	} {
		c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir(),
			"FLOWMILL_SCRIPT_TIMEOUT": tt.timeout, "FLOWMILL_SCRIPT_MEMORY_LIMIT": tt.memory}))
		if tt.wantErr != "" {
			require.ErrorContains(t, err, tt.wantErr)
			continue
		}
		require.NoError(t, err)
		timeout, memory := c.ScriptLimits()
		require.Equal(t, tt.wantTimeout, timeout, tt.timeout)
		require.Equal(t, tt.wantMemory, memory, tt.memory)
	}
}

func TestDataDirTilde(t *testing.T) {
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	c, err := Load(nil, env(nil))
	require.NoError(t, err)
	require.Equal(t, filepath.Join(home, ".flowmill"), c.DataDir)
}

func TestFlagsOverrideEnv(t *testing.T) {
	c, err := Load([]string{"--port", "7000", "--base-path=flow/mill"},
		env(map[string]string{"FLOWMILL_PORT": "6000", "FLOWMILL_DATA_DIR": "/tmp/x"}))
	require.NoError(t, err)
	require.Equal(t, 7000, c.Port)
	require.Equal(t, "/flow/mill/", c.BasePath)
	require.Equal(t, "http://localhost:7000/flow/mill/", c.PublicURL)
}

func TestScaledMode(t *testing.T) {
	c, err := Load(nil, env(map[string]string{
		"FLOWMILL_DATABASE_URL": "postgres://u:p@127.0.0.1:5432/db",
		"FLOWMILL_REDIS_URL":    "redis://127.0.0.1:6379/0",
	}))
	require.NoError(t, err)
	require.False(t, c.Embedded())
	require.False(t, c.SQLite())
	require.Equal(t, 5*time.Second, c.ShutdownDrain, "replicas behind a balancer drain by default")
}

func TestShutdownDrain(t *testing.T) {
	c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir()}))
	require.NoError(t, err)
	require.Zero(t, c.ShutdownDrain, "the embedded default stops at once")
	c, err = Load([]string{"--shutdown-drain=0s"}, env(map[string]string{
		"FLOWMILL_DATABASE_URL": "postgres://u:p@127.0.0.1:5432/db", "FLOWMILL_REDIS_URL": "redis://127.0.0.1:6379/0"}))
	require.NoError(t, err)
	require.Zero(t, c.ShutdownDrain, "0 is kept in scaled mode")
	c, err = Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir(), "FLOWMILL_SHUTDOWN_DRAIN": "1500ms"}))
	require.NoError(t, err)
	require.Equal(t, 1500*time.Millisecond, c.ShutdownDrain)
}

func TestValidationMessages(t *testing.T) {
	cases := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{env: map[string]string{"FLOWMILL_DATABASE_URL": "mysql://x"}, want: "FLOWMILL_DATABASE_URL: scheme must be postgres or postgresql"},
		{env: map[string]string{"FLOWMILL_DATABASE_URL": "postgres://u:secret@[::1"}, want: "FLOWMILL_DATABASE_URL: not a valid URL"},
		{env: map[string]string{"FLOWMILL_REDIS_URL": "http://x"}, want: "FLOWMILL_REDIS_URL: scheme must be redis or rediss"},
		{env: map[string]string{"FLOWMILL_PORT": "abc"}, want: `FLOWMILL_PORT: "abc" is not a whole number`},
		{env: map[string]string{"FLOWMILL_PORT": "70000"}, want: "FLOWMILL_PORT: 70000 is not a port"},
		{env: map[string]string{"FLOWMILL_LOG_LEVEL": "loud"}, want: `FLOWMILL_LOG_LEVEL: "loud" is not one of debug, info, warn, error`},
		{env: map[string]string{"FLOWMILL_WORKER_CONCURRENCY": "0"}, want: "FLOWMILL_WORKER_CONCURRENCY: 0 is outside 1–1000"},
		{env: map[string]string{"FLOWMILL_TIMEZONE": "Mars/Olympus"}, want: `unknown time zone "Mars/Olympus"`},
		{env: map[string]string{"FLOWMILL_SHUTDOWN_TIMEOUT": "soon"}, want: "is not a duration"},
		{env: map[string]string{"FLOWMILL_SHUTDOWN_DRAIN": "-1s"}, want: `FLOWMILL_SHUTDOWN_DRAIN: "-1s" is not a duration of 0 or more`},
		{env: map[string]string{"FLOWMILL_ENCRYPTION_KEY": "short"}, want: "at least 16 characters"},
		{env: map[string]string{"FLOWMILL_EGRESS_ALLOW": "10.0.0.0/8, 10.0.0.300"},
			want: `FLOWMILL_EGRESS_ALLOW: "10.0.0.300" is not an IP address or CIDR network (such as 10.0.0.0/8, 192.168.1.5 or fd00::/8)`},
		{env: map[string]string{"FLOWMILL_EGRESS_DENY": "metadata.internal"}, want: `FLOWMILL_EGRESS_DENY: "metadata.internal" is not an IP address or CIDR network`},
		{env: map[string]string{"FLOWMILL_UNPACK_MAX_SIZE": "0"}, want: "FLOWMILL_UNPACK_MAX_SIZE: 0 MiB is outside 1–65536"},
		{env: map[string]string{"FLOWMILL_PPROF_ADDR": "0.0.0.0:6060"}, want: `FLOWMILL_PPROF_ADDR: "0.0.0.0:6060" is not a loopback address`},
		{env: map[string]string{"FLOWMILL_PPROF_ADDR": ":6060"}, want: `FLOWMILL_PPROF_ADDR: ":6060" is not a loopback address`},
		{env: map[string]string{"FLOWMILL_PPROF_ADDR": "10.1.2.3:6060"}, want: `is not a loopback address`},
		{env: map[string]string{"FLOWMILL_PPROF_ADDR": "127.0.0.1"}, want: `FLOWMILL_PPROF_ADDR: "127.0.0.1" is not host:port`},
		{env: map[string]string{"FLOWMILL_PPROF_ADDR": "127.0.0.1:99999"}, want: `has no port 0–65535`},
		{args: []string{"--nope=1"}, want: "unknown setting --nope"},
		{args: []string{"--port"}, want: "--port needs a value"},
	}
	for _, tc := range cases {
		_, err := Load(tc.args, env(tc.env))
		require.Error(t, err, "%v %v", tc.env, tc.args)
		require.Contains(t, err.Error(), tc.want)
		require.NotContains(t, err.Error(), "secret", "a password leaked into an error")
		require.NotContains(t, err.Error(), "\n", "an error must be one line")
	}
}

func TestRedacted(t *testing.T) {
	c, err := Load(nil, env(map[string]string{
		"FLOWMILL_DATABASE_URL":   "postgres://user:hunter22@db:5432/flowmill",
		"FLOWMILL_REDIS_URL":      "redis://:redispass@cache:6379",
		"FLOWMILL_ENCRYPTION_KEY": "0123456789abcdef-key",
	}))
	require.NoError(t, err)
	dump := strings.Join(c.Redacted(), "\n")
	require.NotContains(t, dump, "hunter22")
	require.NotContains(t, dump, "redispass")
	require.NotContains(t, dump, "0123456789abcdef-key")
	require.Contains(t, dump, "FLOWMILL_DATABASE_URL=postgres://user:xxxxx@db:5432/flowmill")
	require.Contains(t, dump, "FLOWMILL_ENCRYPTION_KEY=(set)")
	require.Contains(t, dump, "FLOWMILL_PORT=5678")
}

func TestEncryptionKeyGeneratedOnceAndReused(t *testing.T) {
	dir := t.TempDir()
	load := func() *Config {
		c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": dir}))
		require.NoError(t, err)
		require.NoError(t, c.EnsureEncryptionKey())
		return c
	}
	first := load()
	require.Len(t, first.EncryptionKey, 48)
	info, err := os.Stat(filepath.Join(dir, "config"))
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	require.Equal(t, first.EncryptionKey, load().EncryptionKey)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "config"), []byte("{"), 0o600))
	c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": dir}))
	require.NoError(t, err)
	require.ErrorContains(t, c.EnsureEncryptionKey(), "holds no readable encryptionKey")
}

func TestGivenKeyIsKept(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": dir, "FLOWMILL_ENCRYPTION_KEY": "a-key-of-enough-length"}))
	require.NoError(t, err)
	require.NoError(t, c.EnsureEncryptionKey())
	require.Equal(t, "a-key-of-enough-length", c.EncryptionKey)
	_, err = os.Stat(filepath.Join(dir, "config"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// TestREADMEListsEverySetting keeps the README's settings table generated from the registry.
// Run with -update to rewrite it.
func TestREADMEListsEverySetting(t *testing.T) {
	const start, end = "<!-- settings:start -->\n", "<!-- settings:end -->"
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, start), strings.Index(doc, end)
	require.True(t, i >= 0 && j > i, "README.md lacks the settings markers")
	want := doc[:i+len(start)] + Markdown() + doc[j:]
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, doc, "README.md settings table is out of date: go test ./pkg/config -run TestREADME -update")
}

func TestEgressPolicy(t *testing.T) {
	c, err := Load(nil, env(map[string]string{"FLOWMILL_EGRESS_ALLOW": "169.254.169.254", "FLOWMILL_EGRESS_DENY": "203.0.113.0/24, 2001:db8::/32"}))
	require.NoError(t, err)
	p := c.Egress()
	require.NoError(t, p.Check(netip.MustParseAddr("169.254.169.254")))
	require.Error(t, p.Check(netip.MustParseAddr("169.254.1.1")))
	require.Error(t, p.Check(netip.MustParseAddr("203.0.113.7")))
	require.Error(t, p.Check(netip.MustParseAddr("2001:db8::7")))
	require.NoError(t, p.Check(netip.MustParseAddr("127.0.0.1")))
	require.Error(t, p.Strict().Check(netip.MustParseAddr("127.0.0.1")))

	// By default only the built-in refusals apply.
	c, err = Load(nil, env(nil))
	require.NoError(t, err)
	require.Error(t, c.Egress().Check(netip.MustParseAddr("169.254.169.254")))
	require.NoError(t, c.Egress().Check(netip.MustParseAddr("203.0.113.7")))
}

func TestDocsAndIssuesURLs(t *testing.T) {
	c, err := Load(nil, env(nil))
	require.NoError(t, err)
	require.Empty(t, c.DocsURL)
	require.Equal(t, "https://github.com/flowmill/flowmill/issues", c.IssuesURL)
	_, err = Load(nil, env(map[string]string{"FLOWMILL_DOCS_URL": "ftp://docs.example.com"}))
	require.ErrorContains(t, err, "FLOWMILL_DOCS_URL")
	_, err = Load(nil, env(map[string]string{"FLOWMILL_ISSUES_URL": "https://"}))
	require.ErrorContains(t, err, "FLOWMILL_ISSUES_URL")
	c, err = Load(nil, env(map[string]string{"FLOWMILL_DOCS_URL": "https://docs.example.com/flowmill/", "FLOWMILL_ISSUES_URL": "https://issues.example.com/"}))
	require.NoError(t, err)
	require.Equal(t, "https://docs.example.com/flowmill/", c.DocsURL)
	require.Equal(t, "https://issues.example.com/", c.IssuesURL)
}

func TestVersionNotifications(t *testing.T) {
	for _, tt := range []struct {
		name                    string
		enabled, endpoint, info string
		wantEnabled             bool
		wantEndpoint, wantErr   string
	}{
		{name: "off by default", wantEndpoint: DefaultVersionsEndpoint},
		{name: "on with Flowmill's own feed by default", enabled: "true", wantEnabled: true, wantEndpoint: DefaultVersionsEndpoint},
		{name: "on with an endpoint", enabled: "true", endpoint: "https://versions.example.com/api/versions/",
			info: "https://docs.example.com/updating", wantEnabled: true, wantEndpoint: "https://versions.example.com/api/versions/"},
		{name: "an endpoint alone stays off", endpoint: "http://127.0.0.1:9000/versions/", wantEndpoint: "http://127.0.0.1:9000/versions/"},
		{name: "endpoint not http", enabled: "true", endpoint: "ftp://versions.example.com/",
			wantErr: `FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT: scheme must be http or https, got "ftp"`},
		{name: "endpoint without host", enabled: "true", endpoint: "https:///versions/",
			wantErr: "FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT: \"https:///versions/\" has no host"},
		{name: "endpoint with a password", enabled: "true", endpoint: "https://user:secret@versions.example.com/",
			wantErr: "FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT: must not hold a user name or password"},
		{name: "info url not http", info: "javascript:alert(1)",
			wantErr: `FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL: scheme must be http or https, got "javascript"`},
		{name: "enabled not a boolean", enabled: "yes please", wantErr: "FLOWMILL_VERSION_NOTIFICATIONS_ENABLED"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir(),
				"FLOWMILL_VERSION_NOTIFICATIONS_ENABLED":  tt.enabled,
				"FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT": tt.endpoint,
				"FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL": tt.info}))
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantEnabled, c.VersionNotificationsEnabled)
			require.Equal(t, tt.wantEndpoint, c.VersionNotificationsEndpoint)
			require.Equal(t, tt.info, c.VersionNotificationsInfoURL)
		})
	}
}

func TestPrompts(t *testing.T) {
	for _, tt := range []struct {
		name, enabled, host string
		wantEnabled         bool
		wantErr             string
	}{
		{name: "off by default, built-in host"},
		{name: "on with the built-in host", enabled: "true", wantEnabled: true},
		{name: "on with an outside host", enabled: "true", host: "https://prompts.example.com/api", wantEnabled: true},
		{name: "host not http", enabled: "true", host: "file:///etc/passwd",
			wantErr: `FLOWMILL_PROMPTS_HOST: scheme must be http or https, got "file"`},
		{name: "host with a password", host: "https://user:secret@prompts.example.com/",
			wantErr: "FLOWMILL_PROMPTS_HOST: must not hold a user name or password"},
		{name: "enabled not a boolean", enabled: "sometimes", wantErr: "FLOWMILL_PROMPTS_ENABLED"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir(),
				"FLOWMILL_PROMPTS_ENABLED": tt.enabled, "FLOWMILL_PROMPTS_HOST": tt.host}))
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantEnabled, c.PromptsEnabled)
			require.Equal(t, tt.host, c.PromptsHost)
		})
	}
}

// TestPprofAddrTakesLoopbackOnly: the profile listener is off by default and accepts only a
// loopback host.
func TestPprofAddrTakesLoopbackOnly(t *testing.T) {
	cfg, err := Load(nil, env(nil))
	require.NoError(t, err)
	require.Empty(t, cfg.PprofAddr)
	for _, addr := range []string{"127.0.0.1:6060", "127.0.0.2:0", "[::1]:6060", "localhost:6060"} {
		cfg, err := Load(nil, env(map[string]string{"FLOWMILL_PPROF_ADDR": addr}))
		require.NoError(t, err, addr)
		require.Equal(t, addr, cfg.PprofAddr)
	}
}
