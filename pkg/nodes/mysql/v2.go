package mysql

import (
	"context"
	"database/sql"
	"regexp"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// v2Options are the node options that apply to the whole run (read from the first item).
type v2Options struct {
	version        float64
	batching       string
	detailed       bool
	replaceEmpty   bool
	priority       string
	skipOnConflict bool
	convert        convertOptions
}

// executeV2 runs versions 2 to 2.4: it builds one query per item (one for all items for an
// insert in single-query mode) and runs them as the Query Batching option says.
func executeV2(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	op, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	opts, err := ex.ParamOr("options", 0, map[string]any{})
	if err != nil {
		return nil, err
	}
	om, _ := opts.(map[string]any)
	o := v2Options{version: ex.TypeVersion(), batching: "single"}
	if s, _ := om["queryBatching"].(string); s != "" {
		o.batching = s
	}
	o.detailed, _ = om["detailedOutput"].(bool)
	o.replaceEmpty, _ = om["replaceEmptyStrings"].(bool)
	o.priority = toString(om["priority"])
	o.skipOnConflict, _ = om["skipOnConflict"].(bool)
	o.convert.decimalNumbers, _ = om["decimalNumbers"].(bool)
	// Without the option BIGINT comes out as a number (as text only past 2^53), as n8n's
	// driver settings give it; DECIMAL is text unless Output Decimals as Numbers.
	o.convert.bigNumbersAsText = toString(om["largeNumbersOutput"]) == "text"
	o.convert.dateStrings = o.version >= 2.1
	limit := 10
	if f := jsv.ToNumber(om["connectionLimit"]); f >= 1 {
		limit = int(f)
	}
	if o.replaceEmpty {
		items = replaceEmptyStrings(items)
	}

	var queries []query
	switch op {
	case "executeQuery":
		queries, err = executeQueries(ex, items)
	case "insert":
		queries, err = insertQueries(ex, items, o)
	case "select":
		queries, err = selectQueries(ex, items)
	case "update":
		queries, err = updateQueries(ex, items, false)
	case "upsert":
		queries, err = updateQueries(ex, items, true)
	case "deleteTable":
		queries, err = deleteQueries(ex, items)
	default:
		err = nodes.Errorf(0, "The operation \"%s\" is not supported!", op)
	}
	if err != nil {
		if ex.ContinueOnFail() {
			return [][]workflow.Item{{{JSON: workflow.ObjectOf("error", err.Error())}}}, nil
		}
		return nil, err
	}
	if len(queries) == 0 {
		return [][]workflow.Item{nil}, nil
	}
	db, key, release, err := pool(ctx, ex, limit)
	if err != nil {
		return nil, err
	}
	defer release()
	c, err := conn(ctx, db, key)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	out, err := runQueries(ctx, ex, c, queries, o)
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{out}, nil
}

func replaceEmptyStrings(items []workflow.Item) []workflow.Item {
	out := make([]workflow.Item, len(items))
	for i, it := range items {
		it.JSON = it.JSON.Clone()
		for k, v := range it.JSON.All() {
			if v == "" {
				it.JSON.Set(k, nil)
			}
		}
		out[i] = it
	}
	return out
}

// runQueries runs the queries on one connection: as one batch (single), one by one with an
// error per item (independently), or in one transaction that rolls back on the first error.
func runQueries(ctx context.Context, ex *nodes.Execution, c *sql.Conn, queries []query, o v2Options) ([]workflow.Item, error) {
	var out []workflow.Item
	if o.batching != "independently" && o.batching != "transaction" {
		var results []result
		var statements []statement
		for _, q := range queries {
			for _, st := range split(q) {
				res, err := run(ctx, c, st, o.convert, maxRows)
				if err != nil {
					if ctx.Err() != nil {
						return nil, ctx.Err()
					}
					e := nodeError(err, 0, formatStatement(st))
					if !ex.ContinueOnFail() {
						return nil, e
					}
					return append(out, workflow.Item{JSON: errorJSON(e)}), nil
				}
				results = append(results, res)
				statements = append(statements, st)
			}
		}
		// One batch cannot tell which query gave which row, so every row pairs with all items.
		all := make(workflow.PairedItems, len(queries))
		for i := range all {
			all[i] = workflow.PairedItem{Item: i}
		}
		return prepareOutput(results, statements, o, func(int) *workflow.PairedItems { return &all }), nil
	}

	var x execer = c
	var tx *sql.Tx
	if o.batching == "transaction" {
		var err error
		tx, err = c.BeginTx(ctx, nil)
		if err != nil {
			return nil, nodeError(err, 0, "BEGIN")
		}
		x = tx
		o.convert.inTransaction = true
	}
	for i, q := range queries {
		var results []result
		statements := split(q)
		var failed error
		for _, st := range statements {
			res, err := run(ctx, x, st, o.convert, maxRows)
			if err != nil {
				failed = nodeError(err, i, formatStatement(st))
				break
			}
			results = append(results, res)
		}
		if failed != nil {
			if tx != nil {
				_ = tx.Rollback()
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !ex.ContinueOnFail() {
				return nil, failed
			}
			out = append(out, errorItem(q, failed, i))
			if tx != nil {
				return out, nil
			}
			continue
		}
		paired := &workflow.PairedItems{{Item: i}}
		out = append(out, prepareOutput(results, statements, o, func(int) *workflow.PairedItems { return paired })...)
	}
	if tx != nil {
		if err := tx.Commit(); err != nil {
			return nil, nodeError(err, 0, "COMMIT")
		}
	}
	return out, nil
}

// prepareOutput turns statement results into items as n8n does: the rows of every statement
// that returned rows (or {sql, data} per statement with detailed output), else
// {success: true} unless every statement was a SELECT (from 2.2).
func prepareOutput(results []result, statements []statement, o v2Options, paired func(int) *workflow.PairedItems) []workflow.Item {
	var out []workflow.Item
	if o.detailed {
		for i, r := range results {
			out = append(out, workflow.Item{
				JSON:       workflow.ObjectOf("sql", formatStatement(statements[i]), "data", r.value()),
				PairedItem: paired(i),
			})
		}
	} else {
		for i, r := range results {
			if r.header != nil {
				continue
			}
			for _, row := range r.rows {
				out = append(out, workflow.Item{JSON: row, PairedItem: paired(i)})
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	allSelect := o.version >= 2.2
	for _, st := range statements {
		if keyword(st.SQL) != "select" {
			allSelect = false
		}
	}
	if !allSelect {
		out = append(out, workflow.Item{JSON: workflow.ObjectOf("success", true), PairedItem: paired(0)})
	}
	return out
}

func errorJSON(err error) *workflow.Object {
	e := workflow.ObjectOf("message", err.Error())
	if ne, ok := err.(*nodes.Error); ok && ne.Description != "" {
		e.Set("description", ne.Description)
	}
	return workflow.ObjectOf("message", err.Error(), "error", e)
}

// errorItem is the output of a query that failed under continueOnFail, as n8n's
// prepareErrorItem: the message, the query and its values, and the item's index.
func errorItem(q query, err error, i int) workflow.Item {
	values := make([]any, len(q.Args))
	for j, a := range q.Args {
		if n, ok := a.(int64); ok {
			values[j] = float64(n)
		} else {
			values[j] = a
		}
	}
	j := errorJSON(err)
	return workflow.Item{
		JSON: workflow.ObjectOf("message", err.Error(), "item", workflow.ObjectOf("query", q.SQL, "values", values),
			"itemIndex", float64(i), "error", j.Get("error")),
		PairedItem: &workflow.PairedItems{{Item: i}},
	}
}

// formatStatement writes a statement with its values in place, for messages and detailed
// output only; queries always go to the server with their values as parameters.
func formatStatement(st statement) string {
	if len(st.Args) == 0 {
		return st.SQL
	}
	var sb strings.Builder
	next := 0
	for i := 0; i < len(st.SQL); i++ {
		c := st.SQL[i]
		if c == '?' && next < len(st.Args) {
			sb.WriteString(literal(st.Args[next]))
			next++
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	r := strings.NewReplacer("\\", "\\\\", "'", "\\'", "\"", "\\\"", "\x00", "\\0", "\n", "\\n", "\r", "\\r", "\x1a", "\\Z", "\t", "\\t", "\b", "\\b")
	return "'" + r.Replace(toString(v)) + "'"
}

var replacementRe = regexp.MustCompile(`\$(\d+)(:name)?`)

func executeQueries(ex *nodes.Execution, items []workflow.Item) ([]query, error) {
	var out []query
	for i := range items {
		raw, err := ex.ParamString("query", i)
		if err != nil {
			return nil, err
		}
		rep, err := ex.ParamOr("options.queryReplacement", i, nil)
		if err != nil {
			return nil, err
		}
		var values []any
		switch r := rep.(type) {
		case nil:
		case string:
			if r != "" {
				for _, v := range strings.Split(r, ",") {
					values = append(values, strings.TrimSpace(v))
				}
			}
		case []any:
			values = r
		case map[string]any:
			list, _ := r["values"].([]any)
			for _, e := range list {
				if m, ok := e.(map[string]any); ok {
					values = append(values, m["value"])
				}
			}
		default:
			if obj, ok := workflow.AsObject(rep); ok {
				list, _ := obj.Get("values").([]any)
				for _, e := range list {
					if m, ok := workflow.AsObject(e); ok {
						values = append(values, m.Get("value"))
					}
				}
			} else {
				return nil, nodes.Errorf(i, "Query Replacement must be a string of comma-separated values, or an array of values")
			}
		}
		if rep == nil {
			out = append(out, query{SQL: raw})
			continue
		}
		var args []any
		var nameErr error
		sqlText := replacementRe.ReplaceAllStringFunc(raw, func(m string) string {
			sub := replacementRe.FindStringSubmatch(m)
			n, _ := strconv.Atoi(sub[1])
			var v any
			ok := n >= 1 && n <= len(values)
			if ok {
				v = values[n-1]
			}
			if sub[2] != "" {
				if !ok {
					nameErr = nodes.Errorf(i, "Cannot read properties of undefined (reading 'toString')")
					return m
				}
				return quoteIdent(toString(v))
			}
			args = append(args, param(v))
			return "?"
		})
		if nameErr != nil {
			return nil, nameErr
		}
		out = append(out, query{SQL: sqlText, Args: args})
	}
	return out, nil
}

// rowOf reads the values of an item to write: the item itself (auto-map) or the Values to
// Send of the item.
func rowOf(ex *nodes.Execution, items []workflow.Item, i int) (*workflow.Object, error) {
	mode, err := ex.ParamOr("dataMode", i, "autoMapInputData")
	if err != nil {
		return nil, err
	}
	if toString(mode) != "defineBelow" {
		return items[i].JSON, nil
	}
	list, err := ex.ParamList("valuesToSend.values", i)
	if err != nil {
		return nil, err
	}
	row := workflow.NewObject(len(list))
	for _, e := range list {
		row.Set(toString(e["column"]), e["value"])
	}
	return row, nil
}

func insertQueries(ex *nodes.Execution, items []workflow.Item, o v2Options) ([]query, error) {
	table, err := tableName(ex, 0)
	if err != nil {
		return nil, err
	}
	head := func(priority string, skip bool) string {
		s := "INSERT "
		if priority == "LOW_PRIORITY" || priority == "HIGH_PRIORITY" {
			s += priority + " "
		}
		if skip {
			s += "IGNORE "
		}
		return s + "INTO " + quoteIdent(table)
	}
	if o.batching == "single" || (o.batching != "independently" && o.batching != "transaction") {
		rows := make([]*workflow.Object, len(items))
		var columns []string
		seen := map[string]bool{}
		for i := range items {
			row, err := rowOf(ex, items, i)
			if err != nil {
				return nil, err
			}
			rows[i] = row
			for _, k := range row.Keys() {
				if !seen[k] {
					seen[k] = true
					columns = append(columns, k)
				}
			}
		}
		if len(items) == 0 {
			return nil, nil
		}
		var sb strings.Builder
		sb.WriteString(head(o.priority, o.skipOnConflict) + " (" + joinColumns(columns) + ") VALUES ")
		var args []any
		for i, row := range rows {
			if i > 0 {
				sb.WriteString(",")
			}
			sb.WriteString(placeholders(len(columns)))
			for _, c := range columns {
				args = append(args, param(row.Get(c)))
			}
		}
		return []query{{SQL: sb.String(), Args: args}}, nil
	}
	var out []query
	for i := range items {
		row, err := rowOf(ex, items, i)
		if err != nil {
			return nil, err
		}
		priority, _ := ex.ParamOr("options.priority", i, "")
		skip, _ := ex.ParamOr("options.skipOnConflict", i, false)
		s, _ := skip.(bool)
		cols := row.Keys()
		args := make([]any, len(cols))
		for j, c := range cols {
			args[j] = param(row.Get(c))
		}
		out = append(out, query{SQL: head(toString(priority), s) + " (" + joinColumns(cols) + ") VALUES " + placeholders(len(cols)) + ";", Args: args})
	}
	return out, nil
}

func updateQueries(ex *nodes.Execution, items []workflow.Item, upsert bool) ([]query, error) {
	var out []query
	for i := range items {
		table, err := tableName(ex, i)
		if err != nil {
			return nil, err
		}
		match, err := ex.ParamString("columnToMatchOn", i)
		if err != nil {
			return nil, err
		}
		row, err := rowOf(ex, items, i)
		if err != nil {
			return nil, err
		}
		var matchValue any
		if mode, _ := ex.ParamOr("dataMode", i, "autoMapInputData"); toString(mode) == "defineBelow" {
			v, err := ex.ParamOr("valueToMatchOn", i, "")
			if err != nil {
				return nil, err
			}
			matchValue = v
			row = row.Clone()
			row.Set(match, v)
		} else {
			matchValue = row.Get(match)
		}
		var updates []string
		var updateArgs []any
		for _, k := range row.Keys() {
			if k == match {
				continue
			}
			updates = append(updates, quoteColumn(k)+" = ?")
			updateArgs = append(updateArgs, param(row.Get(k)))
		}
		if !upsert {
			args := append(updateArgs, param(matchValue))
			out = append(out, query{SQL: "UPDATE " + quoteIdent(table) + " SET " + strings.Join(updates, ", ") + " WHERE " + quoteColumn(match) + " = ?", Args: args})
			continue
		}
		cols := row.Keys()
		args := make([]any, 0, len(cols)+len(updateArgs))
		for _, c := range cols {
			args = append(args, param(row.Get(c)))
		}
		args = append(args, updateArgs...)
		out = append(out, query{SQL: "INSERT INTO " + quoteIdent(table) + "(" + joinColumns(cols) + ") VALUES" + placeholders(len(cols)) +
			" ON DUPLICATE KEY UPDATE " + strings.Join(updates, ", "), Args: args})
	}
	return out, nil
}

// whereClause appends the Select Rows conditions of item i.
func whereClause(ex *nodes.Execution, i int, sqlText string, args []any) (string, []any, error) {
	list, err := ex.ParamList("where.values", i)
	if err != nil {
		return "", nil, err
	}
	if len(list) == 0 {
		return sqlText, args, nil
	}
	combine, _ := ex.ParamOr("combineConditions", i, nil)
	if combine == nil {
		combine, _ = ex.ParamOr("options.combineConditions", i, "AND")
	}
	with := "AND"
	if toString(combine) == "OR" {
		with = "OR"
	}
	parts := make([]string, len(list))
	for j, c := range list {
		cond := toString(c["condition"])
		if cond == "" || cond == "equal" {
			cond = "="
		}
		switch cond {
		case "=", "!=", "LIKE", ">", "<", ">=", "<=", "IS NULL", "IS NOT NULL":
		default:
			return "", nil, nodes.Errorf(i, "Unknown operator '%s' in entry %d of 'Select Rows'", cond, j+1)
		}
		v := c["value"]
		if cond == ">" || cond == "<" || cond == ">=" || cond == "<=" {
			f, ok := workflow.Number(v)
			if !ok {
				if s, isStr := v.(string); isStr {
					if g, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil || strings.TrimSpace(s) == "" {
						f, ok = g, true
					}
				}
			}
			if !ok {
				return "", nil, nodes.Errorf(i, "Operator in entry %d of 'Select Rows' works with numbers, but value %s is not a number", j+1, toString(v))
			}
			v = f
		}
		part := quoteIdent(toString(c["column"])) + " " + cond
		if cond != "IS NULL" && cond != "IS NOT NULL" {
			part += " ?"
			args = append(args, param(v))
		}
		parts[j] = part
	}
	return sqlText + " WHERE " + strings.Join(parts, " "+with+" "), args, nil
}

func selectQueries(ex *nodes.Execution, items []workflow.Item) ([]query, error) {
	var out []query
	for i := range items {
		table, err := tableName(ex, i)
		if err != nil {
			return nil, err
		}
		cols, _ := ex.ParamOr("options.outputColumns", i, nil)
		distinct, _ := ex.ParamOr("options.selectDistinct", i, false)
		sel := "SELECT"
		if b, _ := distinct.(bool); b {
			sel = "SELECT DISTINCT"
		}
		what := "*"
		if list, ok := cols.([]any); ok && len(list) > 0 {
			names := make([]string, 0, len(list))
			star := false
			for _, c := range list {
				if toString(c) == "*" {
					star = true
				}
				names = append(names, toString(c))
			}
			if !star {
				what = joinColumns(names)
			}
		}
		sqlText, args, err := whereClause(ex, i, sel+" "+what+" FROM "+quoteIdent(table), nil)
		if err != nil {
			return nil, err
		}
		sorts, err := ex.ParamList("sort.values", i)
		if err != nil {
			return nil, err
		}
		if len(sorts) > 0 {
			parts := make([]string, len(sorts))
			for j, s := range sorts {
				dir := "ASC"
				if toString(s["direction"]) == "DESC" {
					dir = "DESC"
				}
				parts[j] = quoteIdent(toString(s["column"])) + " " + dir
			}
			sqlText += " ORDER BY " + strings.Join(parts, ", ")
		}
		all, _ := ex.ParamOr("returnAll", i, false)
		if b, _ := all.(bool); !b {
			l, _ := ex.ParamOr("limit", i, 50.0)
			n := jsv.ToNumber(l)
			if n != n || n < 0 {
				n = 50
			}
			sqlText += " LIMIT ?"
			args = append(args, int64(n))
		}
		out = append(out, query{SQL: sqlText, Args: args})
	}
	return out, nil
}

func deleteQueries(ex *nodes.Execution, items []workflow.Item) ([]query, error) {
	var out []query
	for i := range items {
		table, err := tableName(ex, i)
		if err != nil {
			return nil, err
		}
		cmd, err := ex.ParamOr("deleteCommand", i, "truncate")
		if err != nil {
			return nil, err
		}
		var q query
		switch toString(cmd) {
		case "drop":
			q.SQL = "DROP TABLE IF EXISTS " + quoteIdent(table)
		case "truncate":
			q.SQL = "TRUNCATE TABLE " + quoteIdent(table)
		case "delete":
			q.SQL, q.Args, err = whereClause(ex, i, "DELETE FROM "+quoteIdent(table), nil)
			if err != nil {
				return nil, err
			}
		default:
			return nil, nodes.Errorf(i, "Invalid delete command, only drop, delete and truncate are supported ")
		}
		out = append(out, q)
	}
	return out, nil
}
