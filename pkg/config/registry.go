package config

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Setting describes one configuration value: its environment variable, flag, default and help.
type Setting struct {
	Env     string
	Flag    string
	Default string
	Help    string
	// Secret values are redacted in every dump and log line.
	Secret bool
	// Allowed, when set, lists the only accepted values (compared in lower case).
	Allowed []string
	// field points at the Config field the setting fills.
	field func(c *Config) any
}

// Settings returns the registry, in documentation order.
func Settings() []Setting { return registry }

// set parses v into the field the setting points at.
func (s Setting) set(c *Config, v string) error {
	v = strings.TrimSpace(v)
	if len(s.Allowed) > 0 {
		v = strings.ToLower(v)
		if !slices.Contains(s.Allowed, v) {
			return fmt.Errorf("%q is not one of %s", v, strings.Join(s.Allowed, ", "))
		}
	}
	switch p := s.field(c).(type) {
	case *string:
		*p = v
	case *int:
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", v)
		}
		*p = n
	case *bool:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%q is not true or false", v)
		}
		*p = b
	case *time.Duration:
		if v == "" { // left for finish to choose
			*p = 0
			return nil
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%q is not a duration such as 500ms, 30s or 5m", v)
		}
		*p = d
	default:
		return fmt.Errorf("unsupported setting type %T", p)
	}
	return nil
}

// value renders the current value of a setting as it would be written in the environment.
func (s Setting) value(c *Config) string {
	switch p := s.field(c).(type) {
	case *string:
		return *p
	case *int:
		return strconv.Itoa(*p)
	case *bool:
		return strconv.FormatBool(*p)
	case *time.Duration:
		return p.String()
	}
	return ""
}

