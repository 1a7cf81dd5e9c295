package postgres_test

import (
	"context"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/postgres"
)

// lookup is an editor request for the node at version 2.5 with the credential data creds.
func lookup(params, creds m, host nodes.Host) nodes.LoadOptionsRequest {
	return nodes.LoadOptionsRequest{NodeType: "n8n-nodes-base.postgres", Version: 2.5, Parameters: params,
		Credentials: m{"postgres": m{"id": "1", "name": "pg"}}, Host: host,
		Lookup: func(context.Context, nodes.CredentialRef) (map[string]any, error) { return creds, nil }}
}

func listNames(t *testing.T, res *nodes.ListSearchResult, err error) []string {
	t.Helper()
	require.NoError(t, err)
	out := []string{}
	for _, r := range res.Results {
		require.Equal(t, r.Name, r.Value)
		out = append(out, r.Name)
	}
	return out
}

func optionValues(t *testing.T, opts []nodes.OptionValue, err error) []any {
	t.Helper()
	require.NoError(t, err)
	out := []any{}
	for _, o := range opts {
		out = append(out, o.Value)
	}
	return out
}

func TestLookupsListSchemasTablesAndColumns(t *testing.T) {
	creds, db := scratch(t)
	_, err := db.Exec(`CREATE SCHEMA sales; CREATE TABLE sales.orders (id int PRIMARY KEY, total numeric);
		CREATE TABLE sales.order_lines (id int); CREATE TABLE "Odd %_ name" (x int)`)
	require.NoError(t, err)
	typ := postgres.TypeV2()
	ctx := context.Background()
	search := func(method, filter string, params m) []string {
		res, err := typ.ListSearch[method](ctx, nodes.ListSearchRequest{LoadOptionsRequest: lookup(params, creds, nodes.Host{}), Filter: filter})
		return listNames(t, res, err)
	}

	schemas := search("schemaSearch", "", m{})
	require.Contains(t, schemas, "public")
	require.Contains(t, schemas, "sales")
	require.Equal(t, []string{"sales"}, search("schemaSearch", "SAL", m{}), "the filter is a case-insensitive part of the name")

	require.Equal(t, []string{"Odd %_ name", "people"}, search("tableSearch", "", m{}), "the schema defaults to public")
	require.Equal(t, []string{"order_lines", "orders"}, search("tableSearch", "", m{"schema": rl("sales")}))
	require.Equal(t, []string{"orders"}, search("tableSearch", "orders", m{"schema": rl("sales")}))
	require.Equal(t, []string{"Odd %_ name"}, search("tableSearch", "%_", m{}), "% and _ are plain text")
	require.Empty(t, search("tableSearch", "", m{"schema": rl("nowhere")}))

	people := m{"schema": rl("public"), "table": rl("people"), "columnToMatchOn": "email"}
	opts, err := typ.LoadOptions["getColumns"](ctx, lookup(people, creds, nodes.Host{}))
	require.Equal(t, []any{"id", "name", "age", "score", "data", "born", "amount", "email", "tags"}, optionValues(t, opts, err), "in the table's order")
	require.Equal(t, nodes.OptionValue{Name: "id", Value: "id", Description: "Type: INTEGER, Nullable: NO"}, opts[0])
	require.Equal(t, "Type: TEXT, Nullable: YES", opts[7].Description)

	opts, err = typ.LoadOptions["getColumnsMultiOptions"](ctx, lookup(people, creds, nodes.Host{}))
	require.Equal(t, []any{"*", "id", "name", "age", "score", "data", "born", "amount", "email", "tags"}, optionValues(t, opts, err))
	require.Equal(t, "All columns", opts[0].Description)

	opts, err = typ.LoadOptions["getColumnsWithoutColumnToMatchOn"](ctx, lookup(people, creds, nodes.Host{}))
	require.Equal(t, []any{"id", "name", "age", "score", "data", "born", "amount", "tags"}, optionValues(t, opts, err))

	// plain strings (workflows from before the resource locator) work too
	opts, err = typ.LoadOptions["getColumns"](ctx, lookup(m{"schema": "sales", "table": "orders"}, creds, nodes.Host{}))
	require.Equal(t, []any{"id", "total"}, optionValues(t, opts, err))
}

