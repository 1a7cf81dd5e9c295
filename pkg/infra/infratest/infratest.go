// Package infratest opens the plumbing of a Flowmill process for a test: a fresh Postgres schema
// and Redis database on the local test servers (see storetest and queuetest), a temporary data
// folder, and the settings a test adds.
package infratest

import (
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// Env returns the settings of a process on a fresh Postgres schema and Redis database, with an
// encryption key and errors-only logging, then vars on top (an empty value unsets a setting).
func Env(t testing.TB, vars map[string]string) map[string]string {
	t.Helper()
	_, redisURL := queuetest.Redis(t)
	env := map[string]string{
		"FLOWMILL_DATABASE_URL":   storetest.PostgresSchemaURL(t),
		"FLOWMILL_REDIS_URL":      redisURL,
		"FLOWMILL_DATA_DIR":       t.TempDir(),
		"FLOWMILL_ENCRYPTION_KEY": "test-encryption-key-0123",
		"FLOWMILL_LOG_LEVEL":      "error",
	}
	for k, v := range vars {
		env[k] = v
	}
	return env
}

// Config loads the configuration of env.
func Config(t testing.TB, env map[string]string) *config.Config {
	t.Helper()
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	require.NoError(t, err)
	return cfg
}

// Open opens infra on Env(t, vars); it is closed when the test ends.
func Open(t testing.TB, vars map[string]string) *infra.Infra {
	t.Helper()
	cfg := Config(t, Env(t, vars))
	in, err := infra.Open(context.Background(), cfg, cfg.Logger(io.Discard))
	require.NoError(t, err)
	t.Cleanup(in.Close)
	return in
}
