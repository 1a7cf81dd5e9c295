// Package mysql is the MySQL node (n8n-nodes-base.mySql): version 1 (execute a query, insert
// and update rows) and versions 2 to 2.4 (delete, execute, insert, upsert, select and update
// with query batching). It talks to MySQL or MariaDB through one pool per credential and
// options, every connection dialed through the egress policy. Item values always travel as
// query parameters; only identifiers from parameters (table and column names) are written
// into the SQL, quoted with backticks.
package mysql

import (
	"context"
	"database/sql"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/flowmill/flowmill/pkg/connpool"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/mysqlconn"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v1.json
var v1JSON []byte

//go:embed v2.json
var v2JSON []byte

// Type returns MySQL version 1, with the editor's table list (lookup.go).
func Type() nodes.Type {
	t := nodes.Define(v1JSON, nodes.KindAction, executeV1)
	t.ListSearch = map[string]nodes.ListSearchFunc{"searchTables": searchTables}
	return t
}

// TypeV2 returns MySQL versions 2 to 2.4, with the editor's table and column lists (lookup.go).
func TypeV2() nodes.Type {
	t := nodes.Define(v2JSON, nodes.KindAction, executeV2)
	t.ListSearch = map[string]nodes.ListSearchFunc{"searchTables": searchTables}
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{
		"getColumns":                       getColumns,
		"getColumnsMultiOptions":           nodes.AllColumnsFirst(getColumns),
		"getColumnsWithoutColumnToMatchOn": nodes.WithoutColumnToMatchOn(getColumns),
	}
	return t
}

// pools holds one *sql.DB per credential, pool options and egress policy.
var pools = connpool.New[*sql.DB](connpool.Options{})

// pool returns the pool for the node's credential and a release for it.
func pool(ctx context.Context, ex *nodes.Execution, limit int) (*sql.DB, string, func(), error) {
	creds, err := ex.Credentials(ctx, "mySql")
	if err != nil {
		return nil, "", nil, err
	}
	s := mysqlconn.FromCredential(creds)
	if limit > 0 {
		s.ConnectionLimit = limit
	}
	policy := egress.PolicyOf(ex.HTTPClient())
	key := connpool.Key(struct {
		S      mysqlconn.Settings
		Policy string
	}{s, fmt.Sprintf("%p", policy)})
	db, release, err := pools.Get(key, func() (*sql.DB, error) { return mysqlconn.Open(s, policy) })
	if err != nil {
		return nil, "", nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
	}
	return db, key, release, nil
}

// conn takes one connection of db; a pool that cannot connect is dropped so the next run
// starts afresh.
func conn(ctx context.Context, db *sql.DB, key string) (*sql.Conn, error) {
	c, err := db.Conn(ctx)
	if err == nil {
		err = c.PingContext(ctx)
		if err != nil {
			_ = c.Close()
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if mysqlconn.Code(err) == 0 {
			pools.Drop(key)
		}
		return nil, &nodes.Error{Message: mysqlconn.Message(err), ItemIndex: -1, Cause: err}
	}
	return c, nil
}

// tableName reads a resource locator (or plain string) parameter's value.
func tableName(ex *nodes.Execution, i int) (string, error) {
	v, err := ex.Param("table", i)
	if err != nil {
		return "", err
	}
	s := locatorText(v)
	if s == "" {
		return "", nodes.Errorf(i, "Could not get parameter")
	}
	return s, nil
}

// locatorText is the trimmed value of a resource locator (or plain string).
func locatorText(v any) string {
	if m, ok := v.(map[string]any); ok {
		v = m["value"]
	} else if o, ok := workflow.AsObject(v); ok {
		v = o.Get("value")
	}
	return strings.TrimSpace(toString(v))
}

// quoteIdent quotes a possibly dotted identifier with backticks, leaving quoted parts as
// they are, as n8n's escapeSqlIdentifier does; a backtick inside a part is doubled.
func quoteIdent(name string) string {
	var parts []string
	rest := name
	for rest != "" {
		if rest[0] == '.' {
			rest = rest[1:]
			continue
		}
		if rest[0] == '`' {
			end := strings.IndexByte(rest[1:], '`')
			if end >= 0 {
				parts = append(parts, rest[:end+2])
				rest = rest[end+2:]
				continue
			}
		}
		end := strings.IndexAny(rest, ".`")
		if end < 0 {
			end = len(rest)
		}
		if end == 0 {
			end = 1
		}
		part := strings.TrimSpace(rest[:end])
		rest = rest[end:]
		if part != "" {
			parts = append(parts, "`"+strings.ReplaceAll(part, "`", "``")+"`")
		}
	}
	return strings.Join(parts, ".")
}

// quoteColumn quotes one column name (dots are part of the name).
func quoteColumn(name string) string {
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

func toString(v any) string {
	if v == nil {
		return ""
	}
	return jsv.ToString(v)
}

// param turns an item value into a query argument: objects and arrays go as JSON text,
// whole numbers as integers.
func param(v any) any {
	switch x := v.(type) {
	case nil, string, bool, int64:
		return x
	case float64:
		if x == float64(int64(x)) && x < 1<<53 && x > -(1<<53) {
			return int64(x)
		}
		return x
	case int:
		return int64(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// nodeError wraps a driver error with n8n's message for it.
func nodeError(err error, i int, query string) error {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	desc := ""
	if code := mysqlconn.Code(err); code != 0 {
		desc = fmt.Sprintf("sql: %s, code: %d", query, code)
	}
	return &nodes.Error{Message: mysqlconn.Message(err), Description: desc, ItemIndex: i, Cause: err}
}