func TestLookupMappingColumns(t *testing.T) {
	creds, db := scratch(t)
	_, err := db.Exec(`CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
		CREATE TABLE visits (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, code text NOT NULL UNIQUE,
			feeling mood NOT NULL DEFAULT 'ok', at timestamptz NOT NULL, until time, paid boolean NOT NULL,
			doubled int GENERATED ALWAYS AS (length(code) * 2) STORED, notes jsonb, tags text[])`)
	require.NoError(t, err)
	typ := postgres.TypeV2()
	mapping := func(op string) map[string]nodes.MapperField {
		res, err := typ.ResourceMapping["getMappingColumns"](context.Background(),
			lookup(m{"operation": op, "schema": rl("public"), "table": rl("visits")}, creds, nodes.Host{}))
		require.NoError(t, err)
		out := map[string]nodes.MapperField{}
		ids := []string{}
		for _, f := range res.Fields {
			out[f.ID] = f
			ids = append(ids, f.ID)
			require.True(t, f.Display)
			require.Equal(t, f.ID, f.DisplayName)
		}
		require.Equal(t, []string{"id", "code", "feeling", "at", "until", "paid", "doubled", "notes", "tags"}, ids)
		return out
	}

	f := mapping("insert")
	require.Equal(t, nodes.MapperField{ID: "id", DisplayName: "id", Display: true, Type: "number", CanBeUsedToMatch: true, DefaultMatch: true}, f["id"],
		"an identity column is not required and is matched on by default")
	require.True(t, f["code"].Required)
	require.Equal(t, "string", f["code"].Type)
	require.False(t, f["feeling"].Required, "a column with a default is not required")
	require.Equal(t, "options", f["feeling"].Type)
	require.Equal(t, []nodes.OptionValue{{Name: "sad", Value: "sad"}, {Name: "ok", Value: "ok"}, {Name: "happy", Value: "happy"}}, f["feeling"].Options)
	require.Equal(t, "dateTime", f["at"].Type)
	require.True(t, f["at"].Required)
	require.Equal(t, "time", f["until"].Type)
	require.False(t, f["until"].Required)
	require.Equal(t, "boolean", f["paid"].Type)
	require.False(t, f["doubled"].Required, "a generated column is not required")
	require.Equal(t, "object", f["notes"].Type)
	require.Equal(t, "array", f["tags"].Type)
	require.True(t, f["notes"].CanBeUsedToMatch, "outside upsert every column can be matched on")

	f = mapping("upsert")
	for id, field := range f {
		require.Equal(t, id == "id" || id == "code", field.CanBeUsedToMatch, id)
	}
	require.True(t, f["id"].DefaultMatch)
}

// Names from the editor are values, never SQL; a lookup without a table says so.
func TestLookupsHostileNamesAndMissingTable(t *testing.T) {
	creds, db := scratch(t)
	typ := postgres.TypeV2()
	ctx := context.Background()
	evil := `people'; DROP TABLE people; --`
	res, err := typ.ListSearch["tableSearch"](ctx, nodes.ListSearchRequest{LoadOptionsRequest: lookup(m{"schema": rl(evil)}, creds, nodes.Host{}), Filter: evil})
	require.Empty(t, listNames(t, res, err))
	opts, err := typ.LoadOptions["getColumns"](ctx, lookup(m{"table": rl(evil)}, creds, nodes.Host{}))
	require.Empty(t, optionValues(t, opts, err))
	_, err = typ.ResourceMapping["getMappingColumns"](ctx, lookup(m{"operation": "upsert", "table": rl(`"; DROP TABLE people; --`)}, creds, nodes.Host{}))
	require.Error(t, err, "the regclass of a table that does not exist")
	require.Len(t, names(t, db), 2, "the table is still there")

	_, err = typ.LoadOptions["getColumns"](ctx, lookup(m{"schema": rl("public")}, creds, nodes.Host{}))
	require.EqualError(t, err, "Select a table first")
	_, err = typ.LoadOptions["getColumns"](ctx, lookup(m{"table": m{"__rl": true, "mode": "name", "value": "={{ $json.table }}"}}, creds, nodes.Host{}))
	require.Error(t, err, "an expression has nothing to resolve against")

	req := lookup(m{}, creds, nodes.Host{})
	req.Lookup = nil
	_, err = typ.ListSearch["schemaSearch"](ctx, nodes.ListSearchRequest{LoadOptionsRequest: req})
	require.ErrorIs(t, err, nodes.ErrCredentialsNotAvailable)
}

// A lookup connects only where a run may: the egress policy of the host refuses it the same way.
func TestLookupsFollowTheEgressPolicy(t *testing.T) {
	creds, _ := scratch(t)
	deny := nodes.Host{HTTP: egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}).Client(egress.Options{})}
	typ := postgres.TypeV2()

	n := node(2.5, m{"operation": "select", "schema": rl("public"), "table": rl("people"), "returnAll": true}, creds, false)
	n.Host = deny
	_, runErr := nodetest.Run(t, typ, n, nodetest.Items(m{}))
	ne := nodetest.NodeError(t, runErr)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", ne.Message)

	_, err := typ.ListSearch["tableSearch"](context.Background(), nodes.ListSearchRequest{LoadOptionsRequest: lookup(m{}, creds, deny)})
	require.EqualError(t, err, ne.Message)
	_, err = typ.ResourceMapping["getMappingColumns"](context.Background(), lookup(m{"table": rl("people")}, creds, deny))
	require.EqualError(t, err, ne.Message)

	res, err := typ.ListSearch["tableSearch"](context.Background(), nodes.ListSearchRequest{LoadOptionsRequest: lookup(m{}, creds, nodes.Host{})})
	require.Equal(t, []string{"people"}, listNames(t, res, err), "the same credential without the policy")
}
