package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	modernc "modernc.org/sqlite"
)

// cancelQuery is what the SQL function cancel_query() calls: a test sets it to cancel the
// context of the statement that is running, so the cancellation lands mid-statement without
// waiting on a clock.
var cancelQuery struct {
	sync.Mutex
	fn func()
}

func init() {
	// Functions must be registered before the first connection opens; the store's other
	// connections never call it.
	modernc.MustRegisterScalarFunction("cancel_query", 0, func(*modernc.FunctionContext, []driver.Value) (driver.Value, error) {
		cancelQuery.Lock()
		defer cancelQuery.Unlock()
		if cancelQuery.fn != nil {
			cancelQuery.fn()
		}
		return int64(1), nil
	})
}

// openCached opens a one-connection pool, as the store's, on a new SQLite file through a
// statement cache of size statements, with table t (v integer) in it.
func openCached(t *testing.T, size int) (*sql.DB, *stmtCacheConnector) {
	t.Helper()
	connector, err := newStmtCacheConnector(sqliteDSN(filepath.Join(t.TempDir(), "cache.sqlite")), size)
	require.NoError(t, err)
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	_, err = db.Exec(`CREATE TABLE t (v integer)`)
	require.NoError(t, err)
	return db, connector
}

// A statement used in one transaction after another is prepared once, by the first.
func TestStmtCachePreparesOnceAcrossTransactions(t *testing.T) {
	db, c := openCached(t, 16)
	ctx := context.Background()
	before := c.prepared.Load()
	for i := range 5 {
		tx, err := db.BeginTx(ctx, nil)
		require.NoError(t, err)
		_, err = tx.ExecContext(ctx, `INSERT INTO t (v) VALUES (?)`, i)
		require.NoError(t, err)
		var n int
		require.NoError(t, tx.QueryRowContext(ctx, `SELECT count(*) FROM t WHERE v <= ?`, i).Scan(&n))
		require.Equal(t, i+1, n)
		require.NoError(t, tx.Commit())
	}
	require.Equal(t, int64(2), c.prepared.Load()-before, "the INSERT and the SELECT, once each")
	require.Zero(t, c.uncached.Load())
}

// The same query run again while the rows of its cached statement are still open runs on a
// statement of its own, and both read the right rows; afterwards the cached one serves again.
func TestStmtCacheNestedUseOfOneQuery(t *testing.T) {
	db, c := openCached(t, 16)
	ctx := context.Background()
	_, err := db.Exec(`INSERT INTO t (v) VALUES (1), (2), (3)`)
	require.NoError(t, err)
	const q = `SELECT v FROM t WHERE v >= ? ORDER BY v`

	tx, err := db.BeginTx(ctx, nil) // one connection for both queries
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	outer, err := tx.QueryContext(ctx, q, 1)
	require.NoError(t, err)
	var got [][]int
	for outer.Next() {
		var v int
		require.NoError(t, outer.Scan(&v))
		inner, err := tx.QueryContext(ctx, q, v)
		require.NoError(t, err)
		row := []int{v}
		for inner.Next() {
			var w int
			require.NoError(t, inner.Scan(&w))
			row = append(row, w)
		}
		require.NoError(t, inner.Err())
		require.NoError(t, inner.Close())
		got = append(got, row)
	}
	require.NoError(t, outer.Err())
	require.NoError(t, outer.Close())
	require.Equal(t, [][]int{{1, 1, 2, 3}, {2, 2, 3}, {3, 3}}, got)
	require.Equal(t, int64(3), c.uncached.Load(), "one one-off per inner query")

	prepared := c.prepared.Load()
	var n int
	require.NoError(t, tx.QueryRowContext(ctx, q, 3).Scan(&n))
	require.Equal(t, 3, n)
	require.Equal(t, prepared, c.prepared.Load(), "the cached statement is free again")
	require.Equal(t, int64(3), c.uncached.Load())
}

// Beyond the bound, the least recently used statement is closed, at once or, while its rows
// are open, when they close; closing the connection closes the rest.
func TestStmtCacheEvictionClosesStatements(t *testing.T) {
	db, c := openCached(t, 2)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	exec := func(q string) {
		t.Helper()
		_, err := conn.ExecContext(ctx, q)
		require.NoError(t, err)
	}
	exec(`SELECT 1`)
	exec(`SELECT 2`) // the cache: SELECT 2, SELECT 1
	closedAtStart := c.closed.Load()

	exec(`SELECT 3`) // evicts SELECT 1
	require.Equal(t, int64(1), c.closed.Load()-closedAtStart)
	prepared := c.prepared.Load()
	exec(`SELECT 1`) // prepared again, evicts SELECT 2
	require.Equal(t, prepared+1, c.prepared.Load())
	require.Equal(t, int64(2), c.closed.Load()-closedAtStart)

	rows, err := conn.QueryContext(ctx, `SELECT v FROM t`)
	require.NoError(t, err) // cache: SELECT v, SELECT 1; SELECT 3 closed
	require.Equal(t, int64(3), c.closed.Load()-closedAtStart)
	exec(`SELECT 4`) // evicts SELECT 1
	exec(`SELECT 5`) // evicts SELECT v, busy: closed with its rows
	require.Equal(t, int64(4), c.closed.Load()-closedAtStart)
	require.NoError(t, rows.Close())
	require.Equal(t, int64(5), c.closed.Load()-closedAtStart)

	require.NoError(t, conn.Close())
	require.NoError(t, db.Close())
	require.Equal(t, int64(7), c.closed.Load()-closedAtStart, "SELECT 4 and 5 with the connection")
}

