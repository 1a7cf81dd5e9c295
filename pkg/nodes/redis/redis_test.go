package redis_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/netip"
	"os"
	"strconv"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/redis"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// scratch locks a free test database on the local Redis (flushed before and after) and returns
// a client on it and a credential naming it.
func scratch(t *testing.T) (*goredis.Client, m) {
	t.Helper()
	rdb, u := queuetest.Redis(t)
	opts, err := goredis.ParseURL(u)
	require.NoError(t, err)
	host, port, err := net.SplitHostPort(opts.Addr)
	require.NoError(t, err)
	p, _ := strconv.Atoi(port)
	return rdb, m{"host": host, "port": float64(p), "database": float64(opts.DB), "password": opts.Password, "user": opts.Username}
}

func node(params, creds m, cof bool) nodetest.Node {
	return nodetest.Node{
		Parameters: params, ContinueOnFail: cof,
		Credentials: m{"redis": m{"id": "1", "name": "Redis"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return creds, nil
		},
	}
}

func run(t *testing.T, n nodetest.Node, in ...map[string]any) ([]workflow.Item, error) {
	t.Helper()
	if len(in) == 0 {
		in = []map[string]any{{"in": 1.0}}
	}
	out, err := nodetest.Run(t, redis.Type(), n, nodetest.Items(in...))
	if err != nil {
		return nil, err
	}
	require.Len(t, out, 1)
	return out[0], nil
}

func ok(t *testing.T, params, creds m, in ...map[string]any) []workflow.Item {
	t.Helper()
	items, err := run(t, node(params, creds, false), in...)
	require.NoError(t, err)
	return items
}

func fails(t *testing.T, params, creds m) *nodes.Error {
	t.Helper()
	_, err := run(t, node(params, creds, false))
	require.Error(t, err)
	return nodetest.NodeError(t, err)
}

func TestStringsAndTTL(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	ctx := context.Background()

	items := ok(t, m{"operation": "set", "key": "greeting", "value": "hello"}, creds)
	nodetest.RequireJSONs(t, []m{{"in": 1.0}}, items)
	require.Equal(t, "hello", rdb.Get(ctx, "greeting").Val())
	require.Equal(t, time.Duration(-1), rdb.TTL(ctx, "greeting").Val())

	ok(t, m{"operation": "set", "key": "short", "value": "v", "keyType": "string", "expire": true, "ttl": 100.0}, creds)
	ttl := rdb.TTL(ctx, "short").Val()
	require.True(t, ttl > 90*time.Second && ttl <= 100*time.Second, "ttl %v", ttl)

	got := ok(t, m{"operation": "get", "key": "greeting", "propertyName": "data.person[0].name"}, creds)
	nodetest.RequireJSONs(t, []m{{"data": m{"person": []any{m{"name": "hello"}}}}}, got)
	require.NotNil(t, got[0].PairedItem)

	got = ok(t, m{"operation": "get", "key": "greeting", "keyType": "string", "propertyName": "a.b", "options": m{"dotNotation": false}}, creds)
	nodetest.RequireJSONs(t, []m{{"a.b": "hello"}}, got)

	got = ok(t, m{"operation": "get", "key": "missing", "propertyName": "v"}, creds)
	nodetest.RequireJSONs(t, []m{{"v": nil}}, got)
	got = ok(t, m{"operation": "get", "key": "missing", "keyType": "string", "propertyName": "v"}, creds)
	nodetest.RequireJSONs(t, []m{{"v": nil}}, got)

	// Text converts the value as JavaScript's toString does; a number from an expression has no
	// automatic type.
	ok(t, m{"operation": "set", "key": "n", "value": "={{ 42 }}", "keyType": "string"}, creds)
	require.Equal(t, "42", rdb.Get(ctx, "n").Val())
	require.Equal(t, "Could not identify the type to set. Please set it manually!",
		fails(t, m{"operation": "set", "key": "n", "value": "={{ 42 }}"}, creds).Message)

	// Two items increment twice; the TTL is set when asked.
	got = ok(t, m{"operation": "incr", "key": "hits", "expire": true, "ttl": 30.0}, creds, m{}, m{})
	nodetest.RequireJSONs(t, []m{{"hits": 1.0}, {"hits": 2.0}}, got)
	ttl = rdb.TTL(ctx, "hits").Val()
	require.True(t, ttl > 20*time.Second && ttl <= 30*time.Second, "ttl %v", ttl)
	got = ok(t, m{"operation": "incr", "key": "plain"}, creds)
	nodetest.RequireJSONs(t, []m{{"plain": 1.0}}, got)
	require.Equal(t, time.Duration(-1), rdb.TTL(ctx, "plain").Val())
	require.Equal(t, "ERR value is not an integer or out of range",
		fails(t, m{"operation": "incr", "key": "greeting"}, creds).Message)

	items = ok(t, m{"operation": "delete", "key": "greeting"}, creds)
	nodetest.RequireJSONs(t, []m{{"in": 1.0}}, items)
	require.Zero(t, rdb.Exists(ctx, "greeting").Val())
}

func TestHashesListsSets(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	ctx := context.Background()

	// A hash from JSON keeps its field order; Get returns it in the server's order.
	ok(t, m{"operation": "set", "key": "h", "value": `{"zeta":"z","alpha":1,"nested":{"a":1}}`, "keyType": "hash"}, creds)
	got := ok(t, m{"operation": "get", "key": "h", "propertyName": "h"}, creds)
	nodetest.RequireJSONs(t, []m{{"h": m{"zeta": "z", "alpha": "1", "nested": "[object Object]"}}}, got)
	h := got[0].JSON.Get("h")
	require.Equal(t, []string{"zeta", "alpha", "nested"}, h.(*workflow.Object).Keys())

	ok(t, m{"operation": "set", "key": "pairs", "value": "f1 v1 f2 v2", "keyType": "hash", "valueIsJSON": false}, creds)
	require.Equal(t, map[string]string{"f1": "v1", "f2": "v2"}, rdb.HGetAll(ctx, "pairs").Val())
	require.Equal(t, "ERR wrong number of arguments for 'hset' command",
		fails(t, m{"operation": "set", "key": "pairs", "value": "odd", "keyType": "hash", "valueIsJSON": false}, creds).Message)

	// Automatic: an object from an expression is a hash, an array a list (written with LSET,
	// so the list must exist, as in n8n).
	ok(t, m{"operation": "set", "key": "obj", "value": `={{ {"x": 1, "y": "two"} }}`}, creds)
	require.Equal(t, map[string]string{"x": "1", "y": "two"}, rdb.HGetAll(ctx, "obj").Val())
	require.Equal(t, "ERR no such key",
		fails(t, m{"operation": "set", "key": "newlist", "value": `={{ ["a"] }}`}, creds).Message)
	rdb.RPush(ctx, "l", "a", "b", "c")
	ok(t, m{"operation": "set", "key": "l", "value": `={{ ["x", 2] }}`}, creds)
	got = ok(t, m{"operation": "get", "key": "l", "keyType": "list", "propertyName": "l"}, creds)
	nodetest.RequireJSONs(t, []m{{"l": []any{"x", "2", "c"}}}, got)

	ok(t, m{"operation": "set", "key": "s", "value": "one", "keyType": "sets"}, creds)
	ok(t, m{"operation": "set", "key": "s", "value": `={{ ["two", "three"] }}`, "keyType": "sets", "expire": true, "ttl": 50.0}, creds)
	require.ElementsMatch(t, []string{"one", "two", "three"}, rdb.SMembers(ctx, "s").Val())
	require.Greater(t, rdb.TTL(ctx, "s").Val(), 40*time.Second)
	got = ok(t, m{"operation": "get", "key": "s", "keyType": "sets", "propertyName": "s"}, creds)
	members := got[0].JSON.Get("s")
	require.ElementsMatch(t, []any{"one", "two", "three"}, members)
	// n8n's automatic type does not read sets (TYPE says "set", it checks "sets").
	got = ok(t, m{"operation": "get", "key": "s", "propertyName": "s"}, creds)
	nodetest.RequireJSONs(t, []m{{"s": nil}}, got)

	// Wrong type: n8n's message; with Continue On Fail an error item per input item.
	ne := fails(t, m{"operation": "get", "key": "l", "keyType": "hash", "propertyName": "x"}, creds)
	require.Equal(t, "WRONGTYPE Operation against a key holding the wrong kind of value", ne.Message)
	require.Equal(t, 0, ne.ItemIndex)
	items, err := run(t, node(m{"operation": "get", "key": "l", "keyType": "hash", "propertyName": "x"}, creds, true), m{}, m{})
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"error": "WRONGTYPE Operation against a key holding the wrong kind of value"}, {"error": "WRONGTYPE Operation against a key holding the wrong kind of value"}}, items)
	require.Equal(t, 1, (*items[1].PairedItem)[0].Item)

	// Keys, with and without values (the set is left out, as n8n's undefined is).
	got = ok(t, m{"operation": "keys", "keyPattern": "[ls]", "getValues": false}, creds)
	keys := got[0].JSON.Get("keys")
	require.ElementsMatch(t, []any{"l", "s"}, keys)
	got = ok(t, m{"operation": "keys", "keyPattern": "[lh]"}, creds)
	nodetest.RequireJSONs(t, []m{{"l": []any{"x", "2", "c"}, "h": m{"zeta": "z", "alpha": "1", "nested": "[object Object]"}}}, got)
	got = ok(t, m{"operation": "keys", "keyPattern": "nothing*", "getValues": false}, creds)
	nodetest.RequireJSONs(t, []m{{"keys": []any{}}}, got)

	got = ok(t, m{"operation": "llen", "list": "l"}, creds)
	nodetest.RequireJSONs(t, []m{{"l": 3.0}}, got)
}

