package postgrestrigger_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/postgrestrigger"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

const server = "127.0.0.1:5432"

// database creates a database of the test's own and returns the credential data for it.
func database(t *testing.T) (m, *sql.DB) {
	t.Helper()
	admin, err := sql.Open("pgx", "postgres://postgres@"+server+"/postgres?sslmode=disable")
	require.NoError(t, err)
	t.Cleanup(func() { _ = admin.Close() })
	name := "pgtrigger_" + strings.ToLower(store.NewID())
	_, err = admin.Exec("CREATE DATABASE " + name)
	require.NoError(t, err, "postgres on %s is needed", server)
	t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	db, err := sql.Open("pgx", "postgres://postgres@"+server+"/"+name+"?sslmode=disable")
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return m{"host": "127.0.0.1", "port": 5432.0, "database": name, "user": "postgres", "password": "", "ssl": "disable"}, db
}

func node(id string, params, creds m) nodetest.Node {
	return nodetest.Node{ID: id, Parameters: params, Credentials: m{"postgres": m{"id": "1", "name": "pg"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) { return creds, nil }}
}

// listener runs a node's listener until stop is called or the test ends.
type listener struct {
	mu       sync.Mutex
	got      []m
	finished chan struct{}
	err      error
	stop     func()
}

func start(t *testing.T, n nodetest.Node) *listener {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &listener{finished: make(chan struct{})}
	n.Context = ctx
	go func() {
		defer close(l.finished)
		l.err = nodetest.Listen(t, postgrestrigger.Type(), n, func(items []workflow.Item) error {
			l.mu.Lock()
			defer l.mu.Unlock()
			for _, it := range items {
				l.got = append(l.got, it.JSON.ToMap())
			}
			if len(items) != 1 {
				l.got = append(l.got, m{"error": "not one item per notification"})
			}
			return nil
		})
	}()
	var once sync.Once
	l.stop = func() {
		once.Do(func() {
			cancel()
			<-l.finished
		})
	}
	t.Cleanup(l.stop)
	return l
}

func (l *listener) items() []m {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]m(nil), l.got...)
}

func (l *listener) ended() bool {
	select {
	case <-l.finished:
		return true
	default:
		return false
	}
}

// payloads are the payloads of the items that are not probes.
func (l *listener) payloads(t *testing.T) []any {
	var out []any
	for _, it := range l.items() {
		require.Equal(t, "notification", it["name"], it)
		if p, ok := it["payload"].(map[string]any); ok && p["name"] == "probe" {
			continue
		}
		out = append(out, it["payload"])
	}
	return out
}

// ready runs probe until the listener has received a notification, so it stands.
func (l *listener) ready(t *testing.T, probe func()) {
	t.Helper()
	require.Eventually(t, func() bool {
		if l.ended() || len(l.items()) > 0 {
			return true
		}
		probe()
		return false
	}, 20*time.Second, 100*time.Millisecond, "the listener never fired")
	require.False(t, l.ended(), "the listener ended: %v", l.err)
}

func exec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	_, err := db.Exec(q, args...)
	require.NoError(t, err, q)
}

// objects counts the functions and triggers of the given names.
func objects(t *testing.T, db *sql.DB, function, trigger string) (int, int) {
	t.Helper()
	var f, tr int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM pg_proc WHERE proname = $1`, function).Scan(&f))
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM pg_trigger WHERE tgname = $1`, trigger).Scan(&tr))
	return f, tr
}