// A cached statement used again after the table changed reads the table as it is now.
func TestStmtCacheSeesSchemaChanges(t *testing.T) {
	db, c := openCached(t, 16)
	_, err := db.Exec(`INSERT INTO t (v) VALUES (7)`)
	require.NoError(t, err)
	const q = `SELECT * FROM t`
	columns := func() ([]string, []any) {
		t.Helper()
		rows, err := db.Query(q)
		require.NoError(t, err)
		defer func() { _ = rows.Close() }()
		names, err := rows.Columns()
		require.NoError(t, err)
		require.True(t, rows.Next())
		values := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range values {
			ptrs[i] = &values[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		return names, values
	}

	names, values := columns()
	require.Equal(t, []string{"v"}, names)
	require.Equal(t, []any{int64(7)}, values)
	_, err = db.Exec(`ALTER TABLE t ADD COLUMN w text NOT NULL DEFAULT 'added'`)
	require.NoError(t, err)
	prepared := c.prepared.Load()
	names, values = columns()
	require.Equal(t, []string{"v", "w"}, names)
	require.Equal(t, []any{int64(7), "added"}, values)
	require.Equal(t, prepared, c.prepared.Load(), "the cached statement, recompiled by SQLite")
}

// A cancelled context fails its statement and leaves the cache usable: before it starts, while
// it runs (the connection is then replaced), and while its rows are read.
func TestStmtCacheCancelledContext(t *testing.T) {
	db, c := openCached(t, 16)
	_, err := db.Exec(`INSERT INTO t (v) VALUES (1), (2)`)
	require.NoError(t, err)
	const q = `SELECT v FROM t ORDER BY v`
	readAll := func() []int {
		t.Helper()
		rows, err := db.Query(q)
		require.NoError(t, err)
		defer func() { _ = rows.Close() }()
		var vs []int
		for rows.Next() {
			var v int
			require.NoError(t, rows.Scan(&v))
			vs = append(vs, v)
		}
		require.NoError(t, rows.Err())
		return vs
	}
	require.Equal(t, []int{1, 2}, readAll())

	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := db.QueryContext(ctx, q)
		require.ErrorIs(t, err, context.Canceled)
		prepared := c.prepared.Load()
		require.Equal(t, []int{1, 2}, readAll())
		require.Equal(t, prepared, c.prepared.Load())
	})

	t.Run("running", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cancelQuery.Lock()
		cancelQuery.fn = cancel
		cancelQuery.Unlock()
		defer func() {
			cancelQuery.Lock()
			cancelQuery.fn = nil
			cancelQuery.Unlock()
		}()
		// Counts far past any reachable row: only the interrupt ends it.
		_, err := db.ExecContext(ctx, `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
			SELECT count(*) FROM c WHERE x = 1 AND cancel_query() OR x < 0`)
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, []int{1, 2}, readAll())
	})

	t.Run("reading", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		rows, err := db.QueryContext(ctx, q)
		require.NoError(t, err)
		require.True(t, rows.Next())
		cancel()
		for rows.Next() {
		}
		// database/sql closes the rows on cancellation, unless the last row came first; either
		// way the statement is free again.
		if err := rows.Err(); err != nil {
			require.ErrorIs(t, err, context.Canceled)
		}
		require.NoError(t, rows.Close())
		prepared := c.prepared.Load()
		require.Equal(t, []int{1, 2}, readAll())
		require.Equal(t, prepared, c.prepared.Load())
	})
}

// Several statements in one string run, uncached.
func TestStmtCacheRunsScriptsUncached(t *testing.T) {
	db, c := openCached(t, 16)
	prepared := c.prepared.Load()
	_, err := db.Exec(`CREATE TABLE a (x integer); INSERT INTO a (x) VALUES (1); INSERT INTO a (x) VALUES (2);`)
	require.NoError(t, err)
	require.Equal(t, prepared, c.prepared.Load())
	require.Equal(t, int64(1), c.uncached.Load())
	var n int
	require.NoError(t, db.QueryRow(`SELECT sum(x) FROM a;`).Scan(&n))
	require.Equal(t, 3, n)
	require.Equal(t, int64(1), c.uncached.Load(), "one statement with its trailing ';' is cached")
}
