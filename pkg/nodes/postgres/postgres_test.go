package postgres_test

import (
	"context"
	"database/sql"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/postgres"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// scratch creates a database for the test (dropped at its end) with a table of people, and
// returns the credential data for it and a handle for checks.
func scratch(t *testing.T) (m, *sql.DB) {
	t.Helper()
	admin, err := sql.Open("pgx", storetest.PostgresURL())
	require.NoError(t, err)
	t.Cleanup(func() { _ = admin.Close() })
	name := "pgnode_" + strings.ToLower(store.NewID())
	_, err = admin.Exec("CREATE DATABASE " + name)
	require.NoError(t, err, "postgres on 127.0.0.1:5432 is needed")
	t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	db, err := sql.Open("pgx", "postgres://postgres@127.0.0.1:5432/"+name+"?sslmode=disable")
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	_, err = db.Exec(`CREATE TABLE people (id serial PRIMARY KEY, name text NOT NULL, age int, score bigint, data jsonb,
		born timestamptz, amount numeric, email text UNIQUE, tags text[])`)
	require.NoError(t, err)
	_, err = db.Exec(`INSERT INTO people (name, age, score, email) VALUES ('ann', 30, 9007199254740993, 'ann@x'), ('bob', 40, 2, 'bob@x')`)
	require.NoError(t, err)
	return m{"host": "127.0.0.1", "port": 5432.0, "database": name, "user": "postgres", "password": "", "ssl": "disable"}, db
}

func node(version float64, params, creds m, cof bool) nodetest.Node {
	return nodetest.Node{
		Version: version, Parameters: params, ContinueOnFail: cof,
		Credentials: m{"postgres": m{"id": "1", "name": "pg"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return creds, nil
		},
	}
}

func run(t *testing.T, version float64, params, creds m, cof bool, in ...m) ([]workflow.Item, error) {
	t.Helper()
	typ := postgres.TypeV2()
	if version == 1 {
		typ = postgres.TypeV1()
	}
	if len(in) == 0 {
		in = []m{{}}
	}
	out, err := nodetest.Run(t, typ, node(version, params, creds, cof), nodetest.Items(in...))
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func rl(v string) m { return m{"__rl": true, "mode": "list", "value": v} }

func names(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM people ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		out = append(out, n)
	}
	return out
}

func TestV2Select(t *testing.T) {
	creds, _ := scratch(t)
	out, err := run(t, 2.5, m{"operation": "select", "schema": rl("public"), "table": rl("people"), "returnAll": true,
		"sort": m{"values": []any{m{"column": "age", "direction": "DESC"}}}}, creds, false)
	require.NoError(t, err)
	require.Len(t, out, 2)
	j := nodetest.JSONs(out)
	require.Equal(t, "bob", j[0]["name"])
	require.Equal(t, "9007199254740993", j[1]["score"], "bigint as text by default")
	require.Equal(t, 30.0, j[1]["age"])
	require.Equal(t, []string{"id", "name", "age", "score", "data", "born", "amount", "email", "tags"}, nodetest.Keys(out)[0])

	// where, limit, output columns, numbers
	out, err = run(t, 2.5, m{"operation": "select", "schema": rl("public"), "table": rl("people"), "limit": 1.0,
		"where":   m{"values": []any{m{"column": "age", "condition": ">=", "value": "30"}, m{"column": "name", "condition": "LIKE", "value": "a%"}}},
		"options": m{"outputColumns": []any{"name", "score"}, "largeNumbersOutput": "numbers"}}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": "ann", "score": 9007199254740993.0}}, out)

	// no rows: nothing, and a non-number for a comparison is n8n's error
	out, err = run(t, 2.5, m{"operation": "select", "schema": rl("public"), "table": rl("people"),
		"where": m{"values": []any{m{"column": "name", "condition": "IS NULL"}}}}, creds, false)
	require.NoError(t, err)
	require.Empty(t, out)
	_, err = run(t, 2.5, m{"operation": "select", "schema": rl("public"), "table": rl("people"),
		"where": m{"values": []any{m{"column": "age", "condition": ">", "value": "old"}}}}, creds, false)
	require.ErrorContains(t, err, "Operator in entry 1 of 'Select Rows' works with numbers, but value old is not a number")
	// before 2.3 a select with no rows answers nothing as well
	out, err = run(t, 2.1, m{"operation": "select", "schema": rl("public"), "table": rl("people"),
		"where": m{"values": []any{m{"column": "name", "condition": "equal", "value": "zed"}}}}, creds, false)
	require.NoError(t, err)
	require.Empty(t, out)
}

// hostile is item data that would break a query spliced together from text.
var hostile = []m{
	{"name": "x'); DROP TABLE people; --", "age": 1.0},
	{"name": "quote ' \" \\ $1 ;", "age": 2.0},
	{"name": "unicode ✓ Ω 𝄞", "age": 3.0},
}

func TestV2InsertUpdateUpsertDelete(t *testing.T) {
	creds, db := scratch(t)
	cols := m{"mappingMode": "autoMapInputData", "value": nil, "matchingColumns": []any{}}
	out, err := run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"), "columns": cols,
		"options": m{"outputColumns": []any{"name", "age"}}}, creds, false, hostile...)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, hostile, out)
	require.Equal(t, workflow.PairedItems{{Item: 2}}, *out[2].PairedItem)
	require.Equal(t, []string{"ann", "bob", hostile[0]["name"].(string), hostile[1]["name"].(string), hostile[2]["name"].(string)}, names(t, db))

	// NUL bytes are refused by the server, as an SQL error
	_, err = run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"), "columns": cols}, creds, false, m{"name": "nul\x00byte"})
	require.Error(t, err)

	// unknown column
	_, err = run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"), "columns": cols}, creds, false, m{"name": "z", "nope": 1.0})
	require.ErrorContains(t, err, "Column 'nope' does not exist in selected table")

	// define below, json, skip on conflict, replace empty strings
	out, err = run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"),
		"columns": m{"mappingMode": "defineBelow", "value": m{"name": "cy", "email": "ann@x", "data": m{"a": 1.0}}},
		"options": m{"skipOnConflict": true}}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"success": true}}, out)
	out, err = run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"),
		"columns": m{"mappingMode": "defineBelow", "value": m{"name": "cy", "email": "", "data": m{"a": 1.0}}},
		"options": m{"replaceEmptyStrings": true, "outputColumns": []any{"name", "email", "data"}}}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": "cy", "email": nil, "data": m{"a": 1.0}}}, out)

	// lists into array columns
	out, err = run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"), "columns": cols,
		"options": m{"outputColumns": []any{"tags"}}}, creds, false, m{"name": "tagged", "tags": []any{"a", `b"c\\`, "x,y", nil}})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"tags": []any{"a", `b"c\\`, "x,y", nil}}}, out)

	// update by matching columns
	out, err = run(t, 2.5, m{"operation": "update", "schema": rl("public"), "table": rl("people"),
		"columns": m{"mappingMode": "autoMapInputData", "value": nil, "matchingColumns": []any{"email"}},
		"options": m{"outputColumns": []any{"name", "age"}}}, creds, false, m{"email": "bob@x", "age": 41.0}, m{"email": "none", "age": 1.0})
	require.NoError(t, err)
	// single mode answers the rows of all queries together: nothing for the unmatched item
	nodetest.RequireJSONs(t, []m{{"name": "bob", "age": 41.0}}, out)

	// upsert: one update, one insert
	out, err = run(t, 2.5, m{"operation": "upsert", "schema": rl("public"), "table": rl("people"),
		"columns": m{"mappingMode": "defineBelow", "value": m{"email": "={{ $json.email }}", "name": "={{ $json.name }}"}, "matchingColumns": []any{"email"}},
		"options": m{"outputColumns": []any{"name", "email"}}}, creds, false, m{"email": "ann@x", "name": "anne"}, m{"email": "dan@x", "name": "dan"})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": "anne", "email": "ann@x"}, {"name": "dan", "email": "dan@x"}}, out)

	// version 2.1: data mode and a column to match on
	out, err = run(t, 2.1, m{"operation": "update", "schema": rl("public"), "table": rl("people"), "dataMode": "defineBelow",
		"columnToMatchOn": "email", "valueToMatchOn": "dan@x", "valuesToSend": m{"values": []any{m{"column": "age", "value": "7"}}},
		"options": m{"outputColumns": []any{"age"}}}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"age": 7.0}}, out)

	// delete rows, truncate, drop
	out, err = run(t, 2.5, m{"operation": "deleteTable", "schema": rl("public"), "table": rl("people"), "deleteCommand": "delete",
		"where": m{"values": []any{m{"column": "name", "condition": "equal", "value": hostile[0]["name"]}}}}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"success": true}}, out)
	require.NotContains(t, names(t, db), hostile[0]["name"])
	out, err = run(t, 2.5, m{"operation": "deleteTable", "schema": rl("public"), "table": rl("people"), "restartSequences": true}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"success": true}}, out)
	require.Empty(t, names(t, db))
	_, err = run(t, 2.5, m{"operation": "deleteTable", "schema": rl("public"), "table": rl("people"), "deleteCommand": "drop",
		"options": m{"cascade": true}}, creds, false)
	require.NoError(t, err)
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_name = 'people'").Scan(&n))
	require.Zero(t, n)
}

