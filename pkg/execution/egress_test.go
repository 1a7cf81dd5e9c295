package execution_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestWorkerAppliesEgressSettings runs HTTP Request nodes on a worker: the worker's nodes get a
// client built from FLOWMILL_EGRESS_ALLOW/DENY, and the built-in refusals hold everywhere.
func TestWorkerAppliesEgressSettings(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	request := func(url string) node {
		return node{name: "HTTP Request", typ: "n8n-nodes-base.httpRequest", params: fmt.Sprintf(`{"url":%q}`, url)}
	}
	failure := func(e *env, url string) string {
		t.Helper()
		ex := e.wait(t, e.run(t, build(t, "Fetch", `{"saveManualExecutions":true}`, start, request(url)), workflow.ModeManual, "").ID)
		require.Equal(t, workflow.StatusError, ex.Status)
		return e.state(t, ex.ID)["resultData"].(map[string]any)["error"].(map[string]any)["message"].(string)
	}

	e := setup(t, "FLOWMILL_EGRESS_DENY", "127.0.0.0/8")
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", failure(e, srv.URL))
	require.Equal(t, "The address 169.254.169.254 is not allowed (built-in refusal of link-local, cloud metadata and "+
		"unspecified addresses; FLOWMILL_EGRESS_ALLOW can open it).", failure(e, "http://169.254.169.254/latest/meta-data/"))

	// Without settings a server on this machine answers.
	e = setup(t)
	ex := e.wait(t, e.run(t, build(t, "Fetch", `{"saveManualExecutions":true}`, start, request(srv.URL)), workflow.ModeManual, "").ID)
	require.Equal(t, workflow.StatusSuccess, ex.Status, "%v", e.state(t, ex.ID)["resultData"])
}
