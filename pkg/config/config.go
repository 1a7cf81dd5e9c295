// Package config holds every setting of the three Flowmill processes in one registry. A setting
// is read from its FLOWMILL_ environment variable, then from its command-line flag, falling back
// to its default; Load validates the result before anything starts.
package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Config is the resolved configuration of a process. Field docs give defaults and units.
type Config struct {
	// ListenAddress is the interface the api binds to; empty means all interfaces.
	ListenAddress string
	// Port is the api's HTTP port. Default 5678.
	Port int
	// BasePath is the path prefix under which the api serves everything; always starts and ends
	// with "/". Default "/".
	BasePath string
	// PublicURL is the address users reach the editor at. Default http://localhost:<Port><BasePath>.
	PublicURL string
	// WebhookURL is the base address of webhook URLs shown to users. Default PublicURL.
	WebhookURL string
	// WebhookSandbox answers every webhook call with Content-Security-Policy: sandbox, so a page
	// a workflow serves never runs script with the editor's origin. It may be false only when
	// WebhookURL's origin differs from PublicURL's: then requests addressed to the webhook URL's
	// host get webhooks only, answered without the sandbox, and all others keep it. Default true.
	WebhookSandbox bool
	// DataDir holds the SQLite database, the generated encryption key and binary data.
	// Default ~/.flowmill.
	DataDir string
	// DatabaseURL selects Postgres (postgres://…); empty means SQLite in DataDir.
	DatabaseURL string
	// DatabasePoolSize is the most Postgres connections one process opens; callers beyond it
	// wait for a free one. Every process of a deployment has its own pool, so their sum must
	// stay under the server's max_connections. Default 20 (1–1000).
	DatabasePoolSize int
	// RedisURL selects an external Redis (redis://…); empty means the embedded Redis, and the api
	// then runs the worker and the scheduler in-process.
	RedisURL string
	// EncryptionKey encrypts credentials at rest; all processes must share it. When empty it is
	// read from DataDir/config, or generated and stored there on first start.
	EncryptionKey string
	// LogLevel is debug, info, warn or error. Default info.
	LogLevel string
	// LogFormat is text or json. Default text.
	LogFormat string
	// WorkerConcurrency is how many executions one worker runs at once. Default 10 (1–1000).
	WorkerConcurrency int
	// QueuePollInterval is how often an idle worker checks the queue: the most a queued run
	// waits for an idle worker. Default 2ms against an external Redis; 10ms on the embedded
	// one, where each check runs its Lua script in-process and webhooks skip the queue.
	QueuePollInterval time.Duration
	// ShutdownTimeout bounds a graceful stop. Default 30s.
	ShutdownTimeout time.Duration
	// ShutdownDrain is how long an api keeps serving after SIGTERM while its readiness answers
	// 503, so a load balancer stops sending before the listener closes. Default 5s with an
	// external Redis (replicas behind a balancer); 0 in the embedded default, a single process
	// that nothing routes around, where Ctrl-C should stop at once.
	ShutdownDrain time.Duration
	shutdownDrain string
	// MaxBodySize is the largest request body the api accepts, in MiB. Default 16.
	MaxBodySize int
	// WorkflowMaxNodes is the most nodes one workflow may have, wherever it enters (saved,
	// imported, run unsaved, sub-workflow, command line). Default 2000 (1–1,000,000).
	WorkflowMaxNodes int
	// WorkflowMaxSize is the largest workflow document, in MiB of JSON. Default 4 (1–1024).
	WorkflowMaxSize int
	// Timezone is the instance's default IANA time zone. Default America/New_York.
	Timezone string
	// HeartbeatInterval is how often workers and schedulers report to Redis. Default 5s.
	HeartbeatInterval time.Duration
	// PushPingInterval is how often an SSE comment ping is sent. Default 20s.
	PushPingInterval time.Duration
	// ReconcileInterval is how often pending executions without a live lease are re-enqueued.
	// Default 30s.
	ReconcileInterval time.Duration
	// ConcurrencyProductionLimit is how many non-manual executions run at once across all
	// workers; -1 means no limit. Extra executions wait in the queue. Default -1.
	ConcurrencyProductionLimit int
	// ExecutionLeaseTTL is how long a worker's claim on a running execution lasts without
	// renewal (renewed every third of it); a dead worker's executions move on after it. Default 30s.
	ExecutionLeaseTTL time.Duration

	// ExecutionMaxTakeovers is how many times an execution may be taken over from a worker that
	// died running it; the next time it ends crashed instead of killing another worker. Default 3.
	ExecutionMaxTakeovers int

	// ExecutionsTimeout is the default execution timeout in seconds; -1 is off. Default -1.
	ExecutionsTimeout int
	// ExecutionsTimeoutMax caps the per-workflow timeout, in seconds. Default 3600.
	ExecutionsTimeoutMax int
	// ScriptTimeout limits one run of a Code, Function or Function Item script, in seconds;
	// 0 or -1 is none (the execution timeout still applies). Default 60.
	ScriptTimeout int
	// ScriptMemoryLimit is the memory budget of one script run or expression evaluation, in
	// MiB; 0 is none. Default 256.
	ScriptMemoryLimit int
	// SaveDataOnError is all or none. Default all.
	SaveDataOnError string
	// SaveDataOnSuccess is all or none. Default all.
	SaveDataOnSuccess string
	// SaveManualExecutions keeps manual runs. Default false.
	SaveManualExecutions bool
	// SaveExecutionProgress saves run data after every node. Default false.
	SaveExecutionProgress bool
	// PruneEnabled deletes old executions. Default true.
	PruneEnabled bool
	// PruneMaxAge is the age in hours past which finished executions are deleted. Default 336
	// (14 days).
	PruneMaxAge int
	// PruneMaxCount keeps at most this many executions; 0 means no count limit. Default 10000.
	PruneMaxCount int
	// PruneInterval is how often the scheduler prunes. Default 1m: under sustained load the
	// count and age limits hold within this time.
	PruneInterval time.Duration
	// WaitPollInterval is how often the scheduler looks for waiting executions that are due.
	// Default 1s.
	WaitPollInterval time.Duration

	// UserManagementDisabled turns off accounts (everyone is the default owner). Default false.
	UserManagementDisabled bool
	// PublicAPIDisabled turns off /api/v1. Default false.
	PublicAPIDisabled bool
	// TemplatesEnabled turns on the template library (its screens and the built-in templates
	// host). Default true.
	TemplatesEnabled bool
	// TemplatesHost is the template library's API base URL; when set, its origin may frame the
	// demo view. Empty (the default) means the built-in host, <base path>templates-host/;
	// otherwise an http(s) URL of a host with n8n's templates API.
	TemplatesHost string
	// DemoFrameAncestors lists further origins (scheme://host[:port], separated by commas or
	// spaces) that may frame the demo view, /workflows/demo. The editor's own origin and
	// TemplatesHost's always may; no other page of the editor may be framed. Default empty.
	DemoFrameAncestors string
	// PersonalizationEnabled shows the personalization survey. Default true.
	PersonalizationEnabled bool
	// WorkflowTagsDisabled hides tags. Default false.
	WorkflowTagsDisabled bool
	// DefaultLocale is the editor's language. Default en.
	DefaultLocale string
	// MetricsEnabled serves /metrics. Default true.
	MetricsEnabled bool
	// HealthPort is the port on which a worker or scheduler process serves /healthz,
	// /healthz/readiness and /metrics (on ListenAddress); 0 means none, so several processes
	// share a host without choosing ports. The api serves them on Port. Default 0 (0–65535).
	HealthPort int
	// PprofAddr is a loopback host:port (127.0.0.1:6060, [::1]:6060, localhost:6060) on which
	// the process serves Go's runtime profiles, /debug/pprof/ (CPU, heap, goroutines, …), for
	// profiling under load. Empty (the default) serves nothing; a non-loopback host is refused.
	PprofAddr string

	// NodesExclude names node types removed from the registry, as n8n's NODES_EXCLUDE: a
	// comma-separated list (or a JSON array) such as n8n-nodes-base.executeCommand. Default
	// empty: every node type is available.
	NodesExclude string
	// NodesEnable names off-by-default node types (OffByDefaultNodes) an admin turns on, in the
	// same forms as NodesExclude; naming any other type is an error. NodesExclude wins over it.
	// Default empty: Execute Command and Local File Trigger stay off.
	NodesEnable string
	// CustomExtensions is the folder of custom node packages (declarative node descriptions and
	// credential types as JSON), loaded at start by every process. Default empty: none.
	CustomExtensions string
	// FilesDir is the only folder file nodes (Read/Write Binary File(s), Execute Workflow's
	// local file) may use; relative node paths are relative to it. Created (mode 0700) at start
	// when missing. Default DataDir/files. /proc, /sys, /dev and the data folder outside it are
	// never available, whatever it is set to.
	FilesDir string

	// EgressAllow and EgressDeny are comma-separated IP addresses and CIDR networks (IPv4 or
	// IPv6) for every server-side fetch (HTTP Request node, Execute Workflow's URL source,
	// importing a workflow from a URL): a denied address is never connected to, an allowed one
	// is exempt from the built-in refusals (link-local and cloud metadata addresses everywhere;
	// loopback and private ranges for fetches any member can make). Default empty.
	EgressAllow string
	EgressDeny  string
	// egress is the policy of EgressAllow and EgressDeny, built by finish.
	egress *egress.Policy

	// WebhookResponseTimeout bounds how long a webhook caller waits for the workflow's answer
	// (response modes lastNode and responseNode). Default 2m.
	WebhookResponseTimeout time.Duration
	// TestWebhookTimeout is how long test webhooks wait for their one call. Default 2m.
	TestWebhookTimeout time.Duration
	// IdempotencyTTL is how long a production webhook call's Idempotency-Key is remembered
	// (with the first call's answer): a repeat within it is answered from the first call.
	// Default 24h.
	IdempotencyTTL time.Duration
	// HTTPIdempotency makes the HTTP Request node send a key stable per execution, node run and
	// item in the header HTTPIdempotencyHeader, so a receiver can drop the repeat of a request a
	// worker taking over the execution sends again. Default true, header Idempotency-Key.
	HTTPIdempotency       bool
	HTTPIdempotencyHeader string

	// SMTPHost is the outgoing mail server for invitations and password resets; empty means
	// e-mail is not set up (inviting and password reset are then unavailable).
	SMTPHost string
	// SMTPPort is the mail server's port. Default 465.
	SMTPPort int
	// SMTPUser and SMTPPass sign in to the mail server (PLAIN); empty user means no sign-in.
	SMTPUser string
	SMTPPass string
	// SMTPSender is the From address, such as "Flowmill <flowmill@example.com>".
	SMTPSender string
	// SMTPSSL uses TLS from the first byte (port 465); false starts in plain text and upgrades
	// with STARTTLS when the server offers it. Default true.
	SMTPSSL bool

	// TrustedProxies lists the addresses (IPs or CIDRs, comma-separated) of reverse proxies
	// whose X-Forwarded-For header is believed. Default empty: the connection's peer address is
	// the client's, and a forwarded request is never taken for a local one.
	TrustedProxies string
	// TrustedProxyNets is TrustedProxies parsed.
	TrustedProxyNets []netip.Prefix

	// DocsURL is where the Help menu's documentation and quickstart entries point. Default empty:
	// the built-in node documentation, <BasePath>docs/nodes. Empty or an http(s) URL.
	DocsURL string
	// IssuesURL is the issue tracker the Help menu's forum entry and the node creator's "Request
	// a node" point at. Default https://github.com/flowmill/flowmill/issues. An http(s) URL.
	IssuesURL string

	// VersionNotificationsEnabled turns on asking VersionNotificationsEndpoint for newer
	// releases (the editor's update notices, the audit's "Outdated instance" finding). Default
	// false: no outside call is made. When true the endpoint is required.
	VersionNotificationsEnabled bool
	// VersionNotificationsEndpoint is the version endpoint; the current version is appended to
	// it as it is (GET <endpoint><version>). Default DefaultVersionsEndpoint, Flowmill's own
	// release feed. An http(s) URL without a user name or password (the editor's settings show
	// it to everyone).
	VersionNotificationsEndpoint string
	// VersionNotificationsInfoURL is the page on how to update. Default empty. Empty or an
	// http(s) URL.
	VersionNotificationsInfoURL string

	// PromptsEnabled turns on the editor's contact prompt and value survey. Default false: they
	// are a vendor's service, so nothing is asked or sent unless an admin turns them on.
	PromptsEnabled bool
	// PromptsHost is where the editor asks for prompts and sends answers (GET /prompts, POST
	// /prompt, POST /value-survey). Default empty: the api's built-in prompts host
	// (<BasePath>rest/prompts-host), which keeps answers in the database for the owner. Empty or
	// an http(s) URL without a user name or password.
	PromptsHost string
	// UnpackMaxSize is the most one file a node reads may unpack to (a zip bomb's guard), in MiB.
	// Default 256 (1–65536).
	UnpackMaxSize int
}