func TestV2ExecuteQuery(t *testing.T) {
	creds, db := scratch(t)
	q := m{"operation": "executeQuery", "query": "SELECT $1::text AS a, $2::int AS b, '$1' AS lit",
		"options": m{"queryReplacement": "={{ $json.a }},{{ $json.b }}"}}
	out, err := run(t, 2.5, q, creds, false, m{"a": "'; DROP TABLE people, x; --", "b": 5.0})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"a": "'; DROP TABLE people, x; --", "b": 5.0, "lit": "$1"}}, out)
	// an array from an expression, objects as JSON
	out, err = run(t, 2.5, m{"operation": "executeQuery", "query": "SELECT $1::jsonb AS o, $2 AS s",
		"options": m{"queryReplacement": "={{ [$json.o, 'plain'] }}"}}, creds, false, m{"o": m{"k": "v,w"}})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"o": m{"k": "v,w"}, "s": "plain"}}, out)
	require.Len(t, names(t, db), 2)

	// several statements with parameters, extra values ignored; all or nothing
	out, err = run(t, 2.5, m{"operation": "executeQuery",
		"query":   "INSERT INTO people (name) VALUES ($1); SELECT name, $2::int AS n FROM people WHERE name = $1; SELECT 'a;$9' AS s, $$x;y$$ AS d",
		"options": m{"queryReplacement": "={{ $json.n }},7,unused"}}, creds, false, m{"n": "semi;colon"})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": "semi;colon", "n": 7.0}, {"s": "a;$9", "d": "x;y"}}, out)
	_, err = run(t, 2.5, m{"operation": "executeQuery", "query": "INSERT INTO people (name) VALUES ($1); SELECT 1/0",
		"options": m{"queryReplacement": "rolled back"}}, creds, false)
	require.ErrorContains(t, err, "division by zero")
	require.NotContains(t, names(t, db), "rolled back")

	// quoted parameters as text
	out, err = run(t, 2.5, m{"operation": "executeQuery", "query": "SELECT '$1' AS a",
		"options": m{"queryReplacement": "x y", "treatQueryParametersInSingleQuotesAsText": true}}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"a": "x y"}}, out)

	// several statements, date and json values
	out, err = run(t, 2.5, m{"operation": "executeQuery",
		"query": "SELECT name FROM people WHERE id = 1; SELECT '2024-01-02T03:04:05Z'::timestamptz AS t, '{\"k\":[1,\"v\"]}'::jsonb AS j, 1.50::numeric AS n"}, creds, false)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": "ann"}, {"t": "2024-01-02T03:04:05.000Z", "j": m{"k": []any{1.0, "v"}}, "n": "1.50"}}, out)

	// statements without rows: success (2.3 and later), per item in single mode once
	out, err = run(t, 2.5, m{"operation": "executeQuery", "query": "UPDATE people SET age = age"}, creds, false, m{}, m{})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"success": true}}, out)
	require.Equal(t, workflow.PairedItems{{Item: 0}, {Item: 1}}, *out[0].PairedItem)

	// SQL errors: message, detail, syntax error line
	_, err = run(t, 2.5, m{"operation": "executeQuery", "query": "SELECT 1;\nSELEC 2"}, creds, false)
	ne := nodetest.NodeError(t, err)
	require.Equal(t, `Syntax error at line 2 near "SELEC"`, ne.Message)
	_, err = run(t, 2.5, m{"operation": "executeQuery", "query": "INSERT INTO people (name, email) VALUES ('x', 'ann@x')"}, creds, false)
	ne = nodetest.NodeError(t, err)
	require.Equal(t, `duplicate key value violates unique constraint "people_email_key"`, ne.Message)
	require.Equal(t, "Key (email)=(ann@x) already exists.", ne.Description)
}

