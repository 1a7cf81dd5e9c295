package mysql_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/mysqlconn"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/mysql"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any

// scratch creates a database on the local MariaDB for one test and drops it afterwards; it
// returns the credential data for it and a root pool on it.
func scratch(t *testing.T) (m, *sql.DB) {
	t.Helper()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "flowmill_mysql_" + hex.EncodeToString(b)
	admin, err := mysqlconn.Open(mysqlconn.Settings{Host: "127.0.0.1", Port: 3306, User: "root", ConnectTimeout: 5000, ConnectionLimit: 2}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = admin.Close() })
	_, err = admin.Exec("CREATE DATABASE " + name + " CHARACTER SET utf8mb4")
	require.NoError(t, err, "MariaDB must answer on 127.0.0.1:3306 (user root, no password)")
	t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name) })
	creds := m{"host": "127.0.0.1", "port": 3306.0, "database": name, "user": "root", "password": "", "connectTimeout": 5000.0}
	db, err := mysqlconn.Open(mysqlconn.FromCredential(creds), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return creds, db
}

func exec(t *testing.T, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		_, err := db.Exec(s)
		require.NoError(t, err, s)
	}
}

var allowLoopback = nodes.Host{HTTP: egress.New([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, nil).Strict().Client(egress.Options{})}

func node(version float64, params, creds m, cof bool) nodetest.Node {
	return nodetest.Node{
		Version: version, Parameters: params, ContinueOnFail: cof, Host: allowLoopback,
		Credentials: m{"mySql": m{"id": "1", "name": "db"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return creds, nil
		},
	}
}

func run(t *testing.T, typ nodes.Type, n nodetest.Node, in ...map[string]any) ([]map[string]any, error) {
	t.Helper()
	out, err := nodetest.Run(t, typ, n, nodetest.Items(in...))
	if err != nil {
		return nil, err
	}
	return nodetest.JSONs(out[0]), nil
}

func rows(t *testing.T, db *sql.DB, q string) [][]string {
	t.Helper()
	r, err := db.Query(q)
	require.NoError(t, err)
	defer r.Close()
	cols, _ := r.Columns()
	var out [][]string
	for r.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, r.Scan(ptrs...))
		row := make([]string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = v.String
			} else {
				row[i] = "NULL"
			}
		}
		out = append(out, row)
	}
	return out
}

const people = "CREATE TABLE people (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(100), age INT, note TEXT NULL)"

var hostile = []string{"O'Brien", `"; DROP TABLE people; --`, "a\x00b", "日本語 🚀", `back\slash`, "`tick`"}

func TestV1ExecuteQuery(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, people, "INSERT INTO people (name, age) VALUES ('ada', 36), ('bob', 40)")
	typ := mysql.Type()
	out, err := run(t, typ, node(1, m{"operation": "executeQuery", "query": "SELECT id, name, age FROM people ORDER BY id"}, creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"id": 1.0, "name": "ada", "age": 36.0}, {"id": 2.0, "name": "bob", "age": 40.0}}, out)

	out, err = run(t, typ, node(1, m{"operation": "executeQuery", "query": "UPDATE people SET age = age + 1"}, creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"fieldCount": 0.0, "affectedRows": 2.0, "insertId": 0.0,
		"info": "Rows matched: 2  Changed: 2  Warnings: 0", "serverStatus": 2.0, "warningStatus": 0.0, "changedRows": 2.0}}, out)

	_, err = run(t, typ, node(1, m{"operation": "executeQuery", "query": "SELEC nonsense"}, creds, false), m{})
	require.ErrorContains(t, err, "You have an error in your SQL syntax")
	out, err = run(t, typ, node(1, m{"operation": "executeQuery", "query": "SELECT * FROM missing"}, creds, true), m{})
	require.NoError(t, err)
	require.Len(t, out, 1)
	require.Contains(t, out[0]["error"], "doesn't exist")
}

