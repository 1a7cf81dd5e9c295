package main

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// slowSideEffectWorkflow calls the sink three times with Code nodes of ms milliseconds in between.
func slowSideEffectWorkflow(sinkURL string, ms int) string {
	return strings.ReplaceAll(sideEffectWorkflow(sinkURL), "Date.now() - t < 300", fmt.Sprintf("Date.now() - t < %d", ms))
}

// TestSIGTERMWithWorkInFlight stops a worker with SIGTERM while it runs executions, twice: once
// with a shutdown timeout long enough for its runs to finish there, once with one too short,
// so its runs are handed back and finished by the other worker. Either way the stopped worker
// exits with 0 within its timeout (plus slack), every execution ends successfully with one run
// record per node (an interrupted node leaves no record), none is left running, runs that
// could finish repeat no side effect, and handed-back runs repeat at most the node in flight.
func TestSIGTERMWithWorkInFlight(t *testing.T) {
	for _, c := range []struct {
		name    string
		timeout time.Duration
	}{{"finishes", 20 * time.Second}, {"hands back", 500 * time.Millisecond}} {
		t.Run(c.name, func(t *testing.T) {
			// A sink of its own: each case's fresh database numbers its executions from 1 again.
			s := &sink{hits: map[string]int{}}
			srv := httptest.NewServer(s)
			defer srv.Close()
			a, b, env, workers := scaledStack(t, 1,
				"FLOWMILL_EXECUTION_LEASE_TTL", "2s", "FLOWMILL_RECONCILE_INTERVAL", "500ms",
				"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true",
				"FLOWMILL_SHUTDOWN_TIMEOUT", c.timeout.String())
			victim := workers[0]
			wf := slowSideEffectWorkflow(srv.URL, 700)
			var ids []string
			for range 4 {
				ids = append(ids, runWorkflow(t, a, "", wf))
			}
			// Wait until the victim runs them all (the only worker yet), past the first side effect.
			require.Eventually(t, func() bool {
				for _, id := range ids {
					if s.count(id, "H1") == 0 {
						return false
					}
				}
				return true
			}, 20*time.Second, 10*time.Millisecond, "the worker never started the runs")
			other := startProc(t, "worker", env)
			_ = other

			require.NoError(t, victim.cmd.Process.Signal(syscall.SIGTERM))
			signalled := time.Now()
			select {
			case <-victim.done:
			case <-time.After(c.timeout + 10*time.Second):
				t.Fatalf("the worker did not exit within %v of SIGTERM", c.timeout+10*time.Second)
			}
			require.Equal(t, 0, victim.cmd.ProcessState.ExitCode(), victim.output.String())
			t.Logf("worker exited %v after SIGTERM", time.Since(signalled))

			repeated := 0
			for _, id := range ids {
				var e executionDetail
				require.Eventually(t, func() bool {
					return getJSON(t, b+"rest/executions/"+id, &e) == 200 && e.Status != "running" && e.Status != "new" && e.Status != "queued"
				}, 60*time.Second, 100*time.Millisecond, "execution %s did not end", id)
				require.Equal(t, "success", e.Status, "execution %s", id)
				require.True(t, e.Finished)
				requireOneRunPerNode(t, id, e)
				perExecution := 0
				for _, n := range []string{"H1", "H2", "H3"} {
					hits := s.count(id, n)
					require.GreaterOrEqual(t, hits, 1)
					perExecution += hits - 1
				}
				// A handed-back run goes on from its last checkpoint: only the node cut short by
				// the stop runs again, so at most one side effect repeats (the one that node's
				// HTTP call had already made; its Idempotency-Key lets the receiver see it).
				require.LessOrEqual(t, perExecution, 1, "execution %s repeated more than the node in flight", id)
				repeated += perExecution
			}
			if c.timeout > 10*time.Second {
				require.Zero(t, repeated, "runs that could finish before the stop were repeated")
			}
			t.Logf("%d executions, %d side effects repeated", len(ids), repeated)
		})
	}
}
