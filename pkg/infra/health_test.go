package infra_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestHealthListenerFollowsTheProcess: readiness is 503 while the component starts, 200 once
// it has started and the database and Redis answer, 503 draining from the stop on; /healthz
// answers throughout, and /metrics serves the registry.
func TestHealthListenerFollowsTheProcess(t *testing.T) {
	in := infratest.Open(t, map[string]string{"FLOWMILL_LISTEN_ADDRESS": "127.0.0.1"})
	l := infra.NewHealthListener(in, "worker")
	require.NoError(t, l.Start(context.Background()))
	defer l.Stop()
	base := "http://" + l.Addr + "/"

	code, body := get(t, base+"healthz")
	require.Equal(t, 200, code)
	require.JSONEq(t, `{"status":"ok"}`, body)
	code, body = get(t, base+"healthz/readiness")
	require.Equal(t, 503, code)
	require.JSONEq(t, `{"status":"error","checks":{"worker":"starting"}}`, body)

	l.Ready()
	code, body = get(t, base+"healthz/readiness")
	require.Equal(t, 200, code, body)
	require.JSONEq(t, `{"status":"ok","checks":{"database":"ok","redis":"ok","worker":"ok"}}`, body)
	code, body = get(t, base+"metrics")
	require.Equal(t, 200, code)
	require.Contains(t, body, "flowmill_queue_pending{queue=\"critical\"} 0\n")

	l.Stopping()
	code, body = get(t, base+"healthz/readiness")
	require.Equal(t, 503, code)
	require.Contains(t, body, `"draining"`)
	code, _ = get(t, base+"healthz")
	require.Equal(t, 200, code, "alive while it stops")
	l.Stop()
	l.Stop() // safe twice
}

// TestHealthListenerWithMetricsOff: FLOWMILL_METRICS=false turns /metrics into a 404.
func TestHealthListenerWithMetricsOff(t *testing.T) {
	in := infratest.Open(t, map[string]string{"FLOWMILL_LISTEN_ADDRESS": "127.0.0.1", "FLOWMILL_METRICS": "false"})
	l := infra.NewHealthListener(in, "scheduler")
	require.NoError(t, l.Start(context.Background()))
	defer l.Stop()
	code, body := get(t, "http://"+l.Addr+"/metrics")
	require.Equal(t, 404, code)
	require.Contains(t, body, "FLOWMILL_METRICS=false")
}
