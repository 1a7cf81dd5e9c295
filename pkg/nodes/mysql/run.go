package mysql

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// query is one item's SQL with its arguments, in placeholder order.
type query struct {
	SQL  string
	Args []any
}

// statement is one statement of a query with the arguments its placeholders take.
type statement struct {
	SQL  string
	Args []any
}

// split cuts q into its statements at semicolons outside quotes and comments, handing each
// the arguments of the placeholders it holds. Empty statements are dropped.
func split(q query) []statement {
	var out []statement
	args := q.Args
	start, marks := 0, 0
	s := q.SQL
	flush := func(end int) {
		text := strings.TrimSpace(s[start:end])
		n := min(marks, len(args))
		if text != "" {
			out = append(out, statement{SQL: text, Args: args[:n:n]})
		}
		args = args[n:]
		marks = 0
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"', '`':
			for i++; i < len(s) && s[i] != c; i++ {
				if s[i] == '\\' && c != '`' {
					i++
				}
			}
		case '-':
			if strings.HasPrefix(s[i:], "-- ") || strings.HasPrefix(s[i:], "--\n") || s[i:] == "--" {
				i = skipLine(s, i)
			}
		case '#':
			i = skipLine(s, i)
		case '/':
			if strings.HasPrefix(s[i:], "/*") {
				end := strings.Index(s[i+2:], "*/")
				if end < 0 {
					i = len(s)
				} else {
					i += end + 3
				}
			}
		case '?':
			marks++
		case ';':
			flush(i)
			start = i + 1
		}
	}
	if start <= len(s) {
		flush(len(s))
	}
	return out
}

func skipLine(s string, i int) int {
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return len(s)
	}
	return i + end
}

// keyword is a statement's first word, lower-cased, past leading comments.
func keyword(s string) string {
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "/*"):
			end := strings.Index(s, "*/")
			if end < 0 {
				return ""
			}
			s = s[end+2:]
		case strings.HasPrefix(s, "--"), strings.HasPrefix(s, "#"):
			s = s[skipLine(s, 0):]
		default:
			if strings.HasPrefix(s, "(") {
				return "("
			}
			end := strings.IndexFunc(s, func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
			})
			if end < 0 {
				end = len(s)
			}
			return strings.ToLower(s[:end])
		}
	}
}

// returnsRows names the statements that answer with a result set.
var returnsRows = map[string]bool{
	"select": true, "show": true, "describe": true, "desc": true, "explain": true, "with": true,
	"values": true, "table": true, "call": true, "help": true, "analyze": true, "check": true,
	"checksum": true, "optimize": true, "repair": true, "(": true,
}

// convertOptions say how column values become JSON, as n8n's driver settings do.
type convertOptions struct {
	// bigNumbersAsText outputs BIGINT and DECIMAL as strings (largeNumbersOutput "text").
	bigNumbersAsText bool
	// decimalNumbers outputs DECIMAL as numbers.
	decimalNumbers bool
	// dateStrings outputs DATE, DATETIME and TIMESTAMP as the server writes them (from 2.1).
	dateStrings bool
	// inTransaction sets the status flag of result headers.
	inTransaction bool
}

// result is one statement's answer: rows, or a header for statements without a result set.
type result struct {
	rows   []*workflow.Object
	header *workflow.Object
}

// value is the JSON form of a result: the rows as a list, or the header object.
func (r result) value() any {
	if r.header != nil {
		return r.header
	}
	out := make([]any, len(r.rows))
	for i, row := range r.rows {
		out[i] = row
	}
	return out
}

