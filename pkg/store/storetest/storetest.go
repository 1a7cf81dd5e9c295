// Package storetest opens isolated databases for tests: a fresh Postgres schema or a fresh
// SQLite file per test, both migrated.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for schema setup

	"github.com/flowmill/flowmill/pkg/store"
)

// PostgresURL is the server tests use: FLOWMILL_TEST_DATABASE_URL, else the local one.
func PostgresURL() string {
	if u := os.Getenv("FLOWMILL_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// Postgres returns a store on a new schema that is dropped when the test ends.
func Postgres(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Options{DatabaseURL: PostgresSchemaURL(t), MaxOpenConns: 10})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// PostgresSchemaURL creates an empty schema, dropped when the test ends, and returns a database
// URL that uses it: for tests that start processes of their own on a fresh database.
func PostgresSchemaURL(t testing.TB) string {
	t.Helper()
	schema := "t_" + strings.ToLower(store.NewID())
	admin, err := sql.Open("pgx", PostgresURL())
	if err != nil {
		t.Fatalf("open postgres: %v", err)
	}
	t.Cleanup(func() { _ = admin.Close() })
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("postgres at %s is needed for this test: %v", PostgresURL(), err)
	}
	t.Cleanup(func() { _, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
	return WithSchema(PostgresURL(), schema)
}

// WithSchema points a Postgres URL at schema.
func WithSchema(raw, schema string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// SQLite returns a store on a new database file in the test's temporary folder.
func SQLite(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), store.Options{SQLitePath: filepath.Join(t.TempDir(), "flowmill.sqlite")})
	if err != nil {
		t.Fatalf("open sqlite store: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Each runs fn as a subtest against Postgres and against SQLite.
func Each(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	for _, d := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"postgres", Postgres}, {"sqlite", SQLite}} {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			fn(t, d.open(t))
		})
	}
}

// CreateDatabase makes a new, empty database on the server at base and returns its URL and a
// function that drops it (closing any sessions still on it). For whole-stack runs.
func CreateDatabase(ctx context.Context, base string) (string, func(), error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	name := "flowmill_run_" + strings.ToLower(store.NewID())
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		_ = admin.Close()
		return "", nil, fmt.Errorf("create database on %s: %w", base, err)
	}
	u, err := url.Parse(base)
	if err != nil {
		_ = admin.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		_ = admin.Close()
	}
	return u.String(), drop, nil
}
