package postgres

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// query is one statement (or, without args, possibly several) built for one input item.
type query struct {
	sql  string
	args []any
	item int
	// user marks a query the user wrote: it may take fewer values than given (pg-promise
	// ignores the rest) and hold several statements.
	user bool
}

// querier is what runs statements: the pooled connection or a transaction on it.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	Conn() *pgx.Conn
}

type connQ struct{ c *pgxpool.Conn }

func (q connQ) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	return q.c.Query(ctx, sql, args...)
}
func (q connQ) Conn() *pgx.Conn { return q.c.Conn() }

type txQ struct{ pgx.Tx }

// runOne runs q and returns the rows of every statement it holds.
func runOne(ctx context.Context, qr querier, q query, o outOpts) ([]*workflow.Object, error) {
	if len(q.args) > 0 {
		// The server takes parameters one statement at a time: run each statement with the
		// values up to the highest it refers to.
		sts := []string{q.sql}
		if q.user {
			sts = statements(q.sql)
		}
		if len(sts) <= 1 {
			args, err := fitArgs(ctx, qr, q, q.sql, q.args)
			if err != nil {
				return nil, err
			}
			rows, err := qr.Query(ctx, q.sql, args...)
			if err != nil {
				return nil, err
			}
			return readRows(rows, o)
		}
		var out []*workflow.Object
		for _, st := range sts {
			args, err := fitArgs(ctx, qr, q, st, q.args[:min(highestParam(st), len(q.args))])
			if err != nil {
				return nil, err
			}
			rows, err := qr.Query(ctx, st, args...)
			if err != nil {
				return nil, err
			}
			objs, err := readRows(rows, o)
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
		}
		return out, nil
	}
	// Without parameters the text may hold several statements: the simple protocol runs them
	// all and answers each one's rows.
	results, err := qr.Conn().PgConn().Exec(ctx, q.sql).ReadAll()
	if err != nil {
		return nil, err
	}
	tm := qr.Conn().TypeMap()
	var out []*workflow.Object
	for _, r := range results {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, row := range r.Rows {
			obj := workflow.NewObject(len(r.FieldDescriptions))
			for i, f := range r.FieldDescriptions {
				obj.Set(f.Name, decodeText(tm, f, row[i], o))
			}
			out = append(out, obj)
		}
	}
	return out, nil
}

// decodeText decodes a simple-protocol (text format) value by its type; types pgx does not
// know (enums, domains of extensions) stay text.
// fitArgs drops the values a user's statement does not take, as pg-promise ignores them.
func fitArgs(ctx context.Context, qr querier, q query, st string, args []any) ([]any, error) {
	if !q.user || len(args) == 0 {
		return args, nil
	}
	sd, err := qr.Conn().Prepare(ctx, "", st)
	if err != nil {
		return nil, err
	}
	return args[:min(len(sd.ParamOIDs), len(args))], nil
}

func decodeText(tm *pgtype.Map, f pgconn.FieldDescription, raw []byte, o outOpts) any {
	if raw == nil {
		return nil
	}
	t, ok := tm.TypeForOID(f.DataTypeOID)
	if !ok {
		return string(raw)
	}
	v, err := t.Codec.DecodeValue(tm, f.DataTypeOID, f.Format, raw)
	if err != nil {
		return string(raw)
	}
	return convert(v, f.DataTypeOID, o)
}

var selectComments = regexp.MustCompile(`(?s)/\*.*?\*/`)

// isSelectQuery reports whether every statement of q is a SELECT, n8n's test for answering no
// rows with nothing rather than {success: true}.
func isSelectQuery(q string) bool {
	q = strings.ReplaceAll(selectComments.ReplaceAllString(q, ""), "\n", "")
	for _, st := range strings.Split(q, ";") {
		if st == "" || strings.HasPrefix(st, "--") {
			continue
		}
		if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(st)), "select") {
			return false
		}
	}
	return true
}

// runner runs a node's queries in one of n8n's batching modes.
type runner struct {
	ex        *nodes.Execution
	pool      *pgxpool.Pool
	mode      string // single, independently, transaction
	version   float64
	selectOp  bool // the operation is select (versions before 2.3 answer nothing for no rows)
	out       outOpts
	items     []workflow.Item
	dropOnErr func()
	// columns caches tables' column types by schema and table for the run.
	columns map[string]map[string]string
}

func pair(i int) *workflow.PairedItems { return &workflow.PairedItems{{Item: i}} }

func (r *runner) emptyResult(q query) []*workflow.Object {
	if r.version < 2.3 {
		if r.selectOp {
			return nil
		}
		return []*workflow.Object{workflow.ObjectOf("success", true)}
	}
	if isSelectQuery(q.sql) {
		return nil
	}
	return []*workflow.Object{workflow.ObjectOf("success", true)}
}

