package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// The editor's lookups of versions 2 to 2.5, as n8n's methods: schemas and tables for the
// resource locators (listSearch), columns for the column options (loadOptions) and the fields
// of the column mapper (resourceMapping). They connect with the node's selected credential
// through the same pools and egress policy as runs; every value is a query parameter.

// withPool runs fn on the pool of the lookup's credential; connection failures come back as
// the node's errors (n8n's words, egress refusals as such) and drop the pool as runs do.
func withPool(ctx context.Context, req nodes.LoadOptionsRequest, fn func(ex *nodes.Execution, p *pgxpool.Pool) error) error {
	ex := req.Execution()
	r, release, err := open(ctx, ex, 0, 0)
	if err != nil {
		return err
	}
	defer release()
	if err := fn(ex, r.pool); err != nil {
		return r.fail(err, "", -1)
	}
	return nil
}

// searchText filters names by a case-insensitive substring ("" matches all); strpos keeps
// the text literal, where LIKE would read % and _ in it.
const searchText = "($%d = '' OR strpos(lower(%s), lower($%d)) > 0)"

// SchemaSearch lists the schemas whose name contains the filter (also the Postgres Trigger's).
func SchemaSearch(ctx context.Context, req nodes.ListSearchRequest) (*nodes.ListSearchResult, error) {
	var names []string
	err := withPool(ctx, req.LoadOptionsRequest, func(_ *nodes.Execution, p *pgxpool.Pool) error {
		var err error
		names, err = textColumn(ctx, p, "SELECT schema_name FROM information_schema.schemata WHERE "+
			fmt.Sprintf(searchText, 1, "schema_name", 1)+" ORDER BY schema_name", req.Filter)
		return err
	})
	return listOf(names), err
}

// TableSearch lists the tables of the node's "schema" parameter (public when unset) whose name
// contains the filter (also the Postgres Trigger's).
func TableSearch(ctx context.Context, req nodes.ListSearchRequest) (*nodes.ListSearchResult, error) {
	var names []string
	err := withPool(ctx, req.LoadOptionsRequest, func(ex *nodes.Execution, p *pgxpool.Pool) error {
		schema, err := locatorParam(ex, "schema", "public")
		if err != nil {
			return err
		}
		names, err = textColumn(ctx, p, "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND "+
			fmt.Sprintf(searchText, 2, "table_name", 2)+" ORDER BY table_name", schema, req.Filter)
		return err
	})
	return listOf(names), err
}

// column is one row of information_schema.columns.
type column struct {
	name, dataType, nullable, udtName string
	hasDefault, generated             bool
}