func TestPlanNamesAndQuoting(t *testing.T) {
	t.Parallel()
	plan := func(id string, mode workflow.Mode, params m) (*postgrestrigger.Plan, error) {
		var p *postgrestrigger.Plan
		typ := postgrestrigger.Type()
		typ.Node = nodes.NodeFunc(func(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
			var err error
			p, err = postgrestrigger.PlanOf(ex)
			return nil, err
		})
		n := node(id, params, nil)
		n.Mode = mode
		_, err := nodetest.Run(t, typ, n)
		return p, err
	}
	p, err := plan("0a1b-2c3d", workflow.ModeTrigger, m{"tableName": m{"mode": "list", "value": "orders"}, "firesOn": "UPDATE"})
	require.NoError(t, err)
	require.Equal(t, &postgrestrigger.Plan{Channel: "n8n_channel_0a1b_2c3d", CreateTrigger: true, Schema: "public", Table: "orders",
		Function: "n8n_trigger_function_0a1b_2c3d", Trigger: "n8n_trigger_0a1b_2c3d", FiresOn: "UPDATE", Replace: true}, p)
	require.Equal(t, []string{
		`CREATE OR REPLACE FUNCTION "n8n_trigger_function_0a1b_2c3d"() RETURNS trigger LANGUAGE plpgsql COST 100 VOLATILE NOT LEAKPROOF AS $BODY$ begin perform pg_notify('n8n_channel_0a1b_2c3d', row_to_json(new)::text); return null; end; $BODY$`,
		`DROP TRIGGER IF EXISTS "n8n_trigger_0a1b_2c3d" ON "public"."orders"`,
		`CREATE TRIGGER "n8n_trigger_0a1b_2c3d" AFTER UPDATE ON "public"."orders" FOR EACH ROW EXECUTE FUNCTION "n8n_trigger_function_0a1b_2c3d"()`,
	}, p.Statements())

	// A run from the editor has names of its own; given names are quoted, not trusted.
	p, err = plan("n1", workflow.ModeManual, m{"schema": m{"mode": "name", "value": `S"; DROP`}, "tableName": "t; --", "firesOn": "DELETE",
		"additionalFields": m{"functionName": `f"x()`, "triggerName": "my-trigger", "channelName": "Chan_1"}})
	require.NoError(t, err)
	require.Equal(t, &postgrestrigger.Plan{Channel: "chan_1", CreateTrigger: true, Schema: `S"; DROP`, Table: "t; --",
		Function: `f"x`, Trigger: "my-trigger", FiresOn: "DELETE"}, p)
	require.Equal(t, []string{
		`CREATE FUNCTION "f""x"() RETURNS trigger LANGUAGE plpgsql COST 100 VOLATILE NOT LEAKPROOF AS $BODY$ begin perform pg_notify('chan_1', row_to_json(old)::text); return null; end; $BODY$`,
		`CREATE TRIGGER "my-trigger" AFTER DELETE ON "S""; DROP"."t; --" FOR EACH ROW EXECUTE FUNCTION "f""x"()`,
	}, p.Statements())
	p, err = plan("n1", workflow.ModeManual, m{"tableName": "t"})
	require.NoError(t, err)
	require.Equal(t, "n8n_channel_n1_manual", p.Channel)

	for channel, want := range map[string]string{
		"my-channel":            "Channel name cannot contain hyphens (-)",
		"x; DROP TABLE t":       `Channel name "x; DROP TABLE t" is not valid`,
		"1abc":                  `Channel name "1abc" is not valid`,
		`a'b`:                   `Channel name "a'b" is not valid`,
		strings.Repeat("c", 64): "is longer than 63 characters",
	} {
		_, err := plan("n1", workflow.ModeTrigger, m{"triggerMode": "listenTrigger", "channelName": channel})
		require.ErrorContains(t, err, want, channel)
		_, err = plan("n1", workflow.ModeTrigger, m{"tableName": "t", "additionalFields": m{"channelName": channel}})
		require.ErrorContains(t, err, want, channel)
	}
	_, err = plan("n1", workflow.ModeTrigger, m{"tableName": "t", "additionalFields": m{"functionName": "f(a int)"}})
	require.ErrorContains(t, err, "Function Name")
	_, err = plan("n1", workflow.ModeTrigger, m{})
	require.ErrorContains(t, err, "Table Name is required")
}

