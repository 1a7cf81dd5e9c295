package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// listen serves handler on ip (a loopback address) and counts the requests it gets.
func listen(t *testing.T, ip string, handler http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	ln, err := net.Listen("tcp", ip+":0")
	require.NoError(t, err)
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		handler(w, r)
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &calls
}

// tcpServer accepts connections on loopback and hands each to handle; it speaks no HTTP.
func tcpServer(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
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
				handle(c)
			}()
		}
	}()
	return ln.Addr().String()
}

func fromURL(t *testing.T, e *testEnv, rawURL string) (int, []byte) {
	t.Helper()
	return e.call(t, "GET", "rest/workflows/from-url?url="+url.QueryEscape(rawURL), "")
}

func TestWorkflowFromURLEgress(t *testing.T) {
	good := `{"name":"Imported",` + twoNodes + `}`
	other, otherCalls := listen(t, "127.0.0.2", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(good)) })
	local, _ := listen(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away.json" {
			http.Redirect(w, r, other.URL+"/good.json", http.StatusFound)
			return
		}
		_, _ = w.Write([]byte(good))
	})
	port := local.Listener.Addr().(*net.TCPAddr).Port
	const loopbackRefused = "Could not load a workflow from that URL: The address %s is not allowed (built-in refusal of " +
		"loopback and private addresses for fetches any member can make; FLOWMILL_EGRESS_ALLOW can open it)."

	// By default this machine and its networks are out of reach, by address or by name.
	e := startServer(t, nil)
	for _, u := range []string{local.URL + "/good.json", fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/good.json", port)} {
		status, b := fromURL(t, e, u)
		requireError(t, status, b, 400, fmt.Sprintf(loopbackRefused, "127.0.0.1"))
	}
	status, b := fromURL(t, e, fmt.Sprintf("http://localhost:%d/good.json", port))
	requireError(t, status, b, 400, "is not allowed (built-in refusal of loopback and private addresses")
	status, b = fromURL(t, e, "http://[::1]:1/good.json")
	requireError(t, status, b, 400, fmt.Sprintf(loopbackRefused, "::1"))
	status, b = fromURL(t, e, "http://169.254.169.254/latest/workflow.json")
	requireError(t, status, b, 400, "Could not load a workflow from that URL: The address 169.254.169.254 is not allowed "+
		"(built-in refusal of link-local, cloud metadata and unspecified addresses; FLOWMILL_EGRESS_ALLOW can open it).")
	status, b = fromURL(t, e, other.URL+"/good.json")
	requireError(t, status, b, 400, fmt.Sprintf(loopbackRefused, "127.0.0.2"))

	// An allowed address opens that address only: a redirect from it is checked again.
	e = startServer(t, map[string]string{"FLOWMILL_EGRESS_ALLOW": "127.0.0.1/32"})
	status, b = fromURL(t, e, local.URL+"/good.json")
	require.Equal(t, 200, status, string(b))
	status, b = fromURL(t, e, local.URL+"/away.json")
	requireError(t, status, b, 400, fmt.Sprintf(loopbackRefused, "127.0.0.2"))
	require.Zero(t, otherCalls.Load())

	// Whatever stops an HTTP answer, the answer is the same: no port scanning through it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close())
	banner := tcpServer(t, func(c net.Conn) { _, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n")) })
	hangUp := tcpServer(t, func(net.Conn) {})
	garbage := tcpServer(t, func(c net.Conn) {
		buf := make([]byte, 1024)
		_, _ = c.Read(buf)
		_, _ = c.Write([]byte("\x00\x01\x02 not http at all\r\n\r\n"))
	})
	var first []byte
	for _, u := range []string{
		"http://" + closed + "/wf.json",
		"http://" + banner + "/wf.json",
		"http://" + hangUp + "/wf.json",
		"http://" + garbage + "/wf.json",
		"https://" + local.Listener.Addr().String() + "/good.json", // TLS to a plain HTTP server
		"https://" + banner + "/wf.json",
	} {
		status, b := fromURL(t, e, u)
		require.Equal(t, 400, status, "%s: %s", u, b)
		if first == nil {
			first = b
			require.JSONEq(t, `{"code":400,"message":"Could not load a workflow from that URL",`+
				`"hint":"Check the address: it must answer over HTTP(S) within 10s"}`, string(b))
			continue
		}
		require.Equal(t, string(first), string(b), u)
	}
}