func TestV2QueryBatching(t *testing.T) {
	creds, db := scratch(t)
	ins := func(mode string, cof bool) ([]workflow.Item, error) {
		return run(t, 2.5, m{"operation": "insert", "schema": rl("public"), "table": rl("people"),
			"columns": m{"mappingMode": "autoMapInputData", "value": nil},
			"options": m{"queryBatching": mode, "outputColumns": []any{"name"}}}, creds, cof,
			m{"name": "c1", "email": "c1@x"}, m{"name": "dup", "email": "ann@x"}, m{"name": "c3", "email": "c3@x"})
	}
	// transaction: all rolled back
	_, err := ins("transaction", false)
	require.ErrorContains(t, err, "duplicate key value")
	require.Equal(t, []string{"ann", "bob"}, names(t, db))
	out, err := ins("transaction", true)
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, "c1", nodetest.JSONs(out)[0]["name"])
	require.Equal(t, `duplicate key value violates unique constraint "people_email_key"`, nodetest.JSONs(out)[1]["message"])
	require.Equal(t, []string{"ann", "bob"}, names(t, db))
	// single: all or nothing as well
	_, err = ins("single", false)
	require.Error(t, err)
	require.Equal(t, []string{"ann", "bob"}, names(t, db))
	// independently: the others stay
	out, err = ins("independently", true)
	require.NoError(t, err)
	j := nodetest.JSONs(out)
	require.Len(t, j, 3)
	require.Equal(t, m{"name": "dup", "email": "ann@x"}, j[1]["item"])
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[1].PairedItem)
	require.Equal(t, []string{"ann", "bob", "c1", "c3"}, names(t, db))
}

