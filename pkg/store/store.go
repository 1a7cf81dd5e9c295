// Package store keeps Flowmill's data in Postgres (scaled mode) or SQLite (embedded mode)
// through gorm, with one schema applied by versioned goose migrations on both.
package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// ErrNotFound is returned when a looked-up row does not exist.
var ErrNotFound = errors.New("not found")

// ErrConflict is returned when a write would break a uniqueness rule.
var ErrConflict = errors.New("conflict")

// Dialect names the database behind a Store.
type Dialect string

// The two supported databases.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// Options select the database. With DatabaseURL empty, SQLitePath is used.
type Options struct {
	// DatabaseURL is a postgres:// URL; empty means SQLite.
	DatabaseURL string
	// SQLitePath is the SQLite database file; its folder is created when missing.
	SQLitePath string
	// MaxOpenConns bounds the Postgres pool. Default 20.
	MaxOpenConns int
	Logger       *slog.Logger
}

// Store is the handle every repository hangs off.
type Store struct {
	DB      *gorm.DB
	Dialect Dialect
	sqlDB   *sql.DB
	log     *slog.Logger
	// group shares SQLite transactions between execution writes; nil on Postgres.
	group *groupCommit
}

// Open connects, checks the connection and applies pending migrations.
func Open(ctx context.Context, opts Options) (*Store, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	// Single statements need no transaction of their own: that would add a BEGIN and a COMMIT
	// round trip to every write. Multi-statement writes use Transaction explicitly.
	gcfg := &gorm.Config{Logger: logger.Discard, TranslateError: true, SkipDefaultTransaction: true,
		NowFunc: func() time.Time { return time.Now().UTC() }}
	var (
		db      *gorm.DB
		err     error
		dialect Dialect
	)
	if opts.DatabaseURL != "" {
		dialect = Postgres
		db, err = gorm.Open(postgres.Open(opts.DatabaseURL), gcfg)
	} else {
		dialect = SQLite
		if err := os.MkdirAll(filepath.Dir(opts.SQLitePath), 0o700); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
		db, err = openSQLiteDB(opts.SQLitePath, gcfg)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	if dialect == Postgres {
		sqlDB.SetMaxOpenConns(cmp.Or(max(opts.MaxOpenConns, 0), 20))
		sqlDB.SetMaxIdleConns(cmp.Or(max(opts.MaxOpenConns, 0), 20))
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	} else {
		// SQLite takes one writer at a time, and a connection waiting for the write lock sleeps
		// in growing steps (up to 100 ms each): under concurrent writes that, not the work,
		// sets the latency. One connection makes statements wait their turn in the pool instead.
		sqlDB.SetMaxOpenConns(1)
	}
	s := &Store{DB: db, Dialect: dialect, sqlDB: sqlDB, log: opts.Logger}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Ping(pingCtx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("reach %s database: %w", dialect, err)
	}
	if err := s.migrate(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, err
	}
	if err := s.incrementalVacuum(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, err
	}
	if dialect == SQLite {
		s.group = newGroupCommit(db)
	}
	return s, nil
}

// openSQLiteDB opens the file through modernc.org/sqlite's driver with each connection keeping its
// prepared statements (stmtcache.go); glebarez/sqlite is the gorm dialector.
func openSQLiteDB(path string, gcfg *gorm.Config) (*gorm.DB, error) {
	connector, err := newStmtCacheConnector(sqliteDSN(path), stmtCacheSize)
	if err != nil {
		return nil, err
	}
	pool := sql.OpenDB(connector)
	db, err := gorm.Open(sqlite.Dialector{Conn: pool}, gcfg)
	if err != nil {
		_ = pool.Close()
		return nil, err
	}
	return db, nil
}

// sqliteDSN turns on incremental auto-vacuum (takes effect in a new file; see
// incrementalVacuum for an older one), WAL, a busy timeout and foreign keys, and takes the
// write lock when a transaction starts so two writers never deadlock upgrading a read lock.
// Times are written as "2006-01-02 15:04:05.999999999-07:00" in UTC (_time_format=sqlite,
// _timezone=UTC): the text glebarez/go-sqlite, the driver before modernc's, wrote for the UTC
// times the store keeps, so files it wrote read back unchanged and still sort as text; and the
// ones read back are in UTC, as they were, rather than in the machine's zone.
func sqliteDSN(path string) string {
	return "file:" + path + "?_pragma=auto_vacuum(2)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)" +
		"&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate&_time_format=sqlite&_timezone=UTC"
}

// incrementalVacuum puts a SQLite file made before incremental auto-vacuum into that mode, so
// that ReleaseFreeSpace can shrink it after pruning. Changing the mode of a file with tables
// takes one VACUUM, which rewrites the whole file: done once, at the first start after the
// upgrade.
func (s *Store) incrementalVacuum(ctx context.Context) error {
	if s.Dialect != SQLite {
		return nil
	}
	var mode int
	if err := s.DB.WithContext(ctx).Raw("PRAGMA auto_vacuum").Scan(&mode).Error; err != nil {
		return fmt.Errorf("read auto_vacuum mode: %w", err)
	}
	const incremental = 2
	if mode == incremental {
		return nil
	}
	s.log.Info("rewriting the SQLite file once so that pruning can shrink it (VACUUM)")
	if err := s.DB.WithContext(ctx).Exec("PRAGMA auto_vacuum = INCREMENTAL").Error; err != nil {
		return fmt.Errorf("set auto_vacuum mode: %w", err)
	}
	if err := s.DB.WithContext(ctx).Exec("VACUUM").Error; err != nil {
		return fmt.Errorf("vacuum the SQLite file: %w", err)
	}
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.sqlDB.PingContext(ctx) }

// Close releases the connection pool.
func (s *Store) Close() error {
	if s.group != nil {
		s.group.stop()
	}
	return s.sqlDB.Close()
}

// SQL exposes the underlying pool, for migrations and health checks.
func (s *Store) SQL() *sql.DB { return s.sqlDB }

func (s *Store) migrate(ctx context.Context) error {
	fsys := fstest.MapFS{}
	for i, m := range migrations {
		up, down := m.up, m.down
		if m.postgres && s.Dialect != Postgres {
			up, down = "SELECT 1;", "SELECT 1;"
		}
		body := "-- +goose Up\n-- +goose StatementBegin\n" + s.render(up) + "\n-- +goose StatementEnd\n" +
			"-- +goose Down\n-- +goose StatementBegin\n" + s.render(down) + "\n-- +goose StatementEnd\n"
		fsys[fmt.Sprintf("%05d_%s.sql", i+1, m.name)] = &fstest.MapFile{Data: []byte(body)}
	}
	opts := []goose.ProviderOption{}
	dialect := goose.DialectSQLite3
	if s.Dialect == Postgres {
		dialect = goose.DialectPostgres
		// Processes started together (an api, its workers and schedulers) wait in turn for the
		// migration lock: they ask every second, for up to 5 minutes, not goose's every 5 s.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, s.sqlDB, fsys, opts...)
	if err != nil {
		return fmt.Errorf("prepare migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		s.log.Info("applied migration", "version", r.Source.Version, "file", r.Source.Path)
	}
	return nil
}

// Migrated reports whether every migration has been applied.
func (s *Store) Migrated(ctx context.Context) error {
	var version int64
	err := s.sqlDB.QueryRowContext(ctx, "SELECT MAX(version_id) FROM goose_db_version").Scan(&version)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version < int64(len(migrations)) {
		return fmt.Errorf("schema version %d, want %d", version, len(migrations))
	}
	return nil
}

func (s *Store) render(sqlText string) string {
	r := strings.NewReplacer(
		"{{id}}", map[Dialect]string{Postgres: "bigserial PRIMARY KEY", SQLite: "integer PRIMARY KEY AUTOINCREMENT"}[s.Dialect],
		"{{json}}", map[Dialect]string{Postgres: "json", SQLite: "text"}[s.Dialect],
		"{{ts}}", map[Dialect]string{Postgres: "timestamptz", SQLite: "datetime"}[s.Dialect],
	)
	return r.Replace(sqlText)
}

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// NewID returns a random 16-character alphanumeric id, the form workflow, tag and credential
// ids take.
func NewID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// notFound maps gorm's record-not-found to ErrNotFound, wrapped with what was looked up.
func notFound(err error, what string) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return fmt.Errorf("%s: %w", what, ErrConflict)
	}
	return err
}
