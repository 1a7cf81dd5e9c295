package postgres

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// open reads the credential and the connection options and returns the pool for them.
func open(ctx context.Context, ex *nodes.Execution, timeoutSec, keepAliveSec float64) (*runner, func(), error) {
	creds, err := ex.Credentials(ctx, "postgres")
	if err != nil {
		return nil, nil, err
	}
	s := SettingsOf(creds)
	if timeoutSec > 0 {
		s.ConnectTimeout = time.Duration(timeoutSec * float64(time.Second))
	}
	if keepAliveSec > 0 {
		s.KeepAliveDelay = time.Duration(keepAliveSec * float64(time.Second))
	}
	p, release, key, err := acquire(ctx, s, egress.PolicyOf(ex.HTTPClient()))
	if err != nil {
		return nil, nil, pgError(err, "", -1)
	}
	return &runner{ex: ex, pool: p, items: ex.InputData(0), dropOnErr: func() { pools.Drop(key) }}, release, nil
}

// LocatorValue is the value of a resource locator parameter (or a plain string).
func LocatorValue(v any) string { return rlValue(v) }

// rlValue is the value of a resource locator parameter (or a plain string).
func rlValue(v any) string {
	if m, ok := v.(map[string]any); ok {
		v = m["value"]
	}
	if o, ok := v.(*workflow.Object); ok {
		v = o.Get("value")
	}
	return str(v, "")
}

func executeV2(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	version := ex.TypeVersion()
	op, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	opts, err := ex.ParamOr("options", 0, map[string]any{})
	if err != nil {
		return nil, err
	}
	o, _ := opts.(map[string]any)
	r, release, err := open(ctx, ex, jsv.ToNumber(o["connectionTimeout"]), jsv.ToNumber(o["delayClosingIdleConnection"]))
	if err != nil {
		return nil, err
	}
	defer release()
	r.version = version
	r.mode = str(o["queryBatching"], "single")
	r.selectOp = op == "select"
	r.out.largeNumbers = o["largeNumbersOutput"] == "numbers"

	items := ex.InputData(0)
	var queries []query
	var out []workflow.Item
	for i := range items {
		q, err := buildV2(ctx, ex, r, op, i)
		if err != nil {
			if ex.ContinueOnFail() {
				out = append(out, r.errorItem(pgError(err, "", i), i))
				continue
			}
			return nil, pgError(err, "", i)
		}
		queries = append(queries, q)
	}
	if len(queries) == 0 {
		return [][]workflow.Item{out}, nil
	}
	res, err := r.run(ctx, queries)
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{append(out, res...)}, nil
}

// where is one condition of Select Rows and Delete.
func whereClause(ex *nodes.Execution, i int, args []any) (string, []any, error) {
	conds, err := ex.ParamList("where.values", i)
	if err != nil {
		return "", nil, err
	}
	if len(conds) == 0 {
		return "", args, nil
	}
	combine, _ := ex.ParamOr("combineConditions", i, "AND")
	join := " AND "
	if combine == "OR" {
		join = " OR "
	}
	var parts []string
	for n, c := range conds {
		col := str(c["column"], "")
		cond := str(c["condition"], "equal")
		switch cond {
		case "equal":
			cond = "="
		case "=", "!=", "LIKE", ">", "<", ">=", "<=", "IS NULL", "IS NOT NULL":
		default:
			return "", nil, nodes.Errorf(i, "Unknown condition '%s'", cond)
		}
		if cond == "IS NULL" || cond == "IS NOT NULL" {
			parts = append(parts, ident(col)+" "+cond)
			continue
		}
		val := c["value"]
		if slices.Contains([]string{">", "<", ">=", "<="}, cond) {
			f := jsv.ToNumber(val)
			if math.IsNaN(f) {
				return "", nil, nodes.Errorf(i, "Operator in entry %d of 'Select Rows' works with numbers, but value %v is not a number", n+1, val)
			}
			val = f
		}
		args = append(args, plain(val))
		parts = append(parts, fmt.Sprintf("%s %s $%d", ident(col), cond, len(args)))
	}
	return " WHERE " + strings.Join(parts, join), args, nil
}