func TestV1(t *testing.T) {
	creds, db := scratch(t)
	out, err := run(t, 1, m{"operation": "insert", "table": "people", "columns": "name,age:int", "returnFields": "name,age"}, creds, false, hostile...)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, hostile, out)
	out, err = run(t, 1, m{"operation": "update", "table": "people", "updateKey": "name", "columns": "age", "returnFields": "*",
		"additionalFields": m{"mode": "independently"}}, creds, false, m{"name": "ann", "age": 31.0})
	require.NoError(t, err)
	require.Equal(t, 31.0, nodetest.JSONs(out)[0]["age"])
	out, err = run(t, 1, m{"operation": "executeQuery", "query": "SELECT name FROM people WHERE name = $1",
		"additionalFields": m{"queryParams": "n"}}, creds, false, m{"n": hostile[0]["name"]})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": hostile[0]["name"]}}, out)
	out, err = run(t, 1, m{"operation": "executeQuery", "query": "UPDATE people SET age = 1 WHERE false"}, creds, false)
	require.NoError(t, err)
	require.Empty(t, out)
	// transaction mode rolls everything back
	_, err = run(t, 1, m{"operation": "insert", "table": "people", "columns": "name,email", "additionalFields": m{"mode": "transaction"}},
		creds, false, m{"name": "t1", "email": "t1@x"}, m{"name": "t2", "email": "ann@x"})
	require.ErrorContains(t, err, "duplicate key")
	require.NotContains(t, names(t, db), "t1")
	// independently with continue on fail: the item with the error's code and message
	out, err = run(t, 1, m{"operation": "insert", "table": "people", "columns": "name,email", "returnFields": "name",
		"additionalFields": m{"mode": "independently"}}, creds, true, m{"name": "t1", "email": "t1@x"}, m{"name": "t2", "email": "ann@x"})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"name": "t1"}, {"name": "t2", "email": "ann@x", "code": "23505",
		"message": `duplicate key value violates unique constraint "people_email_key"`}}, out)
}

func TestConnectionErrors(t *testing.T) {
	creds, _ := scratch(t)
	sel := m{"operation": "select", "schema": rl("public"), "table": rl("people")}

	bad := m{}
	for k, v := range creds {
		bad[k] = v
	}
	bad["database"] = "no_such_db_pgnode"
	_, err := run(t, 2.5, sel, bad, false)
	require.ErrorContains(t, err, `database "no_such_db_pgnode" does not exist`)

	bad["database"] = creds["database"]
	bad["user"] = "no_such_role_pgnode"
	_, err = run(t, 2.5, sel, bad, false)
	require.ErrorContains(t, err, `role "no_such_role_pgnode" does not exist`)

	// the local server speaks no TLS: SSL required fails rather than falling back
	bad["user"], bad["ssl"] = "postgres", "require"
	_, err = run(t, 2.5, sel, bad, false)
	require.Error(t, err)

	// a query running past the run's deadline stops with it
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	n := node(2.5, m{"operation": "executeQuery", "query": "SELECT pg_sleep(20)"}, creds, false)
	n.Context = ctx
	start := time.Now()
	_, err = nodetest.Run(t, postgres.TypeV2(), n, nodetest.Items(m{}))
	require.Error(t, err)
	require.Less(t, time.Since(start), 10*time.Second)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	closed := m{"host": "127.0.0.1", "port": float64(port), "database": "x", "user": "postgres"}
	_, err = run(t, 2.5, sel, closed, false)
	ne := nodetest.NodeError(t, err)
	require.Equal(t, "Connection refused", ne.Message)

	ssh := m{"host": "127.0.0.1", "sshTunnel": true}
	_, err = run(t, 2.5, sel, ssh, false)
	require.ErrorContains(t, err, "SSH tunnels are not supported")

	// the credential test
	require.NoError(t, postgres.Connect(context.Background(), creds, nil))
	require.EqualError(t, postgres.Connect(context.Background(), closed, nil), "Connection refused")
	require.EqualError(t, postgres.Connect(context.Background(), ssh, nil), "SSH tunnels are not supported")
	// the egress policy applies to every dial
	deny := egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})
	require.Error(t, postgres.Connect(context.Background(), creds, deny))
}
