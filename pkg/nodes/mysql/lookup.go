package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// The editor's lookups, as n8n's methods: the tables of the credential's database for the
// table locator (versions 1 and 2) and a table's columns for the column options (version 2).
// They connect with the node's selected credential through the same pools and egress policy
// as runs; every value is a query parameter.

// withConn runs fn on one connection of the lookup credential's pool.
func withConn(ctx context.Context, req nodes.LoadOptionsRequest, fn func(ex *nodes.Execution, c *sql.Conn) error) error {
	ex := req.Execution()
	db, key, release, err := pool(ctx, ex, 0)
	if err != nil {
		return err
	}
	defer release()
	c, err := conn(ctx, db, key)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := fn(ex, c); err != nil {
		return nodeError(err, -1, "")
	}
	return nil
}

// searchTables lists the tables of the credential's database whose name holds the filter
// (any case).
func searchTables(ctx context.Context, req nodes.ListSearchRequest) (*nodes.ListSearchResult, error) {
	out := &nodes.ListSearchResult{Results: []nodes.ListSearchItem{}}
	err := withConn(ctx, req.LoadOptionsRequest, func(_ *nodes.Execution, c *sql.Conn) error {
		rows, err := c.QueryContext(ctx, `SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = DATABASE()
			AND (? = '' OR LOCATE(LOWER(?), LOWER(TABLE_NAME)) > 0) ORDER BY TABLE_NAME`, req.Filter, req.Filter)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				return err
			}
			out.Results = append(out.Results, nodes.ListSearchItem{Name: name, Value: name})
		}
		return rows.Err()
	})
	return out, err
}

func getColumns(ctx context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	var out []nodes.OptionValue
	err := withConn(ctx, req, func(ex *nodes.Execution, c *sql.Conn) error {
		v, err := ex.Param("table", 0)
		if err != nil {
			return err
		}
		table := locatorText(v)
		if table == "" {
			return nodes.Errorf(-1, "Select a table first")
		}
		rows, err := c.QueryContext(ctx, `SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE FROM INFORMATION_SCHEMA.COLUMNS
			WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`, table)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name, typ, nullable string
			if err := rows.Scan(&name, &typ, &nullable); err != nil {
				return err
			}
			out = append(out, nodes.OptionValue{Name: name, Value: name,
				Description: fmt.Sprintf("type: %s, nullable: %s", strings.ToUpper(typ), nullable)})
		}
		return rows.Err()
	})
	return out, err
}