// DefaultVersionsEndpoint is Flowmill's own release feed, the default version endpoint: one JSON
// file per released version listing the versions after it.
const DefaultVersionsEndpoint = "https://flowmill.github.io/releases/versions/"

// HTTPIdempotencyKeyHeader is the header the HTTP Request node sends its idempotency key in,
// "" when it sends none (FLOWMILL_HTTP_IDEMPOTENCY off).
func (c *Config) HTTPIdempotencyKeyHeader() string {
	if !c.HTTPIdempotency {
		return ""
	}
	return c.HTTPIdempotencyHeader
}

// isHeaderName reports whether s is an HTTP header name (an RFC 9110 token).
func isHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= 0x20 || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return true
}

// SMTPSetUp reports whether outgoing e-mail is configured.
func (c *Config) SMTPSetUp() bool { return c.SMTPHost != "" }

// Embedded reports whether the process runs in the embedded default (no external Redis): the
// api then also runs the worker and the scheduler.
func (c *Config) Embedded() bool { return c.RedisURL == "" }

// SQLite reports whether the store is SQLite in the data directory.
func (c *Config) SQLite() bool { return c.DatabaseURL == "" }

// SQLitePath is the SQLite database file.
func (c *Config) SQLitePath() string { return filepath.Join(c.DataDir, "database.sqlite") }