func TestPushPopPublish(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	ctx := context.Background()

	ok(t, m{"operation": "push", "list": "q", "messageData": "first"}, creds)
	ok(t, m{"operation": "push", "list": "q", "messageData": "zero"}, creds)
	items := ok(t, m{"operation": "push", "list": "q", "messageData": `{"job":{"id":7}}`, "tail": true}, creds)
	nodetest.RequireJSONs(t, []m{{"in": 1.0}}, items)
	require.Equal(t, []string{"zero", "first", `{"job":{"id":7}}`}, rdb.LRange(ctx, "q", 0, -1).Val())

	got := ok(t, m{"operation": "pop", "list": "q", "tail": true, "propertyName": "msg"}, creds)
	nodetest.RequireJSONs(t, []m{{"msg": m{"job": m{"id": 7.0}}}}, got)
	got = ok(t, m{"operation": "pop", "list": "q"}, creds)
	nodetest.RequireJSONs(t, []m{{"propertyName": "zero"}}, got)
	got = ok(t, m{"operation": "pop", "list": "q", "propertyName": "a.b", "options": m{"dotNotation": false}}, creds)
	nodetest.RequireJSONs(t, []m{{"a.b": "first"}}, got)
	got = ok(t, m{"operation": "pop", "list": "q", "propertyName": "a.b"}, creds)
	nodetest.RequireJSONs(t, []m{{"a": m{"b": nil}}}, got)

	sub := rdb.Subscribe(ctx, "news")
	defer sub.Close()
	_, err := sub.Receive(ctx)
	require.NoError(t, err)
	items = ok(t, m{"operation": "publish", "channel": "news", "messageData": "={{ $json.text }}"}, creds, m{"text": "hi; there"})
	nodetest.RequireJSONs(t, []m{{"text": "hi; there"}}, items)
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	msg, err := sub.ReceiveMessage(rctx)
	require.NoError(t, err)
	require.Equal(t, "hi; there", msg.Payload)
}