// execer is a connection or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// run runs one statement.
func run(ctx context.Context, c execer, st statement, o convertOptions, maxRows int) (result, error) {
	kw := keyword(st.SQL)
	if !returnsRows[kw] {
		res, err := c.ExecContext(ctx, st.SQL, st.Args...)
		if err != nil {
			return result{}, err
		}
		affected, _ := res.RowsAffected()
		insertID, _ := res.LastInsertId()
		status := 2.0
		if o.inTransaction {
			status = 3
		}
		h := workflow.ObjectOf("fieldCount", 0.0, "affectedRows", float64(affected), "insertId", float64(insertID),
			"info", "", "serverStatus", status, "warningStatus", 0.0)
		if kw == "update" {
			h.Set("info", "Rows matched: "+strconv.FormatInt(affected, 10)+"  Changed: "+strconv.FormatInt(affected, 10)+"  Warnings: 0")
			h.Set("changedRows", float64(affected))
		}
		return result{header: h}, nil
	}
	rows, err := c.QueryContext(ctx, st.SQL, st.Args...)
	if err != nil {
		return result{}, err
	}
	defer rows.Close()
	var out []*workflow.Object
	for {
		got, err := readRows(rows, o, maxRows-len(out))
		if err != nil {
			return result{}, err
		}
		out = append(out, got...)
		if !rows.NextResultSet() {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return result{}, err
	}
	return result{rows: out}, nil
}

// readRows reads the current result set; more than room rows fail the statement, so a query
// cannot fill the memory.
func readRows(rows *sql.Rows, o convertOptions, room int) ([]*workflow.Object, error) {
	types, err := rows.ColumnTypes()
	if err != nil || len(types) == 0 {
		return nil, err
	}
	names := make([]string, len(types))
	dbTypes := make([]string, len(types))
	for i, t := range types {
		names[i] = t.Name()
		dbTypes[i] = t.DatabaseTypeName()
	}
	var out []*workflow.Object
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(out) >= room {
			return nil, errTooManyRows
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := workflow.NewObject(len(types))
		for i, v := range vals {
			row.Set(names[i], convert(v, dbTypes[i], o))
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

var errTooManyRows = rowsError("The query returned more rows than a run may hold")

type rowsError string

func (e rowsError) Error() string { return string(e) }

// convert turns a column value into JSON as n8n's driver (mysql2) gives it.
func convert(v any, dbType string, o convertOptions) any {
	if v == nil {
		return nil
	}
	text := func() string {
		switch x := v.(type) {
		case []byte:
			return string(x)
		case string:
			return x
		case time.Time:
			return x.Format("2006-01-02 15:04:05.999999")
		}
		return fmt.Sprint(v)
	}
	t := strings.TrimPrefix(dbType, "UNSIGNED ")
	switch t {
	case "TINYINT", "SMALLINT", "MEDIUMINT", "INT", "YEAR":
		return number(v)
	case "BIGINT":
		if o.bigNumbersAsText {
			return numberText(v)
		}
		f := number(v)
		if x, ok := f.(float64); ok && (x > 1<<53 || x < -(1<<53)) {
			return numberText(v)
		}
		return f
	case "DECIMAL":
		if o.decimalNumbers {
			return number(v)
		}
		return numberText(v)
	case "FLOAT", "DOUBLE":
		return number(v)
	case "DATETIME", "TIMESTAMP", "DATE":
		if o.dateStrings {
			return text()
		}
		return isoTime(text())
	case "JSON":
		var out any
		if err := json.Unmarshal([]byte(text()), &out); err == nil {
			return workflow.FromMaps(out)
		}
		return text()
	case "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BINARY", "VARBINARY", "BIT", "GEOMETRY":
		b := []byte(text())
		data := make([]any, len(b))
		for i, c := range b {
			data[i] = float64(c)
		}
		return workflow.ObjectOf("type", "Buffer", "data", data)
	}
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	case float32:
		return float64(x)
	}
	return text()
}

func number(v any) any {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	case float32:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
		return f
	case []byte:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return string(x)
		}
		return f
	}
	return v
}

func numberText(v any) any {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []byte:
		return string(x)
	}
	return v
}

// isoTime renders a DATE, DATETIME or TIMESTAMP as a JavaScript Date in JSON (UTC); zero
// dates are invalid dates, which JSON writes as null.
func isoTime(s string) any {
	for _, layout := range []string{"2006-01-02 15:04:05.999999", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t.UTC().Format("2006-01-02T15:04:05.000Z")
		}
	}
	return nil
}