// tableSchema reads the columns of the node's schema and table in their order.
func tableSchema(ctx context.Context, ex *nodes.Execution, p *pgxpool.Pool) ([]column, error) {
	schema, err := locatorParam(ex, "schema", "public")
	if err != nil {
		return nil, err
	}
	table, err := locatorParam(ex, "table", "")
	if err != nil {
		return nil, err
	}
	if table == "" {
		return nil, nodes.Errorf(-1, "Select a table first")
	}
	rows, err := p.Query(ctx, `SELECT column_name, data_type, is_nullable, udt_name, column_default IS NOT NULL,
		is_generated = 'ALWAYS' OR coalesce(identity_generation, '') = 'ALWAYS'
		FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, schema, table)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (column, error) {
		var c column
		err := row.Scan(&c.name, &c.dataType, &c.nullable, &c.udtName, &c.hasDefault, &c.generated)
		return c, err
	})
}

func getColumns(ctx context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	var out []nodes.OptionValue
	err := withPool(ctx, req, func(ex *nodes.Execution, p *pgxpool.Pool) error {
		cols, err := tableSchema(ctx, ex, p)
		for _, c := range cols {
			out = append(out, nodes.OptionValue{Name: c.name, Value: c.name,
				Description: fmt.Sprintf("Type: %s, Nullable: %s", strings.ToUpper(c.dataType), c.nullable)})
		}
		return err
	})
	return out, err
}

// fieldTypes maps information_schema data types to the mapper's field types, as n8n's
// mapPostgresType; anything else is a string.
var fieldTypes = map[string]string{
	"text": "string", "varchar": "string", "character varying": "string", "character": "string", "char": "string",
	"integer": "number", "smallint": "number", "bigint": "number", "decimal": "number", "numeric": "number",
	"real": "number", "double precision": "number", "smallserial": "number", "serial": "number", "bigserial": "number",
	"boolean":   "boolean",
	"timestamp": "dateTime", "date": "dateTime", "timestamp without time zone": "dateTime", "timestamp with time zone": "dateTime",
	"time": "time", "time without time zone": "time", "time with time zone": "time",
	"json": "object", "jsonb": "object",
	"USER-DEFINED": "options",
	"ARRAY":        "array",
}

func getMappingColumns(ctx context.Context, req nodes.LoadOptionsRequest) (*nodes.MapperFields, error) {
	out := &nodes.MapperFields{Fields: []nodes.MapperField{}}
	err := withPool(ctx, req, func(ex *nodes.Execution, p *pgxpool.Pool) error {
		cols, err := tableSchema(ctx, ex, p)
		if err != nil {
			return err
		}
		op, _ := req.Parameters["operation"].(string)
		var unique []string
		if op == "upsert" {
			schema, _ := locatorParam(ex, "schema", "public")
			table, _ := locatorParam(ex, "table", "")
			if unique, err = uniqueColumns(ctx, p, schema, table); err != nil {
				return err
			}
		}
		labels, err := enumLabels(ctx, p)
		if err != nil {
			return err
		}
		for _, c := range cols {
			match := op != "upsert" || slices.Contains(unique, c.name)
			typ := fieldTypes[c.dataType]
			if typ == "" {
				typ = "string"
			}
			f := nodes.MapperField{ID: c.name, DisplayName: c.name, Display: true, Type: typ, CanBeUsedToMatch: match,
				Required: c.nullable != "YES" && !c.hasDefault && !c.generated, DefaultMatch: c.name == "id" && match}
			if typ == "options" {
				f.Options = labels[c.udtName]
			}
			out.Fields = append(out.Fields, f)
		}
		return nil
	})
	return out, err
}

// uniqueColumns are the columns of a primary key or unique index of schema.table.
func uniqueColumns(ctx context.Context, p *pgxpool.Pool, schema, table string) ([]string, error) {
	return textColumn(ctx, p, `SELECT DISTINCT a.attname::text FROM pg_index i
		JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
		WHERE i.indrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass AND (i.indisprimary OR i.indisunique)
		ORDER BY 1`, schema, table)
}

// enumLabels are the labels of every enum type by type name, in their order.
func enumLabels(ctx context.Context, p *pgxpool.Pool) (map[string][]nodes.OptionValue, error) {
	rows, err := p.Query(ctx, `SELECT t.typname::text, e.enumlabel::text FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
		ORDER BY t.typname, e.enumsortorder`)
	if err != nil {
		return nil, err
	}
	out := map[string][]nodes.OptionValue{}
	var typ, label string
	_, err = pgx.ForEachRow(rows, []any{&typ, &label}, func() error {
		out[typ] = append(out[typ], nodes.OptionValue{Name: label, Value: label})
		return nil
	})
	return out, err
}

// textColumn runs a query answering one text column.
func textColumn(ctx context.Context, p *pgxpool.Pool, sql string, args ...any) ([]string, error) {
	rows, err := p.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// locatorParam reads a resource locator (or plain) parameter of a lookup; fallback when unset.
func locatorParam(ex *nodes.Execution, name, fallback string) (string, error) {
	v, err := ex.Param(name, 0)
	if err != nil {
		return "", err
	}
	if s := strings.TrimSpace(rlValue(v)); s != "" {
		return s, nil
	}
	return fallback, nil
}

func listOf(names []string) *nodes.ListSearchResult {
	out := &nodes.ListSearchResult{Results: make([]nodes.ListSearchItem, len(names))}
	for i, n := range names {
		out.Results[i] = nodes.ListSearchItem{Name: n, Value: n}
	}
	return out
}
