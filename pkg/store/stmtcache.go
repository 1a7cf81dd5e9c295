package store

import (
	"container/list"
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	modernc "modernc.org/sqlite"
)

// stmtCacheSize bounds the prepared statements each SQLite connection keeps. The store issues
// a few dozen distinct statements; gorm's IN lists of varying length add more, which is why the
// bound is a multiple of that and the least recently used one gives way.
const stmtCacheSize = 256

// stmtCacheConnector opens SQLite connections (modernc.org/sqlite's driver) that keep a prepared
// statement per query text and run each later Exec or Query of that text on it. The driver's
// own ExecContext and QueryContext prepare the SQL again every time, and parsing was about an
// eighth of the embedded api's CPU under webhook load. A connection-level cache, not gorm's
// PrepareStmt, because statements gorm first prepares inside a transaction are bound to it and
// prepared again in the next one, and execution writes run in group-commit transactions.
type stmtCacheConnector struct {
	base driver.Connector
	size int
	// prepared counts the statements prepared for a cache, closed those finalized again, and
	// uncached the statements run without one (several statements in one string, or a cached
	// statement still reading rows). They let the tests see that a statement is parsed once.
	prepared, closed, uncached atomic.Int64
}

// newStmtCacheConnector returns a connector for dsn whose connections keep up to size
// statements each.
func newStmtCacheConnector(dsn string, size int) (*stmtCacheConnector, error) {
	base, err := modernc.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite connector: %w", err)
	}
	return &stmtCacheConnector{base: base, size: max(size, 1)}, nil
}

// Connect opens a connection with an empty statement cache.
func (c *stmtCacheConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	inner, ok := conn.(sqliteConn)
	if !ok {
		_ = conn.Close()
		return nil, fmt.Errorf("sqlite connection %T lacks the context and session methods the statement cache forwards", conn)
	}
	return &stmtCacheConn{inner: inner, counts: c, size: c.size, byQuery: map[string]*list.Element{}}, nil
}

// Driver returns modernc's registered driver, as sql.Open("sqlite", dsn) would have.
func (c *stmtCacheConnector) Driver() driver.Driver { return c.base.Driver() }

// sqliteConn is what modernc's connection implements of database/sql/driver's optional
// interfaces; stmtCacheConn implements the same set (modernc has no NamedValueChecker, so
// neither does it). modernc's own extras (backup, serialize, hooks) are not forwarded: the
// store does not use them.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// sqliteStmt is modernc's prepared statement: it keeps its SQLite handle and resets and
// rebinds it on each use.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

var _ sqliteConn = (*stmtCacheConn)(nil)

// stmtCacheConn is one SQLite connection and its prepared statements, most recently used
// first. database/sql uses a connection from one goroutine at a time, but closes rows from
// its context watcher: mu guards the cache's bookkeeping, never a statement's execution.
type stmtCacheConn struct {
	inner  sqliteConn
	counts *stmtCacheConnector
	size   int

	mu      sync.Mutex
	lru     list.List // of *cachedStmt, front most recent
	byQuery map[string]*list.Element
}

// cachedStmt is a prepared statement in a connection's cache.
type cachedStmt struct {
	query string
	stmt  sqliteStmt
	// busy is set while the statement runs or its rows are open: SQLite has one cursor per
	// statement, so a second use of the same text meanwhile prepares a one-off.
	busy bool
	// evicted is set when the statement left the cache while busy: closed once released.
	evicted bool
}

// cacheable reports whether query is one statement, the only kind worth keeping: several in one
// string (a migration) run once, and modernc would parse them again on every run anyway. A ';'
// before the trailing ones marks them; one inside a string literal only costs the caching.
func cacheable(query string) bool {
	return !strings.Contains(strings.TrimRight(query, " \t\r\n;"), ";")
}

// acquire returns query's cached statement marked busy, preparing and caching it when absent,
// or nil when the query is to run uncached.
func (c *stmtCacheConn) acquire(ctx context.Context, query string) (*cachedStmt, error) {
	if !cacheable(query) {
		return nil, nil
	}
	c.mu.Lock()
	if el, ok := c.byQuery[query]; ok {
		cs := el.Value.(*cachedStmt)
		if cs.busy {
			c.mu.Unlock()
			return nil, nil
		}
		cs.busy = true
		c.lru.MoveToFront(el)
		c.mu.Unlock()
		return cs, nil
	}
	c.mu.Unlock()
	st, err := c.inner.PrepareContext(ctx, query)
	if err != nil {
		// Returned as is: gorm's error translator matches the driver's error type itself.
		return nil, err
	}
	c.counts.prepared.Add(1)
	s, ok := st.(sqliteStmt)
	if !ok {
		_ = st.Close()
		return nil, fmt.Errorf("sqlite statement %T lacks ExecContext or QueryContext", st)
	}
	cs := &cachedStmt{query: query, stmt: s, busy: true}
	c.mu.Lock()
	c.byQuery[query] = c.lru.PushFront(cs)
	evicted := c.trimLocked()
	c.mu.Unlock()
	c.closeStmts(evicted)
	return cs, nil
}

