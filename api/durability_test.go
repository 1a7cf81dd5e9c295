package main

import (
	"fmt"
	"math/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// sink counts side effects: one hit per HTTP Request node run, keyed by execution and node.
type sink struct {
	mu   sync.Mutex
	hits map[string]int
}

func (s *sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Query().Get("exec")+"/"+r.URL.Query().Get("node")]++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"ok":true}`))
}

func (s *sink) count(exec, node string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[exec+"/"+node]
}

// sideEffectWorkflow calls the sink three times with slow Code nodes in between, so a kill
// lands mid-run.
func sideEffectWorkflow(sinkURL string) string {
	httpNode := func(name string, x int) string {
		return fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[%d,0],
		 "parameters":{"url":"=%s/hit?node=%s&exec={{$execution.id}}","options":{}}}`, name, x, sinkURL, name)
	}
	slow := func(name string, x int) string {
		return fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.code","typeVersion":1,"position":[%d,0],
		 "parameters":{"jsCode":"const t = Date.now(); while (Date.now() - t < 300) {} return $input.all();"}}`, name, x)
	}
	nodes := []string{
		`{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}}`,
		httpNode("H1", 200), slow("Slow1", 400), httpNode("H2", 600), slow("Slow2", 800), httpNode("H3", 1000),
	}
	order := []string{"Start", "H1", "Slow1", "H2", "Slow2", "H3"}
	var conns []string
	for i := 1; i < len(order); i++ {
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, order[i-1], order[i]))
	}
	return `{"name":"durable","nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `}}`
}

// requireOneRunPerNode checks that execution id of sideEffectWorkflow holds one run record for
// each node: a repeated or interrupted node leaves no second one.
func requireOneRunPerNode(t *testing.T, id string, e executionDetail) {
	t.Helper()
	var data struct {
		ResultData struct {
			RunData map[string][]any `json:"runData"`
		} `json:"resultData"`
	}
	require.NoError(t, jsonUnmarshal(e.Data, &data))
	for _, n := range []string{"Start", "H1", "Slow1", "H2", "Slow2", "H3"} {
		require.Len(t, data.ResultData.RunData[n], 1, "execution %s node %s has one run record", id, n)
	}
}

// TestKilledWorkerLosesNoExecution kills a worker with SIGKILL at a random moment (seeded) while
// executions run, several times over: every execution still ends exactly once, successfully,
// with every node run once in its run data; a node is repeated only if it was in flight when
// the worker died.
func TestKilledWorkerLosesNoExecution(t *testing.T) {
	s := &sink{hits: map[string]int{}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	a, b, env, workers := scaledStack(t, 2,
		"FLOWMILL_EXECUTION_LEASE_TTL", "2s", "FLOWMILL_RECONCILE_INTERVAL", "500ms",
		"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true")
	wf := sideEffectWorkflow(srv.URL)
	rng := rand.New(rand.NewSource(20261122))
	var ids []string
	for round := range 3 {
		var batch []string
		for range 4 {
			batch = append(batch, runWorkflow(t, a, "", wf))
		}
		ids = append(ids, batch...)
		time.Sleep(time.Duration(200+rng.Intn(900)) * time.Millisecond) // a random point inside the runs
		victim := workers[round%len(workers)]
		require.NoError(t, victim.cmd.Process.Signal(syscall.SIGKILL))
		<-victim.done
		workers[round%len(workers)] = startProc(t, "worker", env)

		for _, id := range batch {
			var e executionDetail
			require.Eventually(t, func() bool {
				return getJSON(t, b+"rest/executions/"+id, &e) == 200 && e.Status == "success"
			}, 60*time.Second, 100*time.Millisecond, "execution %s did not finish after the kill", id)
		}
	}
	repeated := 0
	for _, id := range ids {
		var e executionDetail
		require.Equal(t, 200, getJSON(t, b+"rest/executions/"+id, &e))
		require.True(t, e.Finished)
		requireOneRunPerNode(t, id, e)
		for _, n := range []string{"H1", "H2", "H3"} {
			hits := s.count(id, n)
			require.GreaterOrEqual(t, hits, 1)
			require.LessOrEqual(t, hits, 2, "execution %s node %s", id, n)
			repeated += hits - 1
		}
	}
	// At most one in-flight node per execution on the killed worker can have been repeated.
	require.LessOrEqual(t, repeated, len(ids))
	t.Logf("%d executions, %d side effects repeated by in-flight nodes", len(ids), repeated)
}