// Addr is the api's listen address.
func (c *Config) Addr() string { return fmt.Sprintf("%s:%d", c.ListenAddress, c.Port) }

// Egress returns the policy of FLOWMILL_EGRESS_ALLOW and FLOWMILL_EGRESS_DENY in the profile
// for fetches that workflows make; its Strict profile is for fetches any member can make. A
// Config not made by Load has the built-in refusals only.
func (c *Config) Egress() *egress.Policy {
	if c.egress == nil {
		return egress.New(nil, nil)
	}
	return c.egress
}

// WorkflowLimits returns FLOWMILL_WORKFLOW_MAX_NODES and FLOWMILL_WORKFLOW_MAX_SIZE as limits;
// a Config not made by Load gets the defaults.
func (c *Config) WorkflowLimits() workflow.Limits {
	return workflow.Limits{MaxNodes: c.WorkflowMaxNodes, MaxBytes: c.WorkflowMaxSize << 20}
}

// UnpackMaxBytes returns FLOWMILL_UNPACK_MAX_SIZE in bytes; 0 (the nodes' default) for a Config
// not made by Load.
func (c *Config) UnpackMaxBytes() int64 { return int64(c.UnpackMaxSize) << 20 }

// ExcludedNodes returns the node type names of NodesExclude; empty when none are excluded.
func (c *Config) ExcludedNodes() []string { return nodeList(c.NodesExclude) }