var registry = []Setting{
	{Env: "FLOWMILL_PORT", Flag: "port", Default: "5678", Help: "HTTP port of the api.",
		field: func(c *Config) any { return &c.Port }},
	{Env: "FLOWMILL_LISTEN_ADDRESS", Flag: "listen-address", Default: "", Help: "Interface the api binds to; empty means all.",
		field: func(c *Config) any { return &c.ListenAddress }},
	{Env: "FLOWMILL_BASE_PATH", Flag: "base-path", Default: "/", Help: "Path prefix for the editor, REST API and webhooks.",
		field: func(c *Config) any { return &c.BasePath }},
	{Env: "FLOWMILL_PUBLIC_URL", Flag: "public-url", Default: "", Help: "Address users reach the editor at (default http://localhost:PORT/BASE_PATH).",
		field: func(c *Config) any { return &c.PublicURL }},
	{Env: "FLOWMILL_WEBHOOK_URL", Flag: "webhook-url", Default: "", Help: "Base of webhook URLs shown to users (default the public URL).",
		field: func(c *Config) any { return &c.WebhookURL }},
	{Env: "FLOWMILL_WEBHOOK_SANDBOX", Flag: "webhook-sandbox", Default: "true", Help: "Answer webhook calls with Content-Security-Policy: sandbox, so pages workflows serve run no script with the editor's origin. May be false only when the webhook URL's origin differs from the public URL's: then its host serves webhooks only, unsandboxed, and calls through any other host keep the sandbox.",
		field: func(c *Config) any { return &c.WebhookSandbox }},
	{Env: "FLOWMILL_DATA_DIR", Flag: "data-dir", Default: "~/.flowmill", Help: "Folder for the SQLite database, the generated encryption key and binary data.",
		field: func(c *Config) any { return &c.DataDir }},
	{Env: "FLOWMILL_DATABASE_URL", Flag: "database-url", Default: "", Help: "Postgres URL (postgres://…); empty means SQLite in the data folder.", Secret: true,
		field: func(c *Config) any { return &c.DatabaseURL }},
	{Env: "FLOWMILL_DATABASE_POOL_SIZE", Flag: "database-pool-size", Default: "20", Help: "Most Postgres connections one process opens (1–1000); the sum over every process must stay under the server's max_connections.",
		field: func(c *Config) any { return &c.DatabasePoolSize }},
	{Env: "FLOWMILL_REDIS_URL", Flag: "redis-url", Default: "", Help: "Redis URL (redis://…); empty means embedded Redis with worker and scheduler inside the api.", Secret: true,
		field: func(c *Config) any { return &c.RedisURL }},
	{Env: "FLOWMILL_ENCRYPTION_KEY", Flag: "encryption-key", Default: "", Help: "Key that encrypts credentials (16+ characters); generated into the data folder when empty. Every process must share it.", Secret: true,
		field: func(c *Config) any { return &c.EncryptionKey }},
	{Env: "FLOWMILL_LOG_LEVEL", Flag: "log-level", Default: "info", Help: "debug, info, warn or error.",
		Allowed: []string{"debug", "info", "warn", "error"},
		field:   func(c *Config) any { return &c.LogLevel }},
	{Env: "FLOWMILL_LOG_FORMAT", Flag: "log-format", Default: "text", Help: "text or json.",
		Allowed: []string{"text", "json"},
		field:   func(c *Config) any { return &c.LogFormat }},
	{Env: "FLOWMILL_WORKER_CONCURRENCY", Flag: "worker-concurrency", Default: "10", Help: "Executions one worker runs at once (1–1000).",
		field: func(c *Config) any { return &c.WorkerConcurrency }},
	{Env: "FLOWMILL_QUEUE_POLL_INTERVAL", Flag: "queue-poll-interval", Default: "", Help: "How often an idle worker checks the queue; empty means 2ms against an external Redis and 10ms on the embedded one, whose polls cost more and whose webhooks skip the queue.",
		field: func(c *Config) any { return &c.QueuePollInterval }},
	{Env: "FLOWMILL_SHUTDOWN_TIMEOUT", Flag: "shutdown-timeout", Default: "30s", Help: "Longest a graceful stop may take.",
		field: func(c *Config) any { return &c.ShutdownTimeout }},
	{Env: "FLOWMILL_SHUTDOWN_DRAIN", Flag: "shutdown-drain", Default: "", Help: "How long an api keeps serving after SIGTERM while its readiness check answers 503, so load balancers stop sending first; empty means 5s with an external Redis and 0 in the embedded default.",
		field: func(c *Config) any { return &c.shutdownDrain }},
	{Env: "FLOWMILL_MAX_BODY_SIZE", Flag: "max-body-size", Default: "16", Help: "Largest request body the api accepts, in MiB (1–1024).",
		field: func(c *Config) any { return &c.MaxBodySize }},
	{Env: "FLOWMILL_WORKFLOW_MAX_NODES", Flag: "workflow-max-nodes", Default: "2000", Help: "Most nodes one workflow may have (1–1000000); a bigger one is refused wherever it enters.",
		field: func(c *Config) any { return &c.WorkflowMaxNodes }},
	{Env: "FLOWMILL_WORKFLOW_MAX_SIZE", Flag: "workflow-max-size", Default: "4", Help: "Largest workflow document, in MiB of JSON (1–1024); a bigger one is refused wherever it enters.",
		field: func(c *Config) any { return &c.WorkflowMaxSize }},
	{Env: "FLOWMILL_TIMEZONE", Flag: "timezone", Default: "America/New_York", Help: "Default time zone of workflows (IANA name).",
		field: func(c *Config) any { return &c.Timezone }},
	{Env: "FLOWMILL_HEARTBEAT_INTERVAL", Flag: "heartbeat-interval", Default: "5s", Help: "How often workers and schedulers report that they are alive.",
		field: func(c *Config) any { return &c.HeartbeatInterval }},
	{Env: "FLOWMILL_PUSH_PING_INTERVAL", Flag: "push-ping-interval", Default: "20s", Help: "How often the push stream sends a keep-alive ping.",
		field: func(c *Config) any { return &c.PushPingInterval }},
	{Env: "FLOWMILL_RECONCILE_INTERVAL", Flag: "reconcile-interval", Default: "30s", Help: "How often pending executions without a live worker are queued again.",
		field: func(c *Config) any { return &c.ReconcileInterval }},
	{Env: "FLOWMILL_CONCURRENCY_PRODUCTION_LIMIT", Flag: "concurrency-production-limit", Default: "-1", Help: "Most trigger, webhook and retry executions running at once across all workers (manual runs are exempt); -1 means no limit.",
		field: func(c *Config) any { return &c.ConcurrencyProductionLimit }},
	{Env: "FLOWMILL_EXECUTION_LEASE_TTL", Flag: "execution-lease-ttl", Default: "30s", Help: "How long a worker's claim on a running execution lasts without renewal; a dead worker's executions are taken over after it.",
		field: func(c *Config) any { return &c.ExecutionLeaseTTL }},
	{Env: "FLOWMILL_EXECUTION_MAX_TAKEOVERS", Flag: "execution-max-takeovers", Default: "3", Help: "How many times an execution may be taken over from a worker that died running it (1–100); the next time it ends crashed, naming the node it was in.",
		field: func(c *Config) any { return &c.ExecutionMaxTakeovers }},
	{Env: "FLOWMILL_EXECUTIONS_TIMEOUT", Flag: "executions-timeout", Default: "-1", Help: "Default execution timeout in seconds; -1 is off.",
		field: func(c *Config) any { return &c.ExecutionsTimeout }},
	{Env: "FLOWMILL_EXECUTIONS_TIMEOUT_MAX", Flag: "executions-timeout-max", Default: "3600", Help: "Largest execution timeout a workflow may set, in seconds.",
		field: func(c *Config) any { return &c.ExecutionsTimeoutMax }},
	{Env: "FLOWMILL_SCRIPT_TIMEOUT", Flag: "script-timeout", Default: "60", Help: "Longest one run of a Code, Function or Function Item script may take, in seconds (each item's run in Run Once for Each Item mode); 0 or -1 is none. The execution timeout still applies.",
		field: func(c *Config) any { return &c.ScriptTimeout }},
	{Env: "FLOWMILL_SCRIPT_MEMORY_LIMIT", Flag: "script-memory-limit", Default: "256", Help: "Memory budget of one script run or expression evaluation, in MiB; 0 is none. See Limits.",
		field: func(c *Config) any { return &c.ScriptMemoryLimit }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_SAVE_ON_ERROR", Flag: "executions-data-save-on-error", Default: "all", Help: "Save failed executions: all or none.",
		Allowed: []string{"all", "none"},
		field:   func(c *Config) any { return &c.SaveDataOnError }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_SAVE_ON_SUCCESS", Flag: "executions-data-save-on-success", Default: "all", Help: "Save successful executions: all or none.",
		Allowed: []string{"all", "none"},
		field:   func(c *Config) any { return &c.SaveDataOnSuccess }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", Flag: "executions-data-save-manual-executions", Default: "false", Help: "Save executions started from the editor.",
		field: func(c *Config) any { return &c.SaveManualExecutions }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_SAVE_ON_PROGRESS", Flag: "executions-data-save-on-progress", Default: "false", Help: "Save run data after every node.",
		field: func(c *Config) any { return &c.SaveExecutionProgress }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_PRUNE", Flag: "executions-data-prune", Default: "true", Help: "Delete finished executions past the age or count limit.",
		field: func(c *Config) any { return &c.PruneEnabled }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_MAX_AGE", Flag: "executions-data-max-age", Default: "336", Help: "Age in hours past which finished executions are deleted.",
		field: func(c *Config) any { return &c.PruneMaxAge }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_PRUNE_MAX_COUNT", Flag: "executions-data-prune-max-count", Default: "10000", Help: "Most executions kept; 0 means no count limit.",
		field: func(c *Config) any { return &c.PruneMaxCount }},
	{Env: "FLOWMILL_EXECUTIONS_DATA_PRUNE_INTERVAL", Flag: "executions-data-prune-interval", Default: "1m", Help: "How often old executions are deleted; the count and age limits hold within this time under sustained load.",
		field: func(c *Config) any { return &c.PruneInterval }},
	{Env: "FLOWMILL_WAIT_POLL_INTERVAL", Flag: "wait-poll-interval", Default: "1s", Help: "How often waiting executions that are due are resumed.",
		field: func(c *Config) any { return &c.WaitPollInterval }},
	{Env: "FLOWMILL_USER_MANAGEMENT_DISABLED", Flag: "user-management-disabled", Default: "false", Help: "Turn off user accounts.",
		field: func(c *Config) any { return &c.UserManagementDisabled }},
	{Env: "FLOWMILL_PUBLIC_API_DISABLED", Flag: "public-api-disabled", Default: "false", Help: "Turn off the public API under /api/v1.",
		field: func(c *Config) any { return &c.PublicAPIDisabled }},
	{Env: "FLOWMILL_TEMPLATES_ENABLED", Flag: "templates-enabled", Default: "true", Help: "Turn on the template library: its screens and the built-in templates host.",
		field: func(c *Config) any { return &c.TemplatesEnabled }},
	{Env: "FLOWMILL_TEMPLATES_HOST", Flag: "templates-host", Default: "", Help: "Base URL of the template library API (n8n's templates API shape); empty uses the built-in host at <base path>templates-host/.",
		field: func(c *Config) any { return &c.TemplatesHost }},
	{Env: "FLOWMILL_DEMO_FRAME_ANCESTORS", Flag: "demo-frame-ancestors", Default: "", Help: "Origins, besides the editor's and the templates host's, that may frame the demo view (/workflows/demo), comma-separated; no other editor page may be framed.",
		field: func(c *Config) any { return &c.DemoFrameAncestors }},
	{Env: "FLOWMILL_PERSONALIZATION_ENABLED", Flag: "personalization-enabled", Default: "true", Help: "Ask new users the personalization survey.",
		field: func(c *Config) any { return &c.PersonalizationEnabled }},
	{Env: "FLOWMILL_WORKFLOW_TAGS_DISABLED", Flag: "workflow-tags-disabled", Default: "false", Help: "Hide workflow tags.",
		field: func(c *Config) any { return &c.WorkflowTagsDisabled }},
	{Env: "FLOWMILL_DEFAULT_LOCALE", Flag: "default-locale", Default: "en", Help: "Language of the editor.",
		field: func(c *Config) any { return &c.DefaultLocale }},
	{Env: "FLOWMILL_METRICS", Flag: "metrics", Default: "true", Help: "Serve Prometheus metrics at /metrics.",
		field: func(c *Config) any { return &c.MetricsEnabled }},
	{Env: "FLOWMILL_NODES_EXCLUDE", Flag: "nodes-exclude", Default: "", Help: "Node types to leave out, comma-separated (for example n8n-nodes-base.executeCommand).",
		field: func(c *Config) any { return &c.NodesExclude }},
	{Env: "FLOWMILL_EGRESS_ALLOW", Flag: "egress-allow", Default: "", Help: "Networks server-side fetches may reach despite the built-in refusals, comma-separated IPs or CIDRs (for example 10.1.0.0/16, fd00::/8).",
		field: func(c *Config) any { return &c.EgressAllow }},
	{Env: "FLOWMILL_EGRESS_DENY", Flag: "egress-deny", Default: "", Help: "Networks server-side fetches may never reach, comma-separated IPs or CIDRs; wins over FLOWMILL_EGRESS_ALLOW.",
		field: func(c *Config) any { return &c.EgressDeny }},
	{Env: "FLOWMILL_NODES_ENABLE", Flag: "nodes-enable", Default: "", Help: "Off-by-default node types to turn on, comma-separated: n8n-nodes-base.executeCommand (runs shell commands as the Flowmill user) and n8n-nodes-base.localFileTrigger. FLOWMILL_NODES_EXCLUDE wins.",
		field: func(c *Config) any { return &c.NodesEnable }},
	{Env: "FLOWMILL_CUSTOM_EXTENSIONS", Flag: "custom-extensions", Default: "", Help: "Folder of custom node packages: one subfolder per package with n8n declarative node descriptions and credential types as JSON files (see Custom nodes). Loaded at start; an invalid file stops the process. Empty: off.",
		field: func(c *Config) any { return &c.CustomExtensions }},
	{Env: "FLOWMILL_FILES_DIR", Flag: "files-dir", Default: "", Help: "The only folder file nodes may read and write (default files/ in the data folder, created with mode 0700); /proc, /sys, /dev and the rest of the data folder are never available.",
		field: func(c *Config) any { return &c.FilesDir }},
	{Env: "FLOWMILL_WEBHOOK_RESPONSE_TIMEOUT", Flag: "webhook-response-timeout", Default: "2m", Help: "Longest a webhook caller waits for the workflow's answer (response modes lastNode and responseNode); then 504 while the run is known to be going on, else 503 with Retry-After.",
		field: func(c *Config) any { return &c.WebhookResponseTimeout }},
	{Env: "FLOWMILL_TEST_WEBHOOK_TIMEOUT", Flag: "test-webhook-timeout", Default: "2m", Help: "How long test webhooks wait for their one call after Execute Workflow.",
		field: func(c *Config) any { return &c.TestWebhookTimeout }},
	{Env: "FLOWMILL_IDEMPOTENCY_TTL", Flag: "idempotency-ttl", Default: "24h", Help: "How long a production webhook call's Idempotency-Key is remembered: a repeat with the same key gets the first call's answer (header Idempotent-Replayed: true) instead of running the workflow again.",
		field: func(c *Config) any { return &c.IdempotencyTTL }},
	{Env: "FLOWMILL_HTTP_IDEMPOTENCY", Flag: "http-idempotency", Default: "true", Help: "The HTTP Request node sends a key stable per execution, node run and item (the same when a worker taking over repeats the request), unless the node sets that header itself.",
		field: func(c *Config) any { return &c.HTTPIdempotency }},
	{Env: "FLOWMILL_HTTP_IDEMPOTENCY_HEADER", Flag: "http-idempotency-header", Default: "Idempotency-Key", Help: "The header the HTTP Request node's idempotency key is sent in.",
		field: func(c *Config) any { return &c.HTTPIdempotencyHeader }},
	{Env: "FLOWMILL_SMTP_HOST", Flag: "smtp-host", Default: "", Help: "Mail server for invitations and password resets; empty means e-mail is not set up.",
		field: func(c *Config) any { return &c.SMTPHost }},
	{Env: "FLOWMILL_SMTP_PORT", Flag: "smtp-port", Default: "465", Help: "Port of the mail server.",
		field: func(c *Config) any { return &c.SMTPPort }},
	{Env: "FLOWMILL_SMTP_USER", Flag: "smtp-user", Default: "", Help: "User name at the mail server; empty means no sign-in.",
		field: func(c *Config) any { return &c.SMTPUser }},
	{Env: "FLOWMILL_SMTP_PASS", Flag: "smtp-pass", Default: "", Help: "Password at the mail server.", Secret: true,
		field: func(c *Config) any { return &c.SMTPPass }},
	{Env: "FLOWMILL_SMTP_SENDER", Flag: "smtp-sender", Default: "", Help: "From address of the mails, such as Flowmill <flowmill@example.com> (required with a mail server).",
		field: func(c *Config) any { return &c.SMTPSender }},
	{Env: "FLOWMILL_SMTP_SSL", Flag: "smtp-ssl", Default: "true", Help: "TLS from the first byte (port 465); false starts in plain text and upgrades with STARTTLS when offered.",
		field: func(c *Config) any { return &c.SMTPSSL }},
	{Env: "FLOWMILL_TRUSTED_PROXIES", Flag: "trusted-proxies", Default: "", Help: "Reverse proxies (IPs or CIDRs, comma-separated) whose X-Forwarded-For is believed; empty means none: the peer address is the client's.",
		field: func(c *Config) any { return &c.TrustedProxies }},
	{Env: "FLOWMILL_DOCS_URL", Flag: "docs-url", Default: "", Help: "Where the Help menu's documentation and quickstart point; empty means the built-in node documentation at <base path>docs/nodes.",
		field: func(c *Config) any { return &c.DocsURL }},
	{Env: "FLOWMILL_ISSUES_URL", Flag: "issues-url", Default: "https://github.com/flowmill/flowmill/issues", Help: "The issue tracker the Help menu's forum entry and the node creator's \"Request a node\" point at.",
		field: func(c *Config) any { return &c.IssuesURL }},
	{Env: "FLOWMILL_VERSION_NOTIFICATIONS_ENABLED", Flag: "version-notifications-enabled", Default: "false", Help: "Ask the version endpoint for newer releases: the editor shows them and the security audit reports an outdated instance. Off by default: Flowmill calls no outside service unless an admin turns this on.",
		field: func(c *Config) any { return &c.VersionNotificationsEnabled }},
	{Env: "FLOWMILL_VERSION_NOTIFICATIONS_ENDPOINT", Flag: "version-notifications-endpoint", Default: DefaultVersionsEndpoint, Help: "The version endpoint (Flowmill's own release feed by default), an http(s) URL; the current version is appended to it (GET <endpoint><version>, with the instance id in the n8n-instance-id header), without a user name or password: the editor's settings show it to everyone.",
		field: func(c *Config) any { return &c.VersionNotificationsEndpoint }},
	{Env: "FLOWMILL_VERSION_NOTIFICATIONS_INFO_URL", Flag: "version-notifications-info-url", Default: "", Help: "Page on how to update, linked from the editor's version notices and the audit's outdated-instance finding; empty or an http(s) URL.",
		field: func(c *Config) any { return &c.VersionNotificationsInfoURL }},
	{Env: "FLOWMILL_HEALTH_PORT", Flag: "health-port", Default: "0", Help: "Port on which a worker or scheduler process serves /healthz, /healthz/readiness and /metrics (FLOWMILL_METRICS still applies), on FLOWMILL_LISTEN_ADDRESS; 0 means none. The api serves them on its own port.",
		field: func(c *Config) any { return &c.HealthPort }},
	{Env: "FLOWMILL_PPROF_ADDR", Flag: "pprof-addr", Default: "", Help: "Loopback host:port (127.0.0.1:6060, [::1]:6060 or localhost:6060) on which each process serves Go's runtime profiles at /debug/pprof/ (e.g. `go tool pprof http://127.0.0.1:6060/debug/pprof/profile?seconds=10`); empty means none. Other hosts are refused. For diagnosing CPU and memory use; leave it off in production.",
		field: func(c *Config) any { return &c.PprofAddr }},
	{Env: "FLOWMILL_PROMPTS_ENABLED", Flag: "prompts-enabled", Default: "false", Help: "Show the editor's contact prompt and value survey, asked for and answered at the prompts host. Off by default: nothing is asked or sent unless an admin turns this on.",
		field: func(c *Config) any { return &c.PromptsEnabled }},
	{Env: "FLOWMILL_PROMPTS_HOST", Flag: "prompts-host", Default: "", Help: "The prompts host the editor calls (GET /prompts, POST /prompt, POST /value-survey, with the n8n-instance-id and n8n-user-id headers); empty means the built-in host, which keeps the answers in the database and lists them for the owner on the users settings page. An http(s) URL without a user name or password.",
		field: func(c *Config) any { return &c.PromptsHost }},
	{Env: "FLOWMILL_UNPACK_MAX_SIZE", Flag: "unpack-max-size", Default: "256", Help: "Most bytes, in MiB (1–65536), that one file a node reads may unpack to (Spreadsheet File's XLSX and ODS, Read PDF's page contents and fonts; for Compression, everything one run decompresses, summed over its files); past it the node fails, so a zip bomb cannot fill the worker's memory.",
		field: func(c *Config) any { return &c.UnpackMaxSize }},
}

// Redacted lists every setting as NAME=value with secrets hidden, for logs and diagnostics.
func (c *Config) Redacted() []string {
	out := make([]string, 0, len(registry))
	for _, s := range registry {
		v := s.value(c)
		if s.Secret && v != "" {
			v = redact(v)
		}
		out = append(out, s.Env+"="+v)
	}
	return out
}

func redact(v string) string {
	if strings.Contains(v, "://") {
		return redactURL(v)
	}
	return "(set)"
}

// redactURL hides the password of a URL and keeps the rest readable.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	return u.String()
}