func TestInfo(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	rdb.Set(context.Background(), "k", "v", 0)
	items := ok(t, m{"operation": "info"}, creds, m{}, m{})
	require.Len(t, items, 1)
	o := items[0].JSON
	v := o.Get("redis_version")
	require.IsType(t, 0.0, v)
	role := o.Get("role")
	require.Equal(t, "master", role)
	db := o.Get(fmt.Sprintf("db%d", int(creds["database"].(float64))))
	require.Equal(t, []string{"keys", "expires", "avg_ttl", "subexpiry"}[:3], db.(*workflow.Object).Keys()[:3])
	keys := db.(*workflow.Object).Get("keys")
	require.Equal(t, 1.0, keys)
}

func TestInfoObject(t *testing.T) {
	t.Parallel()
	text := "# Server\r\nredis_version:6.2.14\r\nredis_git_sha1:00000000\r\nredis_mode:standalone\r\n" +
		"executable:/usr/bin/redis-server\r\nconfig_file:\r\n\r\n# Keyspace\r\ndb0:keys=1,expires=0,avg_ttl=0\r\nodd:a=1,b\r\n"
	o := redis.InfoObject(text)
	require.Equal(t, []string{"redis_version", "redis_git_sha1", "redis_mode", "executable", "config_file", "db0", "odd"}, o.Keys())
	require.True(t, workflow.DeepEqual(m{
		"redis_version": 6.2, "redis_git_sha1": 0.0, "redis_mode": "standalone", "executable": "/usr/bin/redis-server",
		"config_file": "", "db0": m{"keys": 1.0, "expires": 0.0, "avg_ttl": 0.0}, "odd": m{"a": 1.0, "b": nil},
	}, o.ToMap()), "%v", o.ToMap())
}