func TestTableEventsOneItemEach(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	exec(t, db, `CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL, qty int)`)
	exec(t, db, `INSERT INTO items (name, qty) VALUES ('keep', 1)`)
	id := "7f0c4b2e-1d2a-4c3b-9e8f-0a1b2c3d4e5f"
	suffix := strings.ReplaceAll(id, "-", "_")
	for _, tc := range []struct {
		event  string
		probe  string
		change func()
		want   []any
	}{
		{event: "INSERT", probe: `INSERT INTO items (name) VALUES ('probe')`,
			change: func() { exec(t, db, `INSERT INTO items (id, name, qty) VALUES (100, 'a', 2), (101, 'b', NULL)`) },
			want:   []any{m{"id": 100.0, "name": "a", "qty": 2.0}, m{"id": 101.0, "name": "b", "qty": nil}}},
		{event: "UPDATE", probe: `UPDATE items SET qty = 0 WHERE name = 'probe'`,
			change: func() { exec(t, db, `UPDATE items SET qty = 5 WHERE id = 100`) },
			want:   []any{m{"id": 100.0, "name": "a", "qty": 5.0}}},
		{event: "DELETE", probe: `DELETE FROM items WHERE id = (SELECT min(id) FROM items WHERE name = 'probe')`,
			change: func() { exec(t, db, `DELETE FROM items WHERE id IN (100, 101)`) },
			want:   []any{m{"id": 100.0, "name": "a", "qty": 5.0}, m{"id": 101.0, "name": "b", "qty": nil}}},
	} {
		t.Run(tc.event, func(t *testing.T) {
			if tc.event == "DELETE" {
				for range 50 {
					exec(t, db, `INSERT INTO items (name) VALUES ('probe')`)
				}
			}
			l := start(t, node(id, m{"tableName": m{"mode": "list", "value": "items"}, "firesOn": tc.event}, creds))
			l.ready(t, func() { exec(t, db, tc.probe) })
			f, tr := objects(t, db, "n8n_trigger_function_"+suffix, "n8n_trigger_"+suffix)
			require.Equal(t, [2]int{1, 1}, [2]int{f, tr}, "the function and the trigger stand")
			tc.change()
			require.Eventually(t, func() bool { return len(l.payloads(t)) >= len(tc.want) }, 10*time.Second, 20*time.Millisecond)
			require.Never(t, func() bool { return len(l.payloads(t)) > len(tc.want) }, 300*time.Millisecond, 20*time.Millisecond)
			require.Equal(t, tc.want, l.payloads(t))
			it := l.items()[len(l.items())-1]
			require.Equal(t, "n8n_channel_"+suffix, it["channel"])
			require.Greater(t, it["processId"], 0.0)
			b, _ := json.Marshal(it["payload"])
			require.Equal(t, float64(10+len(it["channel"].(string))+len(b)), it["length"], "the message length, as node-postgres gives it")
			// Stopping (deactivation) drops what it created.
			l.stop()
			require.NoError(t, l.err)
			f, tr = objects(t, db, "n8n_trigger_function_"+suffix, "n8n_trigger_"+suffix)
			require.Equal(t, [2]int{0, 0}, [2]int{f, tr}, "the function and the trigger are dropped")
		})
	}
}

func TestKeyOrderOfAnItem(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(postgrestrigger.Output(&pgconn.Notification{PID: 42, Channel: "ch", Payload: `{"b":1,"a":2}`}))
	require.NoError(t, err)
	require.Equal(t, `{"length":25,"processId":42,"channel":"ch","payload":{"b":1,"a":2},"name":"notification"}`, string(b))
	b, err = json.Marshal(postgrestrigger.Output(&pgconn.Notification{PID: 1, Channel: "ch", Payload: "plain"}))
	require.NoError(t, err)
	require.Equal(t, `{"length":17,"processId":1,"channel":"ch","payload":"plain","name":"notification"}`, string(b))
}

