package mysql

import (
	"context"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// maxRows bounds the rows one run reads, so a query cannot exhaust the memory.
const maxRows = 1_000_000

// executeV1 runs version 1: one query per item, one insert for all items, or one update per
// item, on a single connection; results come out as the driver gives them.
func executeV1(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	op, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	db, key, release, err := pool(ctx, ex, 1)
	if err != nil {
		return nil, err
	}
	defer release()
	c, err := conn(ctx, db, key)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var out []workflow.Item
	fail := func(err error) ([][]workflow.Item, error) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if ex.ContinueOnFail() {
			return [][]workflow.Item{{{JSON: workflow.ObjectOf("error", err.Error())}}}, nil
		}
		return nil, err
	}
	o := convertOptions{}
	switch op {
	case "executeQuery":
		for i := range items {
			q, err := ex.ParamString("query", i)
			if err != nil {
				return fail(err)
			}
			for _, st := range split(query{SQL: q}) {
				res, err := run(ctx, c, st, o, maxRows)
				if err != nil {
					return fail(nodeError(err, i, st.SQL))
				}
				for _, row := range resultItems(res) {
					out = append(out, workflow.Item{JSON: row, PairedItem: &workflow.PairedItems{{Item: i}}})
				}
			}
		}
	case "insert":
		table, err := tableName(ex, 0)
		if err != nil {
			return fail(err)
		}
		columns, err := columnList(ex, 0)
		if err != nil {
			return fail(err)
		}
		priority, _ := ex.ParamOr("options.priority", 0, "")
		ignore, _ := ex.ParamOr("options.ignore", 0, false)
		var sb strings.Builder
		sb.WriteString("INSERT ")
		if p := toString(priority); p == "LOW_PRIORITY" || p == "HIGH_PRIORITY" {
			sb.WriteString(p + " ")
		}
		if b, _ := ignore.(bool); b {
			sb.WriteString("IGNORE ")
		}
		sb.WriteString("INTO " + quoteIdent(table) + "(" + joinColumns(columns) + ") VALUES ")
		var args []any
		for i, item := range items {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(placeholders(len(columns)))
			for _, col := range columns {
				args = append(args, param(item.JSON.Get(col)))
			}
		}
		if len(items) == 0 {
			break
		}
		res, err := run(ctx, c, statement{SQL: sb.String(), Args: args}, o, maxRows)
		if err != nil {
			return fail(nodeError(err, 0, sb.String()))
		}
		for _, row := range resultItems(res) {
			out = append(out, workflow.Item{JSON: row})
		}
	case "update":
		table, err := tableName(ex, 0)
		if err != nil {
			return fail(err)
		}
		updateKey, err := ex.ParamString("updateKey", 0)
		if err != nil {
			return fail(err)
		}
		columns, err := columnList(ex, 0)
		if err != nil {
			return fail(err)
		}
		if !contains(columns, updateKey) {
			columns = append([]string{updateKey}, columns...)
		}
		sets := make([]string, len(columns))
		for j, col := range columns {
			sets[j] = quoteColumn(col) + " = ?"
		}
		sql := "UPDATE " + quoteIdent(table) + " SET " + strings.Join(sets, ",") + " WHERE " + quoteColumn(updateKey) + " = ?"
		for i, item := range items {
			args := make([]any, 0, len(columns)+1)
			for _, col := range columns {
				args = append(args, param(item.JSON.Get(col)))
			}
			args = append(args, param(item.JSON.Get(updateKey)))
			res, err := run(ctx, c, statement{SQL: sql, Args: args}, o, maxRows)
			if err != nil {
				return fail(nodeError(err, i, sql))
			}
			for _, row := range resultItems(res) {
				out = append(out, workflow.Item{JSON: row, PairedItem: &workflow.PairedItems{{Item: i}}})
			}
		}
	default:
		return fail(nodes.Errorf(0, "The operation \"%s\" is not supported!", op))
	}
	return [][]workflow.Item{out}, nil
}

// resultItems are a statement's output items: its rows, or its header.
func resultItems(r result) []*workflow.Object {
	if r.header != nil {
		return []*workflow.Object{r.header}
	}
	return r.rows
}

// columnList reads the comma-separated columns parameter.
func columnList(ex *nodes.Execution, i int) ([]string, error) {
	s, err := ex.ParamString("columns", i)
	if err != nil {
		return nil, err
	}
	var cols []string
	for _, c := range strings.Split(s, ",") {
		cols = append(cols, strings.TrimSpace(c))
	}
	return cols, nil
}

func joinColumns(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteColumn(c)
	}
	return strings.Join(q, ", ")
}

func placeholders(n int) string {
	return "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")"
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