// Item data goes to Redis as protocol arguments: quotes, semicolons, NULs, CRLF with RESP
// framing and glob characters are stored as written and add no commands.
func TestHostileData(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	ctx := context.Background()
	hostile := []string{
		`a"b'c`, "x; FLUSHALL", "nul\x00byte", "crlf\r\n*1\r\n$8\r\nFLUSHALL\r\n", "ünïcødé 🚀", "glob*?[x]", " spaced key ",
	}
	for i, s := range hostile {
		in := m{"k": s, "v": s + "-value"}
		ok(t, m{"operation": "set", "key": "={{ $json.k }}", "value": "={{ $json.v }}", "keyType": "string"}, creds, in)
		got := ok(t, m{"operation": "get", "key": "={{ $json.k }}", "propertyName": "out", "options": m{"dotNotation": false}}, creds, in)
		nodetest.RequireJSONs(t, []m{{"out": s + "-value"}}, got)
		require.Equal(t, s+"-value", rdb.Get(ctx, s).Val())
		ok(t, m{"operation": "push", "list": "={{ $json.k }}:list", "messageData": "={{ $json.v }}"}, creds, in)
		require.Equal(t, int64(2*(i+1)), rdb.DBSize(ctx).Val(), "after %q", s)
	}
	// A hash field holding a NUL and a CRLF round-trips.
	ok(t, m{"operation": "set", "key": "hh", "value": `={{ {"f\u0000;": "v\r\nPING"} }}`}, creds)
	require.Equal(t, map[string]string{"f\x00;": "v\r\nPING"}, rdb.HGetAll(ctx, "hh").Val())
	// The glob key matches itself literally only when escaped; KEYS takes the pattern as given.
	got := ok(t, m{"operation": "keys", "keyPattern": `glob\*\?\[x\]`, "getValues": false}, creds)
	nodetest.RequireJSONs(t, []m{{"keys": []any{"glob*?[x]"}}}, got)
}