// OffByDefaultNodes are the node types that can hurt the host (a shell, watching its files):
// left out of every registry unless FLOWMILL_NODES_ENABLE names them.
var OffByDefaultNodes = []string{"n8n-nodes-base.executeCommand", "n8n-nodes-base.localFileTrigger"}

// DisabledNodes returns the node types this instance leaves out, each with what an admin does to
// turn it on: excluded ones (FLOWMILL_NODES_EXCLUDE, which wins) and off-by-default ones not
// named by FLOWMILL_NODES_ENABLE.
func (c *Config) DisabledNodes() map[string]string {
	out := map[string]string{}
	enabled := nodeList(c.NodesEnable)
	for _, name := range OffByDefaultNodes {
		if !slices.Contains(enabled, name) {
			out[name] = "with FLOWMILL_NODES_ENABLE"
		}
	}
	for _, name := range c.ExcludedNodes() {
		out[name] = "by removing it from FLOWMILL_NODES_EXCLUDE"
	}
	return out
}

// nodeList reads a list of node type names: comma-separated, or a JSON array.
func nodeList(v string) []string {
	v = strings.TrimSpace(v)
	var names []string
	if strings.HasPrefix(v, "[") && json.Unmarshal([]byte(v), &names) == nil {
		return names
	}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// DemoFrameOrigins returns the origins besides the editor's own that may frame the demo view:
// TemplatesHost's, then DemoFrameAncestors'. Call it on a loaded (validated) Config.
func (c *Config) DemoFrameOrigins() []string {
	var out []string
	if c.TemplatesHost != "" {
		if o, err := Origin(c.TemplatesHost); err == nil {
			out = append(out, o)
		}
	}
	for _, f := range listItems(c.DemoFrameAncestors) {
		if o, err := Origin(f); err == nil && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// listItems splits a list setting at commas and white space.
func listItems(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// Origin returns the web origin of an http(s) URL, as browsers send it in the Origin header:
// lower-case scheme://host, with the port only when it is not the scheme's default.
func Origin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%q is not a URL", raw)
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Hostname() == "" {
		return "", fmt.Errorf("%q is not an http(s) URL with a host", raw)
	}
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port := u.Port(); port != "" && !(scheme == "http" && port == "80") && !(scheme == "https" && port == "443") {
		host += ":" + port
	}
	return scheme + "://" + host, nil
}

// ErrUsage marks a command line Load cannot read: an unknown setting or a stray argument.
var ErrUsage = errors.New("see --help")

// Load resolves the configuration from the environment (getenv) and command-line arguments, then
// validates it. Flags are --name=value or --name value, named as in the registry.
func Load(args []string, getenv func(string) string) (*Config, error) {
	c := &Config{}
	values := map[string]string{}
	for _, s := range registry {
		values[s.Flag] = s.Default
		if v, ok := lookupEnv(getenv, s.Env); ok {
			values[s.Flag] = v
		}
	}
	if err := parseFlags(args, values); err != nil {
		return nil, err
	}
	for _, s := range registry {
		if err := s.set(c, values[s.Flag]); err != nil {
			return nil, fmt.Errorf("%s: %w", s.Env, err)
		}
	}
	if err := c.finish(); err != nil {
		return nil, err
	}
	return c, nil
}

func lookupEnv(getenv func(string) string, key string) (string, bool) {
	v := getenv(key)
	return v, v != ""
}

func parseFlags(args []string, values map[string]string) error {
	known := map[string]bool{}
	for _, s := range registry {
		known[s.Flag] = true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			return fmt.Errorf("unexpected argument %q (settings are --name=value): %w", a, ErrUsage)
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !known[name] {
			return fmt.Errorf("unknown setting --%s: %w", name, ErrUsage)
		}
		if !hasVal {
			if i+1 >= len(args) {
				return fmt.Errorf("--%s needs a value", name)
			}
			i++
			val = args[i]
		}
		values[name] = val
	}
	return nil
}

// finish derives dependent values and validates the whole configuration.
func (c *Config) finish() error {
	var errs []error
	if c.Port < 1 || c.Port > 65535 {
		errs = append(errs, fmt.Errorf("FLOWMILL_PORT: %d is not a port (1–65535)", c.Port))
	}
	c.BasePath = normaliseBasePath(c.BasePath)
	if strings.ContainsAny(c.BasePath, "?#\\ ") {
		errs = append(errs, fmt.Errorf("FLOWMILL_BASE_PATH: %q may only hold path characters", c.BasePath))
	}
	if strings.HasPrefix(c.DataDir, "~/") || c.DataDir == "~" {
		home, err := os.UserHomeDir()
		if err != nil {
			errs = append(errs, fmt.Errorf("FLOWMILL_DATA_DIR: cannot resolve ~: %w", err))
		}
		c.DataDir = filepath.Join(home, strings.TrimPrefix(c.DataDir, "~"))
	}
	if err := c.finishFilesDir(); err != nil {
		errs = append(errs, err)
	}
	if c.HTTPIdempotency && !isHeaderName(c.HTTPIdempotencyHeader) {
		errs = append(errs, fmt.Errorf("FLOWMILL_HTTP_IDEMPOTENCY_HEADER: %q is not a header name", c.HTTPIdempotencyHeader))
	}
	for _, name := range nodeList(c.NodesEnable) {
		if !slices.Contains(OffByDefaultNodes, name) {
			errs = append(errs, fmt.Errorf("FLOWMILL_NODES_ENABLE: %q is not an off-by-default node type (%s); other node types are on unless FLOWMILL_NODES_EXCLUDE names them",
				name, strings.Join(OffByDefaultNodes, ", ")))
		}
	}
	if c.PublicURL == "" {
		c.PublicURL = fmt.Sprintf("http://localhost:%d%s", c.Port, c.BasePath)
	}
	if err := checkURL("FLOWMILL_PUBLIC_URL", c.PublicURL, "http", "https"); err != nil {
		errs = append(errs, err)
	}
	c.PublicURL = withSlash(c.PublicURL)
	if c.WebhookURL == "" {
		c.WebhookURL = c.PublicURL
	}
	if err := checkURL("FLOWMILL_WEBHOOK_URL", c.WebhookURL, "http", "https"); err != nil {
		errs = append(errs, err)
	}
	c.WebhookURL = withSlash(c.WebhookURL)
	if !c.WebhookSandbox {
		editor, _ := Origin(c.PublicURL)
		if hooks, _ := Origin(c.WebhookURL); hooks == editor {
			errs = append(errs, fmt.Errorf("FLOWMILL_WEBHOOK_SANDBOX: may be false only when FLOWMILL_WEBHOOK_URL has an origin of its own; it shares the editor's origin %s, where a page a workflow serves could act as any signed-in user", editor))
		}
	}
	for _, u := range []struct{ env, value string }{
		{"FLOWMILL_TEMPLATES_HOST", c.TemplatesHost}, {"FLOWMILL_DOCS_URL", c.DocsURL}, {"FLOWMILL_ISSUES_URL", c.IssuesURL},
		{"FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT", c.VersionNotificationsEndpoint},
		{"FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL", c.VersionNotificationsInfoURL},
		{"FLOWMILL_PROMPTS_HOST", c.PromptsHost},
	} {
		if u.value == "" {
			continue
		}
		if err := checkURL(u.env, u.value, "http", "https"); err != nil {
			errs = append(errs, err)
		}
	}
	if u, err := url.Parse(c.VersionNotificationsEndpoint); err == nil && u.User != nil {
		errs = append(errs, errors.New("FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT: must not hold a user name or password: /rest/settings shows the endpoint to every browser"))
	}
	if u, err := url.Parse(c.PromptsHost); err == nil && u.User != nil {
		errs = append(errs, errors.New("FLOWMILL_PROMPTS_HOST: must not hold a user name or password: /rest/settings shows the host to every browser"))
	}
	if c.VersionNotificationsEnabled && c.VersionNotificationsEndpoint == "" {
		errs = append(errs, errors.New("FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT: required when FLOWMILL_VERSION_NOTIFICATIONS_ENABLED is true (the http(s) URL to ask for newer versions); set it or turn version notifications off"))
	}
	for _, f := range listItems(c.DemoFrameAncestors) {
		if o, err := Origin(f); err != nil || strings.TrimSuffix(f, "/") != o {
			errs = append(errs, fmt.Errorf("FLOWMILL_DEMO_FRAME_ANCESTORS: %q is not an origin such as https://templates.example.com", f))
		}
	}
	if c.DatabaseURL != "" {
		if err := checkURL("FLOWMILL_DATABASE_URL", c.DatabaseURL, "postgres", "postgresql"); err != nil {
			errs = append(errs, err)
		}
	}
	if c.RedisURL != "" {
		if err := checkURL("FLOWMILL_REDIS_URL", c.RedisURL, "redis", "rediss"); err != nil {
			errs = append(errs, err)
		}
	}
	if c.EncryptionKey != "" && len(c.EncryptionKey) < 16 {
		errs = append(errs, errors.New("FLOWMILL_ENCRYPTION_KEY: must be at least 16 characters"))
	}
	if c.HealthPort < 0 || c.HealthPort > 65535 {
		errs = append(errs, fmt.Errorf("FLOWMILL_HEALTH_PORT: %d is not a port (1–65535, or 0 for none)", c.HealthPort))
	}
	if c.PprofAddr != "" {
		if err := checkLoopback(c.PprofAddr); err != nil {
			errs = append(errs, fmt.Errorf("FLOWMILL_PPROF_ADDR: %w", err))
		}
	}
	if c.DatabasePoolSize < 1 || c.DatabasePoolSize > 1000 {
		errs = append(errs, fmt.Errorf("FLOWMILL_DATABASE_POOL_SIZE: %d is outside 1–1000", c.DatabasePoolSize))
	}
	if c.WorkerConcurrency < 1 || c.WorkerConcurrency > 1000 {
		errs = append(errs, fmt.Errorf("FLOWMILL_WORKER_CONCURRENCY: %d is outside 1–1000", c.WorkerConcurrency))
	}
	if c.MaxBodySize < 1 || c.MaxBodySize > 1024 {
		errs = append(errs, fmt.Errorf("FLOWMILL_MAX_BODY_SIZE: %d MiB is outside 1–1024", c.MaxBodySize))
	}
	if c.WorkflowMaxNodes < 1 || c.WorkflowMaxNodes > 1_000_000 {
		errs = append(errs, fmt.Errorf("FLOWMILL_WORKFLOW_MAX_NODES: %d is outside 1–1000000", c.WorkflowMaxNodes))
	}
	if c.WorkflowMaxSize < 1 || c.WorkflowMaxSize > 1024 {
		errs = append(errs, fmt.Errorf("FLOWMILL_WORKFLOW_MAX_SIZE: %d MiB is outside 1–1024", c.WorkflowMaxSize))
	}
	if _, err := time.LoadLocation(c.Timezone); err != nil {
		errs = append(errs, fmt.Errorf("FLOWMILL_TIMEZONE: unknown time zone %q", c.Timezone))
	}
	if c.QueuePollInterval == 0 {
		c.QueuePollInterval = 2 * time.Millisecond
		if c.Embedded() {
			c.QueuePollInterval = 10 * time.Millisecond
		}
	}
	switch d, err := time.ParseDuration(c.shutdownDrain); {
	case c.shutdownDrain == "" && c.Embedded():
		c.ShutdownDrain = 0
	case c.shutdownDrain == "":
		c.ShutdownDrain = 5 * time.Second
	case err != nil || d < 0:
		errs = append(errs, fmt.Errorf("FLOWMILL_SHUTDOWN_DRAIN: %q is not a duration of 0 or more (5s, 500ms)", c.shutdownDrain))
	default:
		c.ShutdownDrain = d
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{
		{"FLOWMILL_QUEUE_POLL_INTERVAL", c.QueuePollInterval},
		{"FLOWMILL_SHUTDOWN_TIMEOUT", c.ShutdownTimeout},
		{"FLOWMILL_HEARTBEAT_INTERVAL", c.HeartbeatInterval},
		{"FLOWMILL_PUSH_PING_INTERVAL", c.PushPingInterval},
		{"FLOWMILL_RECONCILE_INTERVAL", c.ReconcileInterval},
		{"FLOWMILL_EXECUTION_LEASE_TTL", c.ExecutionLeaseTTL},
		{"FLOWMILL_EXECUTIONS_DATA_PRUNE_INTERVAL", c.PruneInterval},
		{"FLOWMILL_WAIT_POLL_INTERVAL", c.WaitPollInterval},
		{"FLOWMILL_WEBHOOK_RESPONSE_TIMEOUT", c.WebhookResponseTimeout},
		{"FLOWMILL_TEST_WEBHOOK_TIMEOUT", c.TestWebhookTimeout},
		{"FLOWMILL_IDEMPOTENCY_TTL", c.IdempotencyTTL},
	} {
		if d.v <= 0 {
			errs = append(errs, fmt.Errorf("%s: must be positive", d.name))
		}
	}
	if c.ExecutionMaxTakeovers < 1 || c.ExecutionMaxTakeovers > 100 {
		errs = append(errs, errors.New("FLOWMILL_EXECUTION_MAX_TAKEOVERS: 1–100"))
	}
	if c.ExecutionsTimeout < -1 || c.ExecutionsTimeout == 0 {
		errs = append(errs, errors.New("FLOWMILL_EXECUTIONS_TIMEOUT: -1 (off) or a positive number of seconds"))
	}
	if c.ScriptTimeout < -1 {
		errs = append(errs, errors.New("FLOWMILL_SCRIPT_TIMEOUT: 0 or -1 (none) or a positive number of seconds"))
	}
	if c.ScriptMemoryLimit < 0 || c.ScriptMemoryLimit > 1<<20 {
		errs = append(errs, errors.New("FLOWMILL_SCRIPT_MEMORY_LIMIT: 0 (none) or a positive number of MiB up to 1048576"))
	}
	if c.ConcurrencyProductionLimit == 0 || c.ConcurrencyProductionLimit < -1 {
		errs = append(errs, errors.New("FLOWMILL_CONCURRENCY_PRODUCTION_LIMIT: -1 (no limit) or a positive number"))
	}
	if c.PruneMaxAge < 1 {
		errs = append(errs, errors.New("FLOWMILL_EXECUTIONS_DATA_MAX_AGE: must be a positive number of hours"))
	}
	if c.PruneMaxCount < 0 {
		errs = append(errs, errors.New("FLOWMILL_EXECUTIONS_DATA_PRUNE_MAX_COUNT: must be 0 (no limit) or more"))
	}
	if c.SMTPHost != "" {
		if c.SMTPPort < 1 || c.SMTPPort > 65535 {
			errs = append(errs, fmt.Errorf("FLOWMILL_SMTP_PORT: %d is not a port (1–65535)", c.SMTPPort))
		}
		if _, err := mail.ParseAddress(c.SMTPSender); err != nil {
			errs = append(errs, fmt.Errorf("FLOWMILL_SMTP_SENDER: %q is not an address such as \"Flowmill <flowmill@example.com>\"", c.SMTPSender))
		}
	}
	allow, err := egress.ParseNetworks(c.EgressAllow)
	if err != nil {
		errs = append(errs, fmt.Errorf("FLOWMILL_EGRESS_ALLOW: %w", err))
	}
	deny, err := egress.ParseNetworks(c.EgressDeny)
	if err != nil {
		errs = append(errs, fmt.Errorf("FLOWMILL_EGRESS_DENY: %w", err))
	}
	c.egress = egress.New(allow, deny)
	if c.ExecutionsTimeoutMax < 1 {
		errs = append(errs, errors.New("FLOWMILL_EXECUTIONS_TIMEOUT_MAX: must be a positive number of seconds"))
	}
	nets, err := egress.ParseNetworks(c.TrustedProxies)
	if err != nil {
		errs = append(errs, fmt.Errorf("FLOWMILL_TRUSTED_PROXIES: %w", err))
	}
	c.TrustedProxyNets = nets
	if c.UnpackMaxSize < 1 || c.UnpackMaxSize > 65536 {
		errs = append(errs, fmt.Errorf("FLOWMILL_UNPACK_MAX_SIZE: %d MiB is outside 1–65536", c.UnpackMaxSize))
	}
	return errors.Join(errs...)
}

// finishFilesDir makes FilesDir absolute (default DataDir/files) and refuses the data folder
// itself, which holds the encryption key and the database.
func (c *Config) finishFilesDir() error {
	if c.FilesDir == "" {
		c.FilesDir = filepath.Join(c.DataDir, "files")
	}
	if strings.HasPrefix(c.FilesDir, "~/") || c.FilesDir == "~" {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("FLOWMILL_FILES_DIR: cannot resolve ~: %w", err)
		}
		c.FilesDir = filepath.Join(home, strings.TrimPrefix(c.FilesDir, "~"))
	}
	abs, err := filepath.Abs(c.FilesDir)
	if err != nil {
		return fmt.Errorf("FLOWMILL_FILES_DIR: %w", err)
	}
	c.FilesDir = abs
	if data, err := filepath.Abs(c.DataDir); err == nil && data == abs {
		return fmt.Errorf("FLOWMILL_FILES_DIR: %s is the data folder, which holds the encryption key and the database; use a folder inside it such as %s",
			abs, filepath.Join(abs, "files"))
	}
	return nil
}

func normaliseBasePath(p string) string {
	p = "/" + strings.Trim(strings.TrimSpace(p), "/") + "/"
	if p == "//" {
		return "/"
	}
	return p
}

func withSlash(s string) string {
	if strings.HasSuffix(s, "/") {
		return s
	}
	return s + "/"
}

func checkURL(name, raw string, schemes ...string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%s: not a valid URL: %v", name, errors.Unwrap(err))
	}
	for _, s := range schemes {
		if u.Scheme == s {
			if u.Host == "" {
				return fmt.Errorf("%s: %q has no host", name, redactURL(raw))
			}
			return nil
		}
	}
	return fmt.Errorf("%s: scheme must be %s, got %q", name, strings.Join(schemes, " or "), u.Scheme)
}

// NodeEnvironment is what $env shows workflows: the process environment without Flowmill's own
// settings, which hold database passwords and the encryption key.
func NodeEnvironment() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "FLOWMILL_") {
			env[k] = v
		}
	}
	return env
}

