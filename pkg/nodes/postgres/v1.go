package postgres

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// executeV1 is version 1 (n8n 0.186): Execute Query with query parameters taken from item
// properties, Insert and Update of listed columns; additionalFields.mode batches the queries.
func executeV1(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	op, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	r, release, err := open(ctx, ex, 0, 0)
	if err != nil {
		return nil, err
	}
	defer release()
	r.version = 1
	r.selectOp = true // version 1 answers nothing for statements without rows
	mode, _ := ex.ParamOr("additionalFields.mode", 0, "multiple")
	switch mode {
	case "independently", "transaction":
		r.mode = mode.(string)
	default:
		r.mode = "single"
	}
	items := r.items
	var queries []query
	for i := range items {
		q, err := buildV1(ex, op, i, items[i].JSON)
		if err != nil {
			return nil, err
		}
		queries = append(queries, q)
	}
	if len(queries) == 0 {
		return [][]workflow.Item{nil}, nil
	}
	out, err := r.run(ctx, queries)
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{out}, nil
}

// v1Column is a column of the Columns parameter: name, optionally with a cast ("id:int").
type v1Column struct{ name, cast string }

func v1Columns(s string) []v1Column {
	var out []v1Column
	for _, c := range strings.Split(s, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		name, cast, _ := strings.Cut(c, ":")
		out = append(out, v1Column{strings.TrimSpace(name), strings.TrimSpace(cast)})
	}
	return out
}

// typeName is what a cast may name: a type, not an expression.
var typeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_ ]*(\[\])?$`)

func (c v1Column) placeholder(n int) string {
	p := "$" + strconv.Itoa(n)
	if c.cast != "" && typeName.MatchString(c.cast) {
		p += "::" + c.cast
	}
	return p
}

func returnList(s string) string {
	cols := stringToArray(s)
	if len(cols) == 0 || (len(cols) == 1 && cols[0] == "*") {
		return "*"
	}
	return columnList(cols)
}

func buildV1(ex *nodes.Execution, op string, i int, item *workflow.Object) (query, error) {
	q := query{item: i}
	if op == "executeQuery" {
		sql, err := ex.ParamString("query", i)
		if err != nil {
			return q, err
		}
		props, _ := ex.ParamOr("additionalFields.queryParams", i, "")
		for _, p := range stringToArray(str(props, "")) {
			q.args = append(q.args, plain(item.Get(p)))
		}
		q.sql, q.user = sql, true
		return q, nil
	}
	table, err := ex.ParamString("table", i)
	if err != nil {
		return q, err
	}
	schema, _ := ex.ParamOr("schema", i, "public")
	target := ident(str(schema, "public"), table)
	colsParam, _ := ex.ParamOr("columns", i, "")
	cols := v1Columns(str(colsParam, ""))
	ret, _ := ex.ParamOr("returnFields", i, "*")
	returning := " RETURNING " + returnList(str(ret, "*"))
	switch op {
	case "insert":
		names := make([]string, len(cols))
		ph := make([]string, len(cols))
		for k, c := range cols {
			names[k] = c.name
			ph[k] = c.placeholder(k + 1)
			q.args = append(q.args, plain(item.Get(c.name)))
		}
		q.sql = "INSERT INTO " + target + "(" + columnList(names) + ") VALUES(" + strings.Join(ph, ",") + ")" + returning
		return q, nil
	case "update":
		keyParam, _ := ex.ParamOr("updateKey", i, "id")
		keys := v1Columns(str(keyParam, "id"))
		var sets, conds []string
		for _, c := range cols {
			q.args = append(q.args, plain(item.Get(c.name)))
			sets = append(sets, ident(c.name)+" = "+c.placeholder(len(q.args)))
		}
		for _, k := range keys {
			q.args = append(q.args, plain(item.Get(k.name)))
			conds = append(conds, ident(k.name)+" = "+k.placeholder(len(q.args)))
		}
		if len(sets) == 0 {
			return q, nodes.Errorf(i, "No columns to update")
		}
		q.sql = "UPDATE " + target + " SET " + strings.Join(sets, ", ") + " WHERE " + strings.Join(conds, " AND ") + returning
		return q, nil
	}
	return q, nodes.Errorf(i, "The operation \"%s\" is not supported!", op)
}