// trimLocked drops the least recently used statements beyond the bound and returns those to
// close now; a busy one is closed when released.
func (c *stmtCacheConn) trimLocked() []*cachedStmt {
	var idle []*cachedStmt
	for c.lru.Len() > c.size {
		cs := c.lru.Remove(c.lru.Back()).(*cachedStmt)
		delete(c.byQuery, cs.query)
		cs.evicted = true
		if !cs.busy {
			idle = append(idle, cs)
		}
	}
	return idle
}

// release marks cs free again. A statement evicted meanwhile is closed; so is a broken one (its
// reset failed, so its state is unknown), which also leaves the cache.
func (c *stmtCacheConn) release(cs *cachedStmt, broken bool) {
	c.mu.Lock()
	cs.busy = false
	if broken && !cs.evicted {
		if el, ok := c.byQuery[cs.query]; ok {
			c.lru.Remove(el)
			delete(c.byQuery, cs.query)
		}
		cs.evicted = true
	}
	closeNow := cs.evicted
	c.mu.Unlock()
	if closeNow {
		c.closeStmts([]*cachedStmt{cs})
	}
}

// closeStmts finalizes statements that left the cache. Finalizing a statement that was reset
// after its last run does not fail; nobody is waiting for an error here.
func (c *stmtCacheConn) closeStmts(stmts []*cachedStmt) {
	for _, cs := range stmts {
		_ = cs.stmt.Close()
		c.counts.closed.Add(1)
	}
}

// ExecContext runs query on its cached statement.
func (c *stmtCacheConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.acquire(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		c.counts.uncached.Add(1)
		return c.inner.ExecContext(ctx, query, args)
	}
	defer c.release(cs, false)
	return cs.stmt.ExecContext(ctx, args)
}

// QueryContext runs query on its cached statement, which stays busy until the rows are closed.
func (c *stmtCacheConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.acquire(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		c.counts.uncached.Add(1)
		return c.inner.QueryContext(ctx, query, args)
	}
	rows, err := cs.stmt.QueryContext(ctx, args)
	if err != nil {
		// modernc resets the statement before returning an error.
		c.release(cs, false)
		return nil, err
	}
	return &cachedRows{Rows: rows, conn: c, stmt: cs}, nil
}

// Ping runs modernc's probe, "select 1", through the cache.
func (c *stmtCacheConn) Ping(ctx context.Context) error {
	_, err := c.ExecContext(ctx, "select 1", nil)
	return err
}

// Close finalizes every cached statement, then closes the connection: SQLite keeps a
// connection with unfinalized statements open as a zombie.
func (c *stmtCacheConn) Close() error {
	c.mu.Lock()
	var all []*cachedStmt
	for el := c.lru.Front(); el != nil; el = el.Next() {
		all = append(all, el.Value.(*cachedStmt))
	}
	c.lru.Init()
	clear(c.byQuery)
	c.mu.Unlock()
	var errs []error
	for _, cs := range all {
		if err := cs.stmt.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close cached statement: %w", err))
		}
		c.counts.closed.Add(1)
	}
	if err := c.inner.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Prepare and PrepareContext give the caller a statement of its own, outside the cache: it
// closes it when done.
func (c *stmtCacheConn) Prepare(query string) (driver.Stmt, error) { return c.inner.Prepare(query) }

func (c *stmtCacheConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.inner.PrepareContext(ctx, query)
}

// Begin is part of driver.Conn; database/sql calls BeginTx.
func (c *stmtCacheConn) Begin() (driver.Tx, error) { return c.inner.Begin() } //nolint:staticcheck // driver.Conn requires it

func (c *stmtCacheConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.inner.BeginTx(ctx, opts)
}

// ResetSession and IsValid let modernc discard a connection a cancelled statement interrupted.
func (c *stmtCacheConn) ResetSession(ctx context.Context) error { return c.inner.ResetSession(ctx) }

func (c *stmtCacheConn) IsValid() bool { return c.inner.IsValid() }

// cachedRows are rows read from a cached statement; closing them frees the statement for the
// next use of its query.
type cachedRows struct {
	driver.Rows
	conn   *stmtCacheConn
	stmt   *cachedStmt
	closed bool
}

// Close resets the statement (modernc's rows do) and gives it back to the cache.
func (r *cachedRows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.Rows.Close()
	r.conn.release(r.stmt, err != nil)
	return err
}

// The column type methods forward what modernc's rows report; the fallbacks are database/sql's
// own defaults for rows without them.

func (r *cachedRows) ColumnTypeDatabaseTypeName(i int) string {
	if x, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return x.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *cachedRows) ColumnTypeLength(i int) (int64, bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return x.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *cachedRows) ColumnTypeNullable(i int) (nullable, ok bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return x.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *cachedRows) ColumnTypePrecisionScale(i int) (precision, scale int64, ok bool) {
	if x, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return x.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}

func (r *cachedRows) ColumnTypeScanType(i int) reflect.Type {
	if x, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return x.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}