func TestV1InsertAndUpdate(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, people)
	typ := mysql.Type()
	var in []map[string]any
	for i, h := range hostile {
		in = append(in, m{"name": h, "age": float64(20 + i), "extra": "ignored"})
	}
	out, err := run(t, typ, node(1, m{"operation": "insert", "table": m{"__rl": true, "mode": "list", "value": "people"},
		"columns": "name, age", "options": m{"ignore": true, "priority": "LOW_PRIORITY"}}, creds, false), in...)
	require.NoError(t, err)
	require.Len(t, out, 1)
	require.Equal(t, float64(len(hostile)), out[0]["affectedRows"])
	require.Equal(t, 1.0, out[0]["insertId"])
	got := rows(t, db, "SELECT name FROM people ORDER BY id")
	require.Len(t, got, len(hostile))
	for i, h := range hostile {
		require.Equal(t, h, got[i][0])
	}

	out, err = run(t, typ, node(1, m{"operation": "update", "table": m{"__rl": true, "mode": "name", "value": "people"},
		"updateKey": "id", "columns": "note"}, creds, false), m{"id": 1.0, "note": "it's; fine"}, m{"id": 2.0, "note": "x"})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, 1.0, out[0]["affectedRows"])
	require.Equal(t, [][]string{{"it's; fine"}, {"x"}}, rows(t, db, "SELECT note FROM people WHERE id <= 2 ORDER BY id"))
}

func v2(op string, extra m) m {
	p := m{"resource": "database", "operation": op, "table": m{"__rl": true, "mode": "list", "value": "people"}}
	for k, v := range extra {
		p[k] = v
	}
	return p
}

