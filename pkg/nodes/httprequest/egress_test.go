package httprequest_test

import (
	"github.com/flowmill/flowmill/pkg/workflow"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

const metadataRefused = "The address 169.254.169.254 is not allowed (built-in refusal of link-local, cloud metadata " +
	"and unspecified addresses; FLOWMILL_EGRESS_ALLOW can open it)."

// host is the Host a process builds from the given settings.
func host(t *testing.T, env map[string]string) nodes.Host {
	t.Helper()
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	require.NoError(t, err)
	return nodes.Host{HTTP: cfg.Egress().Client(egress.Options{})}
}

func TestEgressPolicy(t *testing.T) {
	t.Parallel()
	srv := echo(t)
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		proxied.Add(1)
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(proxy.Close)
	toMetadata := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	}))
	t.Cleanup(toMetadata.Close)

	runWith := func(h nodes.Host, params m) error {
		_, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Parameters: params, Host: h}, nodetest.Items(m{}))
		return err
	}
	defaults := host(t, nil)

	// A server on this machine answers by default.
	require.NoError(t, runWith(defaults, m{"url": srv.URL + "/x"}))

	// Metadata addresses are refused: directly, after a redirect, through the node's proxy.
	for _, params := range []m{
		{"url": "http://169.254.169.254/latest/meta-data/"},
		{"url": "http://[::ffff:169.254.169.254]/latest/meta-data/"},
		{"url": toMetadata.URL},
		{"url": "http://169.254.169.254/latest/meta-data/", "options": m{"proxy": proxy.URL}},
	} {
		ne := nodetest.NodeError(t, runWith(defaults, params))
		require.Equal(t, metadataRefused, ne.Message, "%v", params)
		require.Equal(t, 0, ne.ItemIndex)
	}
	require.Zero(t, proxied.Load())

	// The settings of the Host decide, not defaults of the node.
	denied := host(t, map[string]string{"FLOWMILL_EGRESS_DENY": "127.0.0.0/8"})
	ne := nodetest.NodeError(t, runWith(denied, m{"url": srv.URL + "/x"}))
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", ne.Message)

	// With continueOnFail the refusal is the item's error.
	out, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, ContinueOnFail: true, Host: denied,
		Parameters: m{"url": srv.URL + "/x"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", out[0][0].JSON.Get("error").(*workflow.Object).Get("message"))
}
