package main

import (
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestSIGTERMDrainsThenStops starts the embedded api with a 2 s drain, holds a webhook call in
// flight (its workflow waits 3 s in-process) and sends SIGTERM: readiness answers 503 while
// other requests are still served, the call in flight gets its answer, and the process exits
// with 0 soon after, well before the shutdown timeout.
func TestSIGTERMDrainsThenStops(t *testing.T) {
	p, base := startEmbedded(t, "FLOWMILL_SHUTDOWN_DRAIN", "2s", "FLOWMILL_SHUTDOWN_TIMEOUT", "30s")
	id := createVia(t, base, waitingWorkflow("slow", `{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"hook-slow","parameters":{"path":"slow","responseMode":"lastNode"}}`,
		`{"resume":"timeInterval","amount":3,"unit":"seconds"}`))
	code, body := patchJSON(t, base+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)

	type answer struct {
		code int
		body string
		err  error
	}
	inFlight := make(chan answer, 1)
	go func() {
		res, err := http.Get(base + "webhook/slow")
		if err != nil {
			inFlight <- answer{err: err}
			return
		}
		defer res.Body.Close()
		b := make([]byte, 4096)
		n, _ := res.Body.Read(b)
		inFlight <- answer{code: res.StatusCode, body: string(b[:n])}
	}()
	require.Eventually(t, func() bool { return storedExecutions(t, base) == 1 }, 10*time.Second, 10*time.Millisecond)

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	signalled := time.Now()
	require.Eventually(t, func() bool {
		res, err := http.Get(base + "healthz/readiness")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 503
	}, 5*time.Second, 10*time.Millisecond, "readiness never reported the drain")
	res, err := http.Get(base + "healthz")
	require.NoError(t, err, "the api stopped serving during the drain")
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)

	select {
	case a := <-inFlight:
		require.NoError(t, a.err)
		require.Equal(t, 200, a.code, a.body)
		require.Contains(t, a.body, `"after":true`)
	case <-time.After(20 * time.Second):
		t.Fatal("the call in flight got no answer")
	}
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the api did not exit within 20 s of SIGTERM")
	}
	require.Equal(t, 0, p.cmd.ProcessState.ExitCode(), p.output.String())
	t.Logf("exited %v after SIGTERM", time.Since(signalled))
}