func outputColumns(ex *nodes.Execution, i int) ([]string, error) {
	v, err := ex.ParamOr("options.outputColumns", i, []any{"*"})
	if err != nil {
		return nil, err
	}
	var cols []string
	switch x := v.(type) {
	case []any:
		for _, c := range x {
			cols = append(cols, str(c, ""))
		}
	case string:
		cols = stringToArray(x)
	}
	if len(cols) == 0 || slices.Contains(cols, "*") {
		return nil, nil
	}
	return cols, nil
}

func columnList(cols []string) string {
	if cols == nil {
		return "*"
	}
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = ident(c)
	}
	return strings.Join(q, ", ")
}

func stringToArray(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

var resolvable = regexp.MustCompile(`\{\{[\s\S]*?\}\}`)

// queryParameters are the values of the Query Parameters option, as n8n reads them: the
// option's text split at commas, each {{ }} in a piece evaluated on its own (so a value holding
// a comma stays one value and keeps its type), or an array an expression gives.
func queryParameters(ex *nodes.Execution, evaluated any, i int) ([]any, error) {
	switch x := evaluated.(type) {
	case []any:
		out := make([]any, len(x))
		for k, v := range x {
			out[k] = plain(v)
		}
		return out, nil
	case string:
	default:
		if x == nil {
			return nil, nil
		}
		return nil, nodes.Errorf(i, "Query Parameters must be a string of comma-separated values or an array of values")
	}
	var raw string
	if o, ok := ex.Node().Parameters["options"].(map[string]any); ok {
		raw, _ = o["queryReplacement"].(string)
	}
	var out []any
	for _, piece := range strings.Split(strings.TrimLeft(raw, "="), ",") {
		if piece == "" {
			continue
		}
		piece = strings.TrimSpace(piece)
		exprs := resolvable.FindAllString(piece, -1)
		if len(exprs) == 0 {
			out = append(out, piece)
			continue
		}
		for _, e := range exprs {
			v, err := ex.Evaluate("="+e, i)
			if err != nil {
				return nil, err
			}
			out = append(out, plain(v))
		}
	}
	return out, nil
}

var quotedParam = regexp.MustCompile(`'\$(\d+)'`)

func buildV2(ctx context.Context, ex *nodes.Execution, r *runner, op string, i int) (query, error) {
	q := query{item: i}
	if op == "executeQuery" {
		sql, err := ex.ParamString("query", i)
		if err != nil {
			return q, err
		}
		rep, err := ex.ParamOr("options.queryReplacement", i, "")
		if err != nil {
			return q, err
		}
		args, err := queryParameters(ex, rep, i)
		if err != nil {
			return q, err
		}
		q.args = args
		if asText, _ := ex.ParamOr("options.treatQueryParametersInSingleQuotesAsText", i, false); asText == true {
			sql = quotedParam.ReplaceAllString(sql, `$$$1::text`)
		}
		q.sql, q.user = sql, true
		return q, nil
	}
	schemaV, err := ex.Param("schema", i)
	if err != nil {
		return q, err
	}
	tableV, err := ex.Param("table", i)
	if err != nil {
		return q, err
	}
	schema, table := rlValue(schemaV), rlValue(tableV)
	if schema == "" {
		schema = "public"
	}
	target := ident(schema, table)
	switch op {
	case "select":
		cols, err := outputColumns(ex, i)
		if err != nil {
			return q, err
		}
		sql := "SELECT " + columnList(cols) + " FROM " + target
		where, args, err := whereClause(ex, i, nil)
		if err != nil {
			return q, err
		}
		sql += where
		sorts, err := ex.ParamList("sort.values", i)
		if err != nil {
			return q, err
		}
		if len(sorts) > 0 {
			var parts []string
			for _, s := range sorts {
				dir := "ASC"
				if s["direction"] == "DESC" {
					dir = "DESC"
				}
				parts = append(parts, ident(str(s["column"], ""))+" "+dir)
			}
			sql += " ORDER BY " + strings.Join(parts, ", ")
		}
		all, _ := ex.ParamOr("returnAll", i, false)
		if all != true {
			limit, err := ex.ParamOr("limit", i, 50.0)
			if err != nil {
				return q, err
			}
			args = append(args, int64(jsv.ToNumber(limit)))
			sql += fmt.Sprintf(" LIMIT $%d", len(args))
		}
		q.sql, q.args = sql, args
		return q, nil
	case "deleteTable":
		cmd, _ := ex.ParamOr("deleteCommand", i, "truncate")
		cascade, _ := ex.ParamOr("options.cascade", i, false)
		casc := ""
		if cascade == true {
			casc = " CASCADE"
		}
		switch cmd {
		case "drop":
			q.sql = "DROP TABLE IF EXISTS " + target + casc
		case "delete":
			where, args, err := whereClause(ex, i, nil)
			if err != nil {
				return q, err
			}
			q.sql, q.args = "DELETE FROM "+target+where, args
		default:
			restart, _ := ex.ParamOr("restartSequences", i, false)
			q.sql = "TRUNCATE TABLE " + target
			if restart == true {
				q.sql += " RESTART IDENTITY"
			}
			q.sql += casc
		}
		return q, nil
	case "insert", "upsert", "update":
		return buildWrite(ctx, ex, r, op, i, schema, table)
	}
	return q, nodes.Errorf(i, "The operation \"%s\" is not supported!", op)
}

// values are the columns to write for item i, in order.
type values struct {
	cols []string
	vals []any
}

func (v *values) set(col string, val any) {
	if k := slices.Index(v.cols, col); k >= 0 {
		v.vals[k] = val
		return
	}
	v.cols = append(v.cols, col)
	v.vals = append(v.vals, val)
}

func (v *values) get(col string) (any, bool) {
	if k := slices.Index(v.cols, col); k >= 0 {
		return v.vals[k], true
	}
	return nil, false
}

func buildWrite(ctx context.Context, ex *nodes.Execution, r *runner, op string, i int, schema, table string) (query, error) {
	q := query{item: i}
	version := ex.TypeVersion()
	replaceEmpty, _ := ex.ParamOr("options.replaceEmptyStrings", i, false)
	var v values
	var match []string
	mode := "autoMapInputData"
	if version >= 2.2 {
		cm, err := ex.ParamOr("columns", i, map[string]any{})
		if err != nil {
			return q, err
		}
		c, _ := cm.(map[string]any)
		mode = str(c["mappingMode"], "defineBelow")
		if mode == "defineBelow" {
			if vals, ok := c["value"].(map[string]any); ok {
				keys := make([]string, 0, len(vals))
				for k := range vals {
					keys = append(keys, k)
				}
				// the editor saves values in the schema's order; sort for a stable statement
				slices.Sort(keys)
				for _, k := range keys {
					v.set(k, vals[k])
				}
			}
		}
		if ms, ok := c["matchingColumns"].([]any); ok {
			for _, m := range ms {
				match = append(match, str(m, ""))
			}
		}
	} else {
		dm, _ := ex.ParamOr("dataMode", i, "autoMapInputData")
		mode = str(dm, "autoMapInputData")
		if mode == "defineBelow" {
			list, err := ex.ParamList("valuesToSend.values", i)
			if err != nil {
				return q, err
			}
			for _, e := range list {
				v.set(str(e["column"], ""), e["value"])
			}
		}
		if op != "insert" {
			col, err := ex.ParamOr("columnToMatchOn", i, "")
			if err != nil {
				return q, err
			}
			match = []string{rlValue(col)}
			if mode == "defineBelow" {
				mv, _ := ex.ParamOr("valueToMatchOn", i, "")
				v.set(match[0], mv)
			}
		}
	}
	if mode == "autoMapInputData" {
		item := r.items[i].JSON
		for k, val := range item.All() {
			v.set(k, val)
		}
	}
	types, err := tableColumns(ctx, r, schema, table)
	if err != nil {
		return q, err
	}
	if mode == "autoMapInputData" {
		if err := checkColumns(types, v.cols, i); err != nil {
			return q, err
		}
	}
	for k, c := range v.cols {
		if list, ok := v.vals[k].([]any); ok && types[c] == "ARRAY" {
			v.vals[k] = arrayLiteral(list)
		}
	}
	if replaceEmpty == true {
		for k, val := range v.vals {
			if val == "" {
				v.vals[k] = nil
			}
		}
	}
	cols, err := outputColumns(ex, i)
	if err != nil {
		return q, err
	}
	returning := " RETURNING " + columnList(cols)
	target := ident(schema, table)
	args := make([]any, 0, len(v.vals))
	for _, val := range v.vals {
		args = append(args, plain(val))
	}
	switch op {
	case "insert", "upsert":
		if len(v.cols) == 0 {
			q.sql = "INSERT INTO " + target + " DEFAULT VALUES"
		} else {
			ph := make([]string, len(v.cols))
			for k := range v.cols {
				ph[k] = "$" + strconv.Itoa(k+1)
			}
			q.sql = "INSERT INTO " + target + "(" + columnList(v.cols) + ") VALUES(" + strings.Join(ph, ",") + ")"
		}
		if op == "upsert" {
			if len(match) == 0 || match[0] == "" {
				return q, nodes.Errorf(i, "Columns to match on are required")
			}
			var sets []string
			for _, c := range v.cols {
				if !slices.Contains(match, c) {
					sets = append(sets, ident(c)+" = EXCLUDED."+ident(c))
				}
			}
			q.sql += " ON CONFLICT (" + columnList(match) + ")"
			if len(sets) == 0 {
				q.sql += " DO NOTHING"
			} else {
				q.sql += " DO UPDATE SET " + strings.Join(sets, ", ")
			}
		} else if skip, _ := ex.ParamOr("options.skipOnConflict", i, false); skip == true {
			q.sql += " ON CONFLICT DO NOTHING"
		}
		q.sql += returning
		q.args = args
		return q, nil
	}
	// update
	if len(match) == 0 || match[0] == "" {
		return q, nodes.Errorf(i, "Columns to match on are required")
	}
	var sets, conds []string
	var uargs []any
	for k, c := range v.cols {
		if !slices.Contains(match, c) {
			uargs = append(uargs, args[k])
			sets = append(sets, fmt.Sprintf("%s = $%d", ident(c), len(uargs)))
		}
	}
	for _, m := range match {
		val, ok := v.get(m)
		if !ok {
			return q, nodes.Errorf(i, "Column to match on (%s) is not found in the input item", m)
		}
		uargs = append(uargs, plain(val))
		conds = append(conds, fmt.Sprintf("%s = $%d", ident(m), len(uargs)))
	}
	if len(sets) == 0 {
		return q, nodes.Errorf(i, "No columns to update")
	}
	q.sql = "UPDATE " + target + " SET " + strings.Join(sets, ", ") + " WHERE " + strings.Join(conds, " AND ") + returning
	q.args = uargs
	return q, nil
}

// tableColumns are the columns of schema.table with their data types, read once per run.
func tableColumns(ctx context.Context, r *runner, schema, table string) (map[string]string, error) {
	key := schema + "\x00" + table
	if c, ok := r.columns[key]; ok {
		return c, nil
	}
	rows, err := r.pool.Query(ctx, "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2", schema, table)
	if err != nil {
		return nil, err
	}
	have := map[string]string{}
	for rows.Next() {
		var c, t string
		if err := rows.Scan(&c, &t); err != nil {
			rows.Close()
			return nil, err
		}
		have[c] = t
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if r.columns == nil {
		r.columns = map[string]map[string]string{}
	}
	r.columns[key] = have
	return have, nil
}

// checkColumns fails on an item key the table has no column for, as n8n checks auto-mapped
// items against the table's schema.
func checkColumns(have map[string]string, cols []string, i int) error {
	if len(have) == 0 {
		return nil
	}
	for _, c := range cols {
		if _, ok := have[c]; !ok {
			return nodes.Errorf(i, "Column '%s' does not exist in selected table", c)
		}
	}
	return nil
}

// arrayLiteral writes a list as a Postgres array literal ({"a","b"}), for array columns.
func arrayLiteral(list []any) string {
	var b strings.Builder
	b.WriteByte('{')
	for k, e := range list {
		if k > 0 {
			b.WriteByte(',')
		}
		switch x := e.(type) {
		case nil:
			b.WriteString("NULL")
		case []any:
			b.WriteString(arrayLiteral(x))
		default:
			s, _ := plain(x).(string)
			b.WriteByte('"')
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s))
			b.WriteByte('"')
		}
	}
	b.WriteByte('}')
	return b.String()
}
