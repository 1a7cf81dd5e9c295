package store

// migrations are applied in order by goose. Each is written once in a dialect-neutral form; the
// placeholders are replaced per database so Postgres and SQLite get the same schema:
//
//	{{id}}   auto-incrementing 64-bit primary key
//	{{json}} a JSON document (json on Postgres: it keeps the text as written, key order included,
//	         which n8n documents depend on; see migration 3)
//	{{ts}}   a timestamp with time zone
//
// A migration marked postgres is applied on Postgres only (SQLite runs an empty one).
// Never edit a migration that has shipped; add a new one.
var migrations = []struct {
	name     string
	up       string
	down     string
	postgres bool
}{
	{name: "init", up: `
CREATE TABLE settings (
  key varchar(255) PRIMARY KEY,
  value text NOT NULL,
  load_on_startup boolean NOT NULL DEFAULT false
);

CREATE TABLE users (
  id varchar(36) PRIMARY KEY,
  email varchar(255) UNIQUE,
  first_name varchar(32),
  last_name varchar(32),
  password varchar(255),
  global_role varchar(16) NOT NULL,
  personalization_answers {{json}},
  settings {{json}},
  password_changed_at {{ts}},
  disabled boolean NOT NULL DEFAULT false,
  created_at {{ts}} NOT NULL,
  updated_at {{ts}} NOT NULL
);

CREATE TABLE workflows (
  id varchar(36) PRIMARY KEY,
  name varchar(128) NOT NULL,
  active boolean NOT NULL DEFAULT false,
  nodes {{json}} NOT NULL,
  connections {{json}} NOT NULL,
  settings {{json}},
  static_data {{json}},
  pin_data {{json}},
  version_id varchar(36) NOT NULL DEFAULT '',
  created_at {{ts}} NOT NULL,
  updated_at {{ts}} NOT NULL
);
CREATE UNIQUE INDEX workflows_name ON workflows (name);

CREATE TABLE tags (
  id varchar(36) PRIMARY KEY,
  name varchar(24) NOT NULL UNIQUE,
  created_at {{ts}} NOT NULL,
  updated_at {{ts}} NOT NULL
);

CREATE TABLE workflow_tags (
  workflow_id varchar(36) NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  tag_id varchar(36) NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  PRIMARY KEY (workflow_id, tag_id)
);
CREATE INDEX workflow_tags_tag ON workflow_tags (tag_id);

CREATE TABLE credentials (
  id varchar(36) PRIMARY KEY,
  name varchar(128) NOT NULL,
  type varchar(128) NOT NULL,
  data text NOT NULL,
  nodes_access {{json}},
  created_at {{ts}} NOT NULL,
  updated_at {{ts}} NOT NULL
);
CREATE INDEX credentials_type ON credentials (type);

CREATE TABLE shared_workflows (
  workflow_id varchar(36) NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  user_id varchar(36) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role varchar(16) NOT NULL,
  created_at {{ts}} NOT NULL,
  PRIMARY KEY (workflow_id, user_id)
);
CREATE INDEX shared_workflows_user ON shared_workflows (user_id);

CREATE TABLE shared_credentials (
  credential_id varchar(36) NOT NULL REFERENCES credentials (id) ON DELETE CASCADE,
  user_id varchar(36) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role varchar(16) NOT NULL,
  created_at {{ts}} NOT NULL,
  PRIMARY KEY (credential_id, user_id)
);
CREATE INDEX shared_credentials_user ON shared_credentials (user_id);

CREATE TABLE executions (
  id {{id}},
  workflow_id varchar(36),
  status varchar(16) NOT NULL,
  mode varchar(16) NOT NULL,
  finished boolean NOT NULL DEFAULT false,
  retry_of bigint,
  retry_success_id bigint,
  session_id varchar(64) NOT NULL DEFAULT '',
  lease_owner varchar(128) NOT NULL DEFAULT '',
  lease_expires_at {{ts}},
  created_at {{ts}} NOT NULL,
  started_at {{ts}},
  stopped_at {{ts}},
  wait_till {{ts}}
);
CREATE INDEX executions_workflow ON executions (workflow_id, id);
CREATE INDEX executions_status ON executions (status, id);
CREATE INDEX executions_wait_till ON executions (wait_till);
CREATE INDEX executions_stopped_at ON executions (stopped_at);

CREATE TABLE execution_data (
  execution_id bigint PRIMARY KEY REFERENCES executions (id) ON DELETE CASCADE,
  workflow_data {{json}} NOT NULL,
  data {{json}}
);

CREATE TABLE webhooks (
  id varchar(36) PRIMARY KEY,
  workflow_id varchar(36) NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
  node varchar(128) NOT NULL,
  method varchar(8) NOT NULL,
  path varchar(512) NOT NULL,
  webhook_id varchar(36),
  path_length integer NOT NULL DEFAULT 0,
  UNIQUE (method, path)
);
CREATE INDEX webhooks_workflow ON webhooks (workflow_id);
CREATE INDEX webhooks_dynamic ON webhooks (webhook_id, method, path_length);

CREATE TABLE api_keys (
  id varchar(36) PRIMARY KEY,
  user_id varchar(36) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key_hash varchar(128) NOT NULL UNIQUE,
  key_hint varchar(16) NOT NULL DEFAULT '',
  created_at {{ts}} NOT NULL
);
CREATE INDEX api_keys_user ON api_keys (user_id);

CREATE TABLE auth_tokens (
  id varchar(36) PRIMARY KEY,
  user_id varchar(36) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind varchar(16) NOT NULL,
  token_hash varchar(128) NOT NULL UNIQUE,
  expires_at {{ts}} NOT NULL,
  used_at {{ts}},
  created_at {{ts}} NOT NULL
);
CREATE INDEX auth_tokens_user ON auth_tokens (user_id, kind);
`, down: `
DROP TABLE auth_tokens;
DROP TABLE api_keys;
DROP TABLE webhooks;
DROP TABLE execution_data;
DROP TABLE executions;
DROP TABLE shared_credentials;
DROP TABLE shared_workflows;
DROP TABLE credentials;
DROP TABLE workflow_tags;
DROP TABLE tags;
DROP TABLE workflows;
DROP TABLE users;
DROP TABLE settings;
`},
	{name: "execution_start", up: `
ALTER TABLE execution_data ADD COLUMN start_data {{json}};
ALTER TABLE executions ADD COLUMN workflow_name varchar(128) NOT NULL DEFAULT '';
CREATE INDEX executions_created_at ON executions (created_at);
`, down: `
DROP INDEX executions_created_at;
ALTER TABLE executions DROP COLUMN workflow_name;
ALTER TABLE execution_data DROP COLUMN start_data;
`},
	{name: "json_keeps_key_order", postgres: true, up: `
ALTER TABLE users ALTER COLUMN personalization_answers TYPE json, ALTER COLUMN settings TYPE json;
ALTER TABLE workflows ALTER COLUMN nodes TYPE json, ALTER COLUMN connections TYPE json,
  ALTER COLUMN settings TYPE json, ALTER COLUMN static_data TYPE json, ALTER COLUMN pin_data TYPE json;
ALTER TABLE credentials ALTER COLUMN nodes_access TYPE json;
ALTER TABLE execution_data ALTER COLUMN workflow_data TYPE json, ALTER COLUMN data TYPE json,
  ALTER COLUMN start_data TYPE json;
`, down: `
ALTER TABLE users ALTER COLUMN personalization_answers TYPE jsonb, ALTER COLUMN settings TYPE jsonb;
ALTER TABLE workflows ALTER COLUMN nodes TYPE jsonb, ALTER COLUMN connections TYPE jsonb,
  ALTER COLUMN settings TYPE jsonb, ALTER COLUMN static_data TYPE jsonb, ALTER COLUMN pin_data TYPE jsonb;
ALTER TABLE credentials ALTER COLUMN nodes_access TYPE jsonb;
ALTER TABLE execution_data ALTER COLUMN workflow_data TYPE jsonb, ALTER COLUMN data TYPE jsonb,
  ALTER COLUMN start_data TYPE jsonb;
`},
	// Every status change of an execution rewrites its row and adds an entry to each of its
	// indexes; rows that have not stopped or are not waiting need no entry in these two.
	{name: "partial_execution_indexes", up: `
DROP INDEX executions_wait_till;
CREATE INDEX executions_wait_till ON executions (wait_till) WHERE wait_till IS NOT NULL;
DROP INDEX executions_stopped_at;
CREATE INDEX executions_stopped_at ON executions (stopped_at) WHERE stopped_at IS NOT NULL;
`, down: `
DROP INDEX executions_stopped_at;
CREATE INDEX executions_stopped_at ON executions (stopped_at);
DROP INDEX executions_wait_till;
CREATE INDEX executions_wait_till ON executions (wait_till);
`},
	// Signing out revokes the session by its id until it would have expired anyway.
	{name: "revoked_sessions", up: `
CREATE TABLE revoked_sessions (
  id varchar(64) PRIMARY KEY,
  expires_at {{ts}} NOT NULL
);
CREATE INDEX revoked_sessions_expires_at ON revoked_sessions (expires_at);
`, down: `
DROP TABLE revoked_sessions;
`},
	// Every execution acts for one user: whose credentials it may use and which workflows it may
	// run as sub-workflows. Existing executions act for their workflow's owner.
	{name: "execution_user", up: `
ALTER TABLE executions ADD COLUMN user_id varchar(36) NOT NULL DEFAULT '';
UPDATE executions SET user_id = COALESCE((SELECT sw.user_id FROM shared_workflows sw
  WHERE sw.workflow_id = executions.workflow_id AND sw.role = 'owner'), '')
  WHERE workflow_id IS NOT NULL;
CREATE INDEX executions_user ON executions (user_id, id);
`, down: `
DROP INDEX executions_user;
ALTER TABLE executions DROP COLUMN user_id;
`},
	// A webhook execution's answer is kept in the database as well as sent over Redis, so a
	// caller whose Redis message was lost still gets it, and a repeated call with the same
	// Idempotency-Key gets the first call's answer. Neither table refers to executions: an
	// answer outlives an execution its settings do not keep; both expire after the idempotency
	// retention window.
	{name: "webhook_answers_idempotency", up: `
CREATE TABLE webhook_answers (
  execution_id bigint PRIMARY KEY,
  answer text NOT NULL,
  created_at {{ts}} NOT NULL
);
CREATE INDEX webhook_answers_created_at ON webhook_answers (created_at);
CREATE TABLE idempotency_keys (
  scope varchar(64) NOT NULL,
  key varchar(255) NOT NULL,
  execution_id bigint,
  created_at {{ts}} NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
`, down: `
DROP TABLE idempotency_keys;
DROP TABLE webhook_answers;
`},
	// A checkpoint appends the node runs since the previous one (see checkpoints.go) instead of
	// rewriting all run data.
	{name: "execution_checkpoints", up: `
CREATE TABLE execution_checkpoints (
  seq {{id}},
  execution_id bigint NOT NULL REFERENCES executions (id) ON DELETE CASCADE,
  data {{json}} NOT NULL
);
CREATE INDEX execution_checkpoints_execution ON execution_checkpoints (execution_id, seq);
`, down: `
DROP TABLE execution_checkpoints;
`},
	// A claim counts the takeovers of an execution whose worker died, so a run that keeps killing
	// its worker ends crashed; running_node names the node it was in. At most one retry of an
	// execution is pending at a time.
	{name: "execution_takeovers", up: `
ALTER TABLE executions ADD COLUMN takeovers integer NOT NULL DEFAULT 0;
ALTER TABLE executions ADD COLUMN running_node varchar(255) NOT NULL DEFAULT '';
CREATE UNIQUE INDEX executions_one_pending_retry ON executions (retry_of)
  WHERE retry_of IS NOT NULL AND status IN ('new', 'queued', 'running');
`, down: `
DROP INDEX executions_one_pending_retry;
ALTER TABLE executions DROP COLUMN running_node;
ALTER TABLE executions DROP COLUMN takeovers;
`},
	// OAuth connects keep their state (OAuth2 state, or the OAuth1 request token) server-side so
	// any api replica can finish them, once; a credential's token refresh is leased so one process
	// refreshes while the others wait for its result.
	{name: "oauth_states_refresh_leases", up: `
CREATE TABLE oauth_states (
  key_hash varchar(64) PRIMARY KEY,
  kind varchar(16) NOT NULL,
  user_id varchar(36) NOT NULL,
  credential_id varchar(36) NOT NULL REFERENCES credentials (id) ON DELETE CASCADE,
  secret text NOT NULL,
  expires_at {{ts}} NOT NULL,
  created_at {{ts}} NOT NULL
);
CREATE INDEX oauth_states_expires_at ON oauth_states (expires_at);
CREATE TABLE credential_refresh_leases (
  credential_id varchar(36) PRIMARY KEY REFERENCES credentials (id) ON DELETE CASCADE,
  owner varchar(64) NOT NULL,
  expires_at {{ts}} NOT NULL
);
`, down: `
DROP TABLE credential_refresh_leases;
DROP TABLE oauth_states;
`},
	// The built-in prompts host keeps what it offered each user and what they answered (the
	// contact prompt's e-mail, the value survey's score), for the owner to read.
	{name: "prompt_events", up: `
CREATE TABLE prompt_events (
  id {{id}},
  user_id varchar(36) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind varchar(16) NOT NULL,
  action varchar(16) NOT NULL,
  email varchar(255) NOT NULL DEFAULT '',
  score integer,
  created_at {{ts}} NOT NULL
);
CREATE INDEX prompt_events_user_kind ON prompt_events (user_id, kind, action);
`, down: `
DROP TABLE prompt_events;
`},
}