func TestHostileTableNameIsQuoted(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	schema, table := `Odd "Schema"`, `we"ird; DROP TABLE victims; --`
	exec(t, db, `CREATE TABLE victims (id int)`)
	exec(t, db, `CREATE SCHEMA "Odd ""Schema"""`)
	exec(t, db, `CREATE TABLE "Odd ""Schema"""."we""ird; DROP TABLE victims; --" (name text)`)
	l := start(t, node("h1", m{"schema": m{"mode": "name", "value": schema}, "tableName": m{"mode": "name", "value": table},
		"additionalFields": m{"triggerName": `trg"; DROP TABLE victims; --`, "functionName": `fn"; DROP TABLE victims; --()`}}, creds))
	insert := `INSERT INTO "Odd ""Schema"""."we""ird; DROP TABLE victims; --" (name) VALUES ($1)`
	l.ready(t, func() { exec(t, db, insert, "probe") })
	exec(t, db, insert, "x'); DROP TABLE victims; --")
	require.Eventually(t, func() bool { return len(l.payloads(t)) == 1 }, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, []any{m{"name": "x'); DROP TABLE victims; --"}}, l.payloads(t))
	l.stop()
	require.NoError(t, l.err)
	f, tr := objects(t, db, `fn"; DROP TABLE victims; --`, `trg"; DROP TABLE victims; --`)
	require.Equal(t, [2]int{0, 0}, [2]int{f, tr})
	exec(t, db, `SELECT count(*) FROM victims`)
}

func TestListenToChannel(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	l := start(t, node("c1", m{"triggerMode": "listenTrigger", "channelName": "Orders_Chan"}, creds))
	// Like n8n's unquoted LISTEN, the name is folded to lower case.
	l.ready(t, func() { exec(t, db, `NOTIFY orders_chan, '{"name":"probe"}'`) })
	exec(t, db, `SELECT pg_notify('orders_chan', $1)`, `{"n":1}`)
	exec(t, db, `SELECT pg_notify('orders_chan', $1)`, `plain; text`)
	exec(t, db, `NOTIFY orders_chan`)
	exec(t, db, `NOTIFY other_chan, 'no'`)
	require.Eventually(t, func() bool { return len(l.payloads(t)) >= 3 }, 10*time.Second, 20*time.Millisecond)
	require.Never(t, func() bool { return len(l.payloads(t)) > 3 }, 300*time.Millisecond, 20*time.Millisecond)
	require.Equal(t, []any{m{"n": 1.0}, "plain; text", ""}, l.payloads(t))
}

func TestManualRun(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	exec(t, db, `CREATE TABLE t (v int)`)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				_, _ = db.Exec(`INSERT INTO t VALUES ($1)`, i)
			}
		}
	}()
	n := node("m-1", m{"tableName": "t"}, creds)
	n.Context = ctx
	out, err := nodetest.Run(t, postgrestrigger.Type(), n)
	require.NoError(t, err)
	require.Len(t, out, 1)
	require.Len(t, out[0], 1)
	require.Equal(t, "n8n_channel_m_1_manual", out[0][0].JSON.Get("channel"))
	f, tr := objects(t, db, "n8n_trigger_function_m_1_manual", "n8n_trigger_m_1_manual")
	require.Equal(t, [2]int{0, 0}, [2]int{f, tr}, "dropped after the run")
}

func TestErrors(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	emit := func([]workflow.Item) error { return nil }
	listen := func(params, creds m) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		n := node("e1", params, creds)
		n.Context = ctx
		return nodetest.Listen(t, postgrestrigger.Type(), n, emit)
	}
	with := func(k string, v any) m {
		c := m{}
		for kk, vv := range creds {
			c[kk] = vv
		}
		c[k] = v
		return c
	}
	require.EqualError(t, listen(m{"tableName": "t"}, with("port", 1.0)), "Connection refused")
	require.ErrorContains(t, listen(m{"tableName": "t"}, with("user", "nobody")), `role "nobody" does not exist`)
	require.ErrorContains(t, listen(m{"tableName": "missing"}, creds), `relation "public.missing" does not exist`)
	f, tr := objects(t, db, "n8n_trigger_function_e1", "n8n_trigger_e1")
	require.Equal(t, [2]int{0, 0}, [2]int{f, tr}, "nothing is left of a failed creation")

	// Given names are created, not replaced: an existing function of that name is an error.
	exec(t, db, `CREATE TABLE t (v int)`)
	exec(t, db, `CREATE FUNCTION taken() RETURNS trigger LANGUAGE plpgsql AS $$ begin return null; end; $$`)
	require.ErrorContains(t, listen(m{"tableName": "t", "additionalFields": m{"functionName": "taken"}}, creds), `function "taken" already exists`)
}

