package listener_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/listener"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// managerWith is one scheduler's listener component whose workflows' credentials all hold
// data, with short lease timings.
func managerWith(t *testing.T, in *infra.Infra, data map[string]any) *listener.Manager {
	t.Helper()
	svc, err := execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis})
	require.NoError(t, err)
	m, err := listener.New(listener.Config{Store: in.Store, Redis: in.Redis, Service: svc, Nodes: in.Nodes, Eval: in.Eval,
		TTL: 2 * time.Second, Renew: 300 * time.Millisecond,
		Credentials: func(string) nodes.CredentialsFunc {
			return func(context.Context, nodes.CredentialRef) (map[string]any, error) { return data, nil }
		}})
	require.NoError(t, err)
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(m.Stop)
	return m
}

// activate stores an active workflow of one node and announces it.
func activate(t *testing.T, in *infra.Infra, nodeJSON string) *store.Workflow {
	t.Helper()
	now := time.Now().UTC()
	w := &store.Workflow{ID: store.NewID(), Name: "listen", Active: true, Nodes: store.JSON("[" + nodeJSON + "]"),
		Connections: store.JSON(`{}`), Settings: store.JSON(`{}`), VersionID: store.NewUUID(), CreatedAt: now, UpdatedAt: now}
	require.NoError(t, in.Store.DB.Create(w).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
	return w
}

// startItems returns the first input item of each execution of workflow id, by creation.
func startItems(t *testing.T, in *infra.Infra, id string) []map[string]any {
	t.Helper()
	var rows []store.JSON
	require.NoError(t, in.Store.DB.Raw(`SELECT d.start_data FROM execution_data d JOIN executions e ON e.id = d.execution_id
		WHERE e.workflow_id = ? ORDER BY e.id`, id).Scan(&rows).Error)
	var out []map[string]any
	for _, r := range rows {
		var sd struct {
			Input []struct {
				JSON map[string]any `json:"json"`
			} `json:"input"`
		}
		require.NoError(t, json.Unmarshal(r, &sd), string(r))
		require.Len(t, sd.Input, 1, string(r))
		out = append(out, sd.Input[0].JSON)
	}
	return out
}

// holderOf waits until one of a and b holds the listener and returns it and the other.
func holderOf(t *testing.T, a, b *listener.Manager, id, node string) (*listener.Manager, *listener.Manager) {
	t.Helper()
	var h, o *listener.Manager
	require.Eventually(t, func() bool {
		ha, hb := a.Holding(id, node), b.Holding(id, node)
		require.False(t, ha && hb, "two schedulers hold the lease")
		switch {
		case ha:
			h, o = a, b
		case hb:
			h, o = b, a
		}
		return h != nil
	}, 15*time.Second, 20*time.Millisecond, "no scheduler took the lease")
	return h, o
}

// takeover runs the two-replica scenario: send(label) makes the trigger fire once with label as
// the value that key(item) reads; five messages before and five after the holder is killed
// each start exactly one execution.
func takeover(t *testing.T, in *infra.Infra, a, b *listener.Manager, w *store.Workflow, node string,
	send func(label string), key func(map[string]any) string) {
	t.Helper()
	labels := func() []string {
		var out []string
		for _, it := range startItems(t, in, w.ID) {
			out = append(out, key(it))
		}
		return out
	}
	probes := 0
	ready := func() {
		probe := fmt.Sprintf("probe-%d", probes)
		probes++
		require.Eventually(t, func() bool {
			if count(labels(), probe) > 0 {
				return true
			}
			send(probe)
			return false
		}, 20*time.Second, 150*time.Millisecond, "the listener never fired")
	}
	exactlyOnce := func(prefix string) {
		each := func(ok func(n int) bool) bool {
			got := labels()
			for i := range 5 {
				if !ok(count(got, fmt.Sprintf("%s-%d", prefix, i))) {
					return false
				}
			}
			return true
		}
		require.Eventually(t, func() bool { return each(func(n int) bool { return n >= 1 }) }, 10*time.Second, 20*time.Millisecond)
		require.Never(t, func() bool { return !each(func(n int) bool { return n == 1 }) }, 500*time.Millisecond, 50*time.Millisecond,
			"one execution per message: %v", labels())
	}
	first, other := holderOf(t, a, b, w.ID, node)
	ready()
	for i := range 5 {
		send(fmt.Sprintf("before-%d", i))
	}
	exactlyOnce("before")

	first.Kill()
	require.Eventually(t, func() bool { return other.Holding(w.ID, node) }, 10*time.Second, 20*time.Millisecond)
	ready()
	for i := range 5 {
		send(fmt.Sprintf("after-%d", i))
	}
	exactlyOnce("after")
	n := 0
	for _, l := range labels() {
		if !strings.HasPrefix(l, "probe-") {
			n++
		}
	}
	require.Equal(t, 10, n, "%v", labels())
}

func TestRedisTriggerOneHolderAndTakeover(t *testing.T) {
	in := infratest.Open(t, nil)
	a := managerWith(t, in, map[string]any{"host": "127.0.0.1", "port": 6379.0})
	b := managerWith(t, in, map[string]any{"host": "127.0.0.1", "port": 6379.0})
	channel := fmt.Sprintf("flowmill-test:%s:%d", t.Name(), time.Now().UnixNano())
	w := activate(t, in, fmt.Sprintf(`{"id":"1","name":"Redis Trigger","type":"n8n-nodes-base.redisTrigger","typeVersion":1,
		"position":[0,0],"parameters":{"channels":%q},"credentials":{"redis":{"id":"1","name":"redis"}}}`, channel+":*"))
	pub := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	t.Cleanup(func() { pub.Close() })
	takeover(t, in, a, b, w, "Redis Trigger",
		func(label string) { require.NoError(t, pub.Publish(context.Background(), channel+":x", label).Err()) },
		func(it map[string]any) string { return fmt.Sprint(it["message"]) })
}

func TestPostgresTriggerOneHolderAndTakeover(t *testing.T) {
	in := infratest.Open(t, nil)
	dbURL, drop, err := storetest.CreateDatabase(context.Background(), storetest.PostgresURL())
	require.NoError(t, err, "postgres on 127.0.0.1:5432 is needed")
	t.Cleanup(drop)
	u, err := url.Parse(dbURL)
	require.NoError(t, err)
	name := strings.TrimPrefix(u.Path, "/")
	db, err := sql.Open("pgx", dbURL)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	_, err = db.Exec(`CREATE TABLE events (id serial PRIMARY KEY, label text)`)
	require.NoError(t, err)

	creds := map[string]any{"host": "127.0.0.1", "port": 5432.0, "database": name, "user": "postgres", "ssl": "disable"}
	a, b := managerWith(t, in, creds), managerWith(t, in, creds)
	w := activate(t, in, `{"id":"5d1e-77","name":"Postgres Trigger","type":"n8n-nodes-base.postgresTrigger","typeVersion":1,
		"position":[0,0],"parameters":{"tableName":{"__rl":true,"mode":"list","value":"events"}},
		"credentials":{"postgres":{"id":"1","name":"pg"}}}`)
	takeover(t, in, a, b, w, "Postgres Trigger",
		func(label string) {
			_, err := db.Exec(`INSERT INTO events (label) VALUES ($1)`, label)
			require.NoError(t, err)
		},
		func(it map[string]any) string {
			p, _ := it["payload"].(map[string]any)
			return fmt.Sprint(p["label"])
		})

	// Deactivating stops the listener, which drops its function and trigger.
	require.NoError(t, in.Store.DB.Model(w).Updates(map[string]any{"active": false}).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
	require.Eventually(t, func() bool {
		var n int
		require.NoError(t, db.QueryRow(`SELECT (SELECT count(*) FROM pg_trigger WHERE tgname = 'n8n_trigger_5d1e_77')
			+ (SELECT count(*) FROM pg_proc WHERE proname = 'n8n_trigger_function_5d1e_77')`).Scan(&n))
		return n == 0
	}, 10*time.Second, 50*time.Millisecond, "the function and trigger are dropped on deactivation")
}