// ScriptLimits are the time limit and memory budget of scripts and expressions as the
// expression evaluator takes them (expr.Options.ScriptTimeout and MemoryLimit): 0 for no time
// limit, a negative budget for none.
func (c *Config) ScriptLimits() (timeout time.Duration, memoryBytes int64) {
	if c.ScriptTimeout > 0 {
		timeout = time.Duration(c.ScriptTimeout) * time.Second
	}
	memoryBytes = -1
	if c.ScriptMemoryLimit > 0 {
		memoryBytes = int64(c.ScriptMemoryLimit) << 20
	}
	return timeout, memoryBytes
}

// ExecutionTaskTimeout is the time limit asynq puts on a task that runs an execution: the
// longest an execution may run plus a margin for its start and its end, or 0 (none) when
// executions without a timeout may run for ever (FLOWMILL_EXECUTIONS_TIMEOUT off). A live run
// is never handed to another worker by asynq; a dead one is, through its lease.
func (c *Config) ExecutionTaskTimeout() time.Duration {
	if c.ExecutionsTimeout <= 0 {
		return 0
	}
	return time.Duration(c.ExecutionsTimeoutMax)*time.Second + c.ShutdownTimeout + 2*c.ExecutionLeaseTTL + time.Minute
}

// checkLoopback accepts a host:port whose host is localhost or a loopback IP and whose port is
// 0–65535 (0: any free port).
func checkLoopback(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port", addr)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q has no port 0–65535", addr)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address (127.0.0.1, [::1] or localhost): profiles show the process's internals", addr)
	}
	return nil
}