// Two listeners of the same node (two active copies of a workflow) cannot share the trigger:
// the second fails clearly instead of dropping the first one's trigger when it stops.
func TestSecondListenerOfTheSameTriggerIsRefused(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	exec(t, db, `CREATE TABLE t (v int)`)
	first := start(t, node("same", m{"tableName": "t"}, creds))
	first.ready(t, func() { exec(t, db, `INSERT INTO t VALUES (0)`) })
	second := start(t, node("same", m{"tableName": "t"}, creds))
	require.Eventually(t, second.ended, 10*time.Second, 20*time.Millisecond)
	require.ErrorContains(t, second.err, `The trigger n8n_trigger_same on public.t is held by another listener`)
	n := len(first.payloads(t))
	exec(t, db, `INSERT INTO t VALUES (1)`)
	require.Eventually(t, func() bool { return len(first.payloads(t)) == n+1 }, 10*time.Second, 20*time.Millisecond)
}

// A listener whose connection is cut returns an error (pkg/listener then listens again) and
// still drops its trigger, over a new connection.
func TestLostConnection(t *testing.T) {
	t.Parallel()
	creds, db := database(t)
	exec(t, db, `CREATE TABLE t (v int)`)
	port, cut := nodetest.Proxy(t, server)
	viaProxy := m{}
	for k, v := range creds {
		viaProxy[k] = v
	}
	viaProxy["port"] = float64(port)
	l := start(t, node("lost", m{"tableName": "t"}, viaProxy))
	l.ready(t, func() { exec(t, db, `INSERT INTO t VALUES (0)`) })
	cut()
	require.Eventually(t, l.ended, 15*time.Second, 20*time.Millisecond)
	require.ErrorContains(t, l.err, "The connection to Postgres was lost")
	f, tr := objects(t, db, "n8n_trigger_function_lost", "n8n_trigger_lost")
	require.Equal(t, [2]int{0, 0}, [2]int{f, tr})
}

// The schema and table lists of the editor are the Postgres node's, on the trigger's credential.
func TestEditorListsSchemasAndTables(t *testing.T) {
	creds, db := database(t)
	exec(t, db, `CREATE SCHEMA shop; CREATE TABLE shop.orders (id int); CREATE TABLE shop.refunds (id int)`)
	typ := postgrestrigger.Type()
	req := func(params m, filter string) nodes.ListSearchRequest {
		return nodes.ListSearchRequest{Filter: filter, LoadOptionsRequest: nodes.LoadOptionsRequest{
			NodeType: "n8n-nodes-base.postgresTrigger", Version: 1, Parameters: params,
			Credentials: m{"postgres": m{"id": "1", "name": "pg"}},
			Lookup:      func(context.Context, nodes.CredentialRef) (map[string]any, error) { return creds, nil }}}
	}
	names := func(res *nodes.ListSearchResult, err error) []string {
		require.NoError(t, err)
		out := []string{}
		for _, r := range res.Results {
			out = append(out, r.Name)
		}
		return out
	}
	require.Equal(t, []string{"shop"}, names(typ.ListSearch["searchSchema"](context.Background(), req(m{}, "sho"))))
	schema := m{"__rl": true, "mode": "list", "value": "shop"}
	require.Equal(t, []string{"orders", "refunds"}, names(typ.ListSearch["searchTables"](context.Background(), req(m{"schema": schema}, ""))))
	require.Equal(t, []string{"refunds"}, names(typ.ListSearch["searchTables"](context.Background(), req(m{"schema": schema}, "REF"))))
}
