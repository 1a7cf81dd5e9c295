package main

import (
	"context"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// tcpProxy forwards a loopback port to a real server and can cut every connection, so a test can
// take Postgres or Redis away from the api without touching the shared servers.
type tcpProxy struct {
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
}

func newProxy(t *testing.T, target string) *tcpProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p := &tcpProxy{addr: ln.Addr().String(), target: target, conns: map[net.Conn]bool{}}
	p.serve(ln)
	t.Cleanup(p.down)
	return p
}

func (p *tcpProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns[c], p.conns[up] = true, true
			p.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() { _, _ = io.Copy(c, up); c.Close() }()
		}
	}()
}

// down closes the listener and every connection: the server is "gone".
func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	p.conns = map[net.Conn]bool{}
}

// up listens again on the same address: the server is back.
func (p *tcpProxy) up(t *testing.T) {
	ln, err := net.Listen("tcp", p.addr)
	require.NoError(t, err)
	p.serve(ln)
}

func viaProxy(t *testing.T, raw string, p *tcpProxy) string {
	u, err := url.Parse(raw)
	require.NoError(t, err)
	u.Host = p.addr
	return u.String()
}

func readinessCode(t *testing.T, e *testEnv) (int, string) {
	res, b := e.do(t, "GET", "healthz/readiness", "")
	return res.StatusCode, string(b)
}

func TestReadinessFailsWhileDatabaseOrRedisIsGoneAndRecovers(t *testing.T) {
	_, redisURL := queuetest.Redis(t)
	dbURL := storetest.PostgresSchemaURL(t)
	rURL, err := url.Parse(redisURL)
	require.NoError(t, err)
	dURL, err := url.Parse(dbURL)
	require.NoError(t, err)
	redisProxy := newProxy(t, rURL.Host)
	dbProxy := newProxy(t, dURL.Host)
	e := startServerWith(t, map[string]string{
		"FLOWMILL_DATABASE_URL":   viaProxy(t, dbURL, dbProxy),
		"FLOWMILL_REDIS_URL":      viaProxy(t, redisURL, redisProxy),
		"FLOWMILL_DATA_DIR":       t.TempDir(),
		"FLOWMILL_ENCRYPTION_KEY": "test-encryption-key-0123",
		"FLOWMILL_LOG_LEVEL":      "error",
	})
	// A worker reporting straight to Redis, as a worker process would.
	direct := queuetest.RedisAt(t, redisURL)
	hb := bus.NewHeartbeat(direct, bus.RoleWorker, "w", time.Minute, nil)
	require.NoError(t, hb.Start(context.Background()))
	defer hb.Stop()

	code, body := readinessCode(t, e)
	require.Equal(t, 200, code, body)

	redisProxy.down()
	code, body = readinessCode(t, e)
	require.Equal(t, 503, code)
	require.Contains(t, body, `"database":"ok"`)
	require.NotContains(t, body, `"redis":"ok"`)
	redisProxy.up(t)
	require.Eventually(t, func() bool { c, _ := readinessCode(t, e); return c == 200 }, 10*time.Second, 50*time.Millisecond)

	dbProxy.down()
	code, body = readinessCode(t, e)
	require.Equal(t, 503, code)
	require.NotContains(t, body, `"database":"ok"`)
	require.Contains(t, body, `"redis":"ok"`)
	dbProxy.up(t)
	require.Eventually(t, func() bool { c, _ := readinessCode(t, e); return c == 200 }, 10*time.Second, 50*time.Millisecond)
}
