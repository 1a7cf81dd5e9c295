package httprequest_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

// keySink records the header each request carried, in order.
type keySink struct {
	header string
	mu     sync.Mutex
	got    []string
}

func (k *keySink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k.mu.Lock()
	k.got = append(k.got, r.Header.Get(k.header))
	k.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{}`))
}

func (k *keySink) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := k.got
	k.got = nil
	return out
}

func TestRequestsCarryAKeyStablePerExecutionNodeRunAndItem(t *testing.T) {
	t.Parallel()
	sink := &keySink{header: "Idempotency-Key"}
	srv := httptest.NewServer(sink)
	t.Cleanup(srv.Close)
	host := nodes.Host{IdempotencyHeader: "Idempotency-Key"}
	two := nodetest.Items(m{"n": 1}, m{"n": 2})
	runAs := func(execID string, runIndex int, h nodes.Host, params m) []string {
		t.Helper()
		_, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Parameters: params, Host: h,
			ExecutionID: execID, RunIndex: runIndex, Mode: "webhook"}, two)
		require.NoError(t, err)
		return sink.take()
	}
	params := m{"url": srv.URL + "/hit"}

	first := runAs("41", 0, host, params)
	require.Len(t, first, 2)
	require.Len(t, first[0], 64)
	require.NotEqual(t, first[0], first[1], "two items send different keys")

	// A worker taking the execution over runs the node again: the same keys.
	require.Equal(t, first, runAs("41", 0, host, params))
	// Another execution, or the node's next run in a loop, sends other keys.
	other := runAs("42", 0, host, params)
	require.NotContains(t, other, first[0])
	require.NotContains(t, runAs("41", 1, host, params), first[0])

	// A key the node sets itself wins.
	own := m{"url": srv.URL + "/hit", "headerParametersUi": ui(m{"name": "idempotency-key", "value": "mine"})}
	require.Equal(t, []string{"mine", "mine"}, runAs("41", 0, host, own))

	// Off: no header. A run outside an execution (no id) sends none either.
	require.Equal(t, []string{"", ""}, runAs("41", 0, nodes.Host{}, params))
	require.Equal(t, []string{"", ""}, runAs("", 0, host, params))

	// Another header name.
	sink.header = "X-Request-Key"
	renamed := runAs("41", 0, nodes.Host{IdempotencyHeader: "X-Request-Key"}, params)
	require.Equal(t, first, renamed)
}

func TestPagesCarryKeysOfTheirOwn(t *testing.T) {
	t.Parallel()
	sink := &keySink{header: "Idempotency-Key"}
	srv := httptest.NewServer(sink)
	t.Cleanup(srv.Close)
	params := m{"url": srv.URL + "/hit", "options": m{"pagination": m{"pagination": m{
		"parameters":        m{"parameters": []any{m{"type": "qs", "name": "page", "value": "={{ $pageCount }}"}}},
		"limitPagesFetched": true, "maxRequests": 3.0}}}}
	runAs := func(execID string) []string {
		t.Helper()
		_, err := nodetest.Run(t, httprequest.TypeV3(), nodetest.Node{Version: 4.2, Parameters: params,
			Host: nodes.Host{IdempotencyHeader: "Idempotency-Key"}, ExecutionID: execID, Mode: "webhook"}, nodetest.Items(m{}))
		require.NoError(t, err)
		return sink.take()
	}
	first := runAs("41")
	require.Len(t, first, 3)
	require.NotEqual(t, first[0], first[1])
	require.NotEqual(t, first[1], first[2])
	require.Equal(t, first, runAs("41"), "the same pages send the same keys again")
}