func TestV2InsertSelectUpdateUpsertDelete(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, people)
	typ := mysql.TypeV2()
	var in []map[string]any
	for i, h := range hostile {
		in = append(in, m{"name": h, "age": float64(20 + i)})
	}
	out, err := run(t, typ, node(2.4, v2("insert", nil), creds, false), in...)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"success": true}}, out)

	out, err = run(t, typ, node(2.4, v2("select", m{"returnAll": true,
		"where": m{"values": []any{m{"column": "name", "condition": "equal", "value": hostile[1]}}}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"id": 2.0, "name": hostile[1], "age": 21.0, "note": nil}}, out)

	out, err = run(t, typ, node(2.4, v2("select", m{"limit": 2.0, "combineConditions": "OR",
		"where": m{"values": []any{m{"column": "age", "condition": ">=", "value": "24"}, m{"column": "name", "condition": "LIKE", "value": "O%"}}},
		"sort":  m{"values": []any{m{"column": "age", "direction": "DESC"}}}, "options": m{"outputColumns": []any{"name"}}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"name": hostile[5]}, {"name": hostile[4]}}, out)

	_, err = run(t, typ, node(2.4, v2("select", m{"where": m{"values": []any{m{"column": "age", "condition": ">", "value": "x"}}}}), creds, false), m{})
	require.EqualError(t, err, "Operator in entry 1 of 'Select Rows' works with numbers, but value x is not a number")

	// No row matched a SELECT: nothing from 2.2, success before.
	out, err = run(t, typ, node(2.4, v2("select", m{"where": m{"values": []any{m{"column": "id", "condition": "equal", "value": "999"}}}}), creds, false), m{})
	require.NoError(t, err)
	require.Empty(t, out)

	out, err = run(t, typ, node(2.4, v2("update", m{"columnToMatchOn": "id"}), creds, false), m{"id": 1.0, "note": hostile[2]}, m{"id": 3.0, "age": 99.0})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"success": true}}, out)
	require.Equal(t, [][]string{{"1", hostile[2], "20"}, {"3", "NULL", "99"}}, rows(t, db, "SELECT id, note, age FROM people WHERE id IN (1,3) ORDER BY id"))

	out, err = run(t, typ, node(2.4, v2("update", m{"dataMode": "defineBelow", "columnToMatchOn": "name", "valueToMatchOn": hostile[3],
		"valuesToSend": m{"values": []any{m{"column": "note", "value": "manual"}}}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, [][]string{{"manual"}}, rows(t, db, "SELECT note FROM people WHERE id = 4"))

	out, err = run(t, typ, node(2.4, v2("upsert", m{"columnToMatchOn": "id", "options": m{"detailedOutput": true}}), creds, false),
		m{"id": 1.0, "name": "first"}, m{"id": 50.0, "name": "new", "age": 1.0})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Contains(t, out[0]["sql"], "ON DUPLICATE KEY UPDATE `name` = 'first'")
	require.Equal(t, [][]string{{"1", "first"}, {"50", "new"}}, rows(t, db, "SELECT id, name FROM people WHERE id IN (1, 50) ORDER BY id"))

	out, err = run(t, typ, node(2.4, v2("deleteTable", m{"deleteCommand": "delete",
		"where": m{"values": []any{m{"column": "id", "condition": ">", "value": 5.0}, m{"column": "note", "condition": "IS NULL"}}}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"success": true}}, out)
	require.Equal(t, [][]string{{"5"}}, rows(t, db, "SELECT COUNT(*) FROM people"))

	_, err = run(t, typ, node(2.4, v2("deleteTable", m{"deleteCommand": "truncate"}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, [][]string{{"0"}}, rows(t, db, "SELECT COUNT(*) FROM people"))
	_, err = run(t, typ, node(2.4, v2("deleteTable", m{"deleteCommand": "drop"}), creds, false), m{})
	require.NoError(t, err)
	require.Empty(t, rows(t, db, "SHOW TABLES LIKE 'people'"))
}

func TestV2ExecuteQueryParameters(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, people)
	typ := mysql.TypeV2()
	// $1:name is an identifier; the value list is comma-separated, so each hostile value
	// goes alone.
	_, err := run(t, typ, node(2.4, v2("executeQuery", m{"query": "INSERT INTO $1:name (name) VALUES ('x')",
		"options": m{"queryReplacement": "people"}}), creds, false), m{})
	require.NoError(t, err)
	for _, h := range hostile {
		out, err := run(t, typ, node(2.4, v2("executeQuery", m{"query": "SELECT $1 AS v, CHAR_LENGTH($1) AS n",
			"options": m{"queryReplacement": "={{ $json.name }}"}}), creds, false), m{"name": h})
		require.NoError(t, err, h)
		require.Equal(t, []map[string]any{{"v": h, "n": float64(len([]rune(h)))}}, out, h)
	}
	require.Equal(t, [][]string{{"1"}}, rows(t, db, "SELECT COUNT(*) FROM people"))

	// A question mark inside a literal is no placeholder; a comma splits the value list.
	out, err := run(t, typ, node(2.4, v2("executeQuery", m{"query": "SELECT '?;' AS q, $2 AS v, $1 AS w",
		"options": m{"queryReplacement": "a , b'c"}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"q": "?;", "v": "b'c", "w": "a"}}, out)

	// Several statements; only those with rows give items.
	out, err = run(t, typ, node(2.4, v2("executeQuery", m{"query": "INSERT INTO people (name) VALUES ('a;b'); SELECT name FROM people WHERE name = 'a;b'"}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"name": "a;b"}}, out)

	// Types.
	exec(t, db, "CREATE TABLE kinds (b BIGINT, d DECIMAL(10,2), f DOUBLE, dt DATETIME, da DATE, j JSON, bin VARBINARY(4))",
		"INSERT INTO kinds VALUES (9007199254740993, 12.50, 1.5, '2024-01-02 03:04:05', '2024-05-06', '{\"a\": [1]}', x'0102')")
	out, err = run(t, typ, node(2.4, v2("executeQuery", m{"query": "SELECT * FROM kinds", "options": m{"largeNumbersOutput": "text"}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"b": "9007199254740993", "d": "12.50", "f": 1.5, "dt": "2024-01-02 03:04:05",
		"da": "2024-05-06", "j": `{"a": [1]}`, "bin": m{"type": "Buffer", "data": []any{1.0, 2.0}}}}, out)
	// 2.0 gives dates as JavaScript dates; BIGINT is a number while it is exact.
	exec(t, db, "UPDATE kinds SET b = 42")
	out, err = run(t, typ, node(2, v2("executeQuery", m{"query": "SELECT b, dt, da FROM kinds"}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"b": 42.0, "dt": "2024-01-02T03:04:05.000Z", "da": "2024-05-06T00:00:00.000Z"}}, out)
	out, err = run(t, typ, node(2.4, v2("executeQuery", m{"query": "SELECT d, f FROM kinds", "options": m{"decimalNumbers": true, "largeNumbersOutput": "numbers"}}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"d": 12.5, "f": 1.5}}, out)

	// Versions before 2.2 answer success for a SELECT without rows.
	out, err = run(t, typ, node(2.1, v2("executeQuery", m{"query": "SELECT * FROM kinds WHERE 1 = 0"}), creds, false), m{})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"success": true}}, out)
}

func TestV2Batching(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, "CREATE TABLE u (id INT PRIMARY KEY, name VARCHAR(20))")
	typ := mysql.TypeV2()
	insert := func(mode string) m {
		return v2("executeQuery", m{"query": "INSERT INTO u (id, name) VALUES ($1, $2)",
			"options": m{"queryBatching": mode, "queryReplacement": "={{ $json.id }},{{ $json.name }}"}})
	}
	// Transaction: the duplicate key rolls back the first insert.
	_, err := run(t, typ, node(2.4, insert("transaction"), creds, false), m{"id": 1.0, "name": "a"}, m{"id": 1.0, "name": "b"})
	require.ErrorContains(t, err, "Duplicate entry")
	require.Equal(t, [][]string{{"0"}}, rows(t, db, "SELECT COUNT(*) FROM u"))
	out, err := run(t, typ, node(2.4, insert("transaction"), creds, true), m{"id": 1.0, "name": "a"}, m{"id": 1.0, "name": "b"}, m{"id": 3.0, "name": "c"})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, true, out[0]["success"])
	require.Contains(t, out[1]["message"], "Duplicate entry")
	require.Equal(t, 1.0, out[1]["itemIndex"])
	require.Equal(t, [][]string{{"0"}}, rows(t, db, "SELECT COUNT(*) FROM u"))

	// Independently: the failing item reports, the others stay.
	out, err = run(t, typ, node(2.4, insert("independently"), creds, true), m{"id": 1.0, "name": "a"}, m{"id": 1.0, "name": "b"}, m{"id": 3.0, "name": "c"})
	require.NoError(t, err)
	require.Len(t, out, 3)
	require.Equal(t, m{"query": "INSERT INTO u (id, name) VALUES (?, ?)", "values": []any{"1", "b"}}, out[1]["item"])
	require.Equal(t, [][]string{{"1", "a"}, {"3", "c"}}, rows(t, db, "SELECT id, name FROM u ORDER BY id"))

	// Single query: a batch error fails the node, earlier statements stay.
	_, err = run(t, typ, node(2.4, insert("single"), creds, false), m{"id": 4.0, "name": "d"}, m{"id": 4.0, "name": "e"})
	require.ErrorContains(t, err, "Duplicate entry")
	require.Equal(t, [][]string{{"3"}}, rows(t, db, "SELECT COUNT(*) FROM u"))

	// Insert in transaction mode with skip on conflict.
	out, err = run(t, typ, node(2.4, v2("insert", m{"table": m{"__rl": true, "mode": "name", "value": "u"},
		"options": m{"queryBatching": "transaction", "skipOnConflict": true}}), creds, false), m{"id": 1.0, "name": "dup"}, m{"id": 9.0, "name": "nine"})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, [][]string{{"1", "a"}, {"9", "nine"}}, rows(t, db, "SELECT id, name FROM u WHERE id IN (1, 9) ORDER BY id"))
}