// errorItem is n8n's item for a failed query under continue-on-fail.
func (r *runner) errorItem(e *nodes.Error, i int) workflow.Item {
	if r.version == 1 {
		// version 1 answers the item with the error's code and message
		j := workflow.NewObject(0)
		if i >= 0 && i < len(r.items) {
			j = r.items[i].JSON.Clone()
		}
		var pe *pgconn.PgError
		if errors.As(e.Cause, &pe) {
			j.Set("code", pe.Code)
		} else {
			j.Set("code", nil)
		}
		j.Set("message", e.Message)
		return workflow.Item{JSON: j, PairedItem: pair(i)}
	}
	j := workflow.ObjectOf("message", e.Message)
	if i >= 0 && i < len(r.items) {
		j.Set("item", r.items[i].JSON.Clone())
	}
	j.Set("error", errorObject(e))
	return workflow.Item{JSON: j, PairedItem: pair(i)}
}

func errorObject(e *nodes.Error) *workflow.Object {
	o := workflow.ObjectOf("message", e.Message)
	if e.Description != "" {
		o.Set("description", e.Description)
	}
	return o
}

func (r *runner) run(ctx context.Context, queries []query) ([]workflow.Item, error) {
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		return nil, r.fail(err, "", -1)
	}
	defer conn.Release()
	var out []workflow.Item
	switch r.mode {
	case "independently":
		for _, q := range queries {
			rows, err := runOne(ctx, connQ{conn}, q, r.out)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				e := pgError(err, q.sql, q.item)
				if !r.ex.ContinueOnFail() {
					return nil, e
				}
				out = append(out, r.errorItem(e, q.item))
				continue
			}
			if len(rows) == 0 {
				rows = r.emptyResult(q)
			}
			for _, row := range rows {
				out = append(out, workflow.Item{JSON: row, PairedItem: pair(q.item)})
			}
		}
		return out, nil
	case "transaction":
		tx, err := conn.Begin(ctx)
		if err != nil {
			return nil, r.fail(err, "", -1)
		}
		defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
		for _, q := range queries {
			rows, err := runOne(ctx, txQ{tx}, q, r.out)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				e := pgError(err, q.sql, q.item)
				if !r.ex.ContinueOnFail() {
					return nil, e
				}
				// the transaction is rolled back; the rows so far are still reported, as n8n does
				return append(out, r.errorItem(e, q.item)), nil
			}
			if len(rows) == 0 {
				rows = r.emptyResult(q)
			}
			for _, row := range rows {
				out = append(out, workflow.Item{JSON: row, PairedItem: pair(q.item)})
			}
		}
		if err := tx.Commit(ctx); err != nil {
			return nil, r.fail(err, "", -1)
		}
		return out, nil
	}
	// single: every query in one go, all or nothing, as one multi-statement request is.
	var qr querier = connQ{conn}
	var tx pgx.Tx
	if len(queries) > 1 || (queries[0].user && len(queries[0].args) > 0 && len(statements(queries[0].sql)) > 1) {
		tx, err = conn.Begin(ctx)
		if err != nil {
			return nil, r.fail(err, "", -1)
		}
		defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
		qr = txQ{tx}
	}
	for _, q := range queries {
		rows, err := runOne(ctx, qr, q, r.out)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			e := pgError(err, q.sql, -1)
			if q.item != 0 || len(queries) > 1 {
				e.ItemIndex = q.item
			}
			if !r.ex.ContinueOnFail() || r.version == 1 {
				return nil, e
			}
			return []workflow.Item{{JSON: workflow.ObjectOf("message", e.Message, "error", errorObject(e))}}, nil
		}
		for _, row := range rows {
			out = append(out, workflow.Item{JSON: row, PairedItem: pair(q.item)})
		}
	}
	if tx != nil {
		if err := tx.Commit(ctx); err != nil {
			return nil, r.fail(err, "", -1)
		}
	}
	if len(out) == 0 {
		all := make(workflow.PairedItems, len(queries))
		for i, q := range queries {
			all[i] = workflow.PairedItem{Item: q.item}
		}
		empty := true
		if r.version < 2.3 {
			empty = r.selectOp
		} else {
			for _, q := range queries {
				if !isSelectQuery(q.sql) {
					empty = false
				}
			}
		}
		if !empty {
			out = []workflow.Item{{JSON: workflow.ObjectOf("success", true), PairedItem: &all}}
		}
	}
	return out, nil
}

// fail is the error for a failure outside one query (connecting, committing).
func (r *runner) fail(err error, sql string, item int) error {
	if r.dropOnErr != nil && isConnErr(err) {
		r.dropOnErr()
	}
	return pgError(err, sql, item)
}

func isConnErr(err error) bool {
	var ce *pgconn.ConnectError
	return isNet(err) || errors.As(err, &ce)
}