func TestAuth(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	ctx := context.Background()
	user := fmt.Sprintf("flowmill_redis_node_%d_%d", os.Getpid(), time.Now().UnixNano())
	require.NoError(t, rdb.Do(ctx, "ACL", "SETUSER", user, "on", ">s3cret;'\"", "~*", "&*", "+@all").Err())
	t.Cleanup(func() { _ = rdb.Do(context.Background(), "ACL", "DELUSER", user).Err() })

	good := m{"host": creds["host"], "port": creds["port"], "database": creds["database"], "user": user, "password": "s3cret;'\""}
	nodetest.RequireJSONs(t, []m{{"c": 1.0}}, ok(t, m{"operation": "incr", "key": "c"}, good))

	bad := m{"host": creds["host"], "port": creds["port"], "database": creds["database"], "user": user, "password": "wrong"}
	ne := fails(t, m{"operation": "incr", "key": "c"}, bad)
	require.Equal(t, "WRONGPASS invalid username-password pair or user is disabled.", ne.Message)
	items, err := run(t, node(m{"operation": "incr", "key": "c"}, bad, true))
	require.Error(t, err, "a connection failure fails the node even with Continue On Fail, as in n8n")
	require.Nil(t, items)

	typ, found := credential.Lookup("redis")
	require.True(t, found)
	require.NoError(t, typ.Connect(ctx, good, nil))
	require.EqualError(t, typ.Connect(ctx, bad, nil), "WRONGPASS invalid username-password pair or user is disabled.")
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	creds := m{"host": "127.0.0.1", "port": float64(port), "database": 0.0}
	require.Equal(t, "connect ECONNREFUSED 127.0.0.1:"+strconv.Itoa(port), fails(t, m{"operation": "info"}, creds).Message)

	typ, _ := credential.Lookup("redis")
	require.EqualError(t, typ.Connect(context.Background(), creds, nil),
		"Connection refused: Unable to connect to the Redis server. Please check the host and port.")

	// The egress policy is asked before dialing, by the node and by the credential test.
	denyPolicy := egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")})
	n := node(m{"operation": "info"}, m{"host": "127.0.0.1", "port": 6379.0}, false)
	n.Host = nodes.Host{HTTP: denyPolicy.Client(egress.Options{})}
	_, err = run(t, n)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", nodetest.NodeError(t, err).Message)
	require.EqualError(t, typ.Connect(context.Background(), m{"host": "127.0.0.1", "port": 6379.0}, denyPolicy),
		"The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).")
}

func TestCanceled(t *testing.T) {
	t.Parallel()
	_, creds := scratch(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := node(m{"operation": "get", "key": "k", "propertyName": "v"}, creds, true)
	n.Context = ctx
	_, err := run(t, n)
	require.ErrorIs(t, err, context.Canceled)
}

// tlsProxy is a TLS endpoint with a self-signed certificate that forwards to the local Redis,
// standing in for a Redis server with TLS on.
func tlsProxy(t *testing.T, target string) int {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "redis.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c) }()
				_, _ = io.Copy(c, up)
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestTLS(t *testing.T) {
	t.Parallel()
	rdb, creds := scratch(t)
	port := tlsProxy(t, net.JoinHostPort(creds["host"].(string), strconv.Itoa(int(creds["port"].(float64)))))
	tlsCreds := m{"host": "127.0.0.1", "port": float64(port), "database": creds["database"], "ssl": true, "disableTlsVerification": true}
	ok(t, m{"operation": "set", "key": "over-tls", "value": "yes"}, tlsCreds)
	require.Equal(t, "yes", rdb.Get(context.Background(), "over-tls").Val())

	// The certificate is checked unless the credential says not to.
	tlsCreds["disableTlsVerification"] = false
	require.Contains(t, fails(t, m{"operation": "info"}, tlsCreds).Message, "certificate signed by unknown authority")
	// TLS to a server without it fails cleanly.
	plain := m{"host": creds["host"], "port": creds["port"], "database": creds["database"], "ssl": true, "disableTlsVerification": true}
	require.Equal(t, "Connection timeout", fails(t, m{"operation": "info"}, plain).Message)
}