func TestConnectionErrors(t *testing.T) {
	typ := mysql.TypeV2()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	params := v2("executeQuery", m{"query": "SELECT 1"})

	_, err = run(t, typ, node(2.4, params, m{"host": "127.0.0.1", "port": float64(port), "user": "root", "connectTimeout": 2000.0}, false), m{})
	require.EqualError(t, err, "Connection refused")

	_, err = run(t, typ, node(2.4, params, m{"host": "127.0.0.1", "port": 3306.0, "user": "nobody_" + strconv.Itoa(port), "password": "wrong"}, false), m{})
	require.ErrorContains(t, err, "Access denied for user")

	_, err = run(t, typ, node(2.4, params, m{"host": "127.0.0.1", "sshTunnel": true}, false), m{})
	require.EqualError(t, err, "SSH tunnels are not supported")

	denied := node(2.4, params, m{"host": "127.0.0.1", "port": 3306.0, "user": "root"}, false)
	denied.Host = nodes.Host{HTTP: egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}).Client(egress.Options{})}
	_, err = run(t, typ, denied, m{})
	require.ErrorContains(t, err, "is not allowed")

	require.NoError(t, mysqlconn.Test(context.Background(), m{"host": "127.0.0.1", "port": 3306.0, "user": "root", "database": ""}, nil))
	require.EqualError(t, mysqlconn.Test(context.Background(), m{"host": "127.0.0.1", "port": float64(port), "user": "root"}, nil), "Connection refused")
}

func TestCancel(t *testing.T) {
	creds, _ := scratch(t)
	n := node(2.4, v2("executeQuery", m{"query": "SELECT SLEEP(10)"}), creds, false)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	n.Context = ctx
	start := time.Now()
	_, err := run(t, mysql.TypeV2(), n, m{})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 5*time.Second)
}

func TestHostileIdentifiers(t *testing.T) {
	creds, db := scratch(t)
	exec(t, db, people)
	typ := mysql.TypeV2()
	evil := "people`; DROP TABLE people; -- "
	_, err := run(t, typ, node(2.4, v2("select", m{"table": m{"__rl": true, "mode": "name", "value": evil}}), creds, false), m{})
	require.Error(t, err)
	_, err = run(t, typ, node(2.4, v2("insert", nil), creds, false), m{"name`) VALUES (1); DROP TABLE people; --": "x"})
	require.ErrorContains(t, err, "Unknown column")
	require.Len(t, rows(t, db, "SHOW TABLES LIKE 'people'"), 1)
}
