package egress_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
)

// errWouldLeave stops a dial the policy let through to an address off this machine: tests never
// send a packet anywhere but loopback.
var errWouldLeave = errors.New("test guard: the policy allowed a connection off this machine")

func TestDialerRefusesBeforeConnecting(t *testing.T) {
	t.Parallel()
	d := egress.New(nil, nil).Dialer(0)
	check := d.ControlContext
	d.ControlContext = func(ctx context.Context, network, address string, c syscall.RawConn) error {
		if err := check(ctx, network, address, c); err != nil {
			return err
		}
		if !netip.MustParseAddrPort(address).Addr().IsLoopback() {
			return errWouldLeave
		}
		return nil
	}
	for _, addr := range []string{"169.254.169.254:80", "[fd00:ec2::254]:80", "[::ffff:169.254.169.254]:80", "0.0.0.0:80"} {
		_, err := d.DialContext(context.Background(), "tcp", addr)
		re, ok := egress.Refusal(err)
		require.True(t, ok, "%s: %v", addr, err)
		require.Equal(t, egress.BuiltIn, re.Reason, addr)
	}
}

// server answers "hello from <name>" and counts its requests.
func server(t *testing.T, ip, name string, handler http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	ln, err := net.Listen("tcp", ip+":0")
	require.NoError(t, err)
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if handler != nil {
			handler(w, r)
			return
		}
		_, _ = fmt.Fprint(w, "hello from "+name)
	})}}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &calls
}

func get(c *http.Client, rawURL string) (string, error) {
	res, err := c.Get(rawURL)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

func TestClient(t *testing.T) {
	t.Parallel()
	local, _ := server(t, "127.0.0.1", "local", nil)
	other, otherCalls := server(t, "127.0.0.2", "other", nil)
	redirect, _ := server(t, "127.0.0.1", "redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/", http.StatusFound)
	})
	port := local.Listener.Addr().(*net.TCPAddr).Port

	// Workflows may reach this machine and its networks by default.
	body, err := get(egress.New(nil, nil).Client(egress.Options{}), local.URL)
	require.NoError(t, err)
	require.Equal(t, "hello from local", body)

	// Fetches any member can make may not, neither by address nor by a name resolving to one.
	strict := egress.New(nil, nil).Strict()
	for _, u := range []string{local.URL, fmt.Sprintf("http://localhost:%d/", port), fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", port)} {
		_, err = get(strict.Client(egress.Options{}), u)
		re, ok := egress.Refusal(err)
		require.True(t, ok, "%s: %v", u, err)
		require.Equal(t, egress.Internal, re.Reason)
	}

	// An allowed address opens that address only: a redirect elsewhere is checked on its own.
	opened := egress.New(networks(t, "127.0.0.1/32"), nil).Strict()
	body, err = get(opened.Client(egress.Options{}), local.URL)
	require.NoError(t, err)
	require.Equal(t, "hello from local", body)
	_, err = get(opened.Client(egress.Options{}), redirect.URL)
	re, ok := egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "127.0.0.2", re.Addr)
	require.Zero(t, otherCalls.Load())

	// A deny list covers loopback too.
	_, err = get(egress.New(nil, networks(t, "127.0.0.0/8")).Client(egress.Options{}), local.URL)
	re, ok = egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, egress.Denied, re.Reason)

	// The client is recognised as applying its policy.
	require.Same(t, strict, egress.PolicyOf(strict.Client(egress.Options{})))
	require.Nil(t, egress.PolicyOf(http.DefaultClient))
}

func TestProxy(t *testing.T) {
	t.Parallel()
	proxy, proxied := server(t, "127.0.0.1", "proxy", func(w http.ResponseWriter, r *http.Request) {
		_, _ = fmt.Fprint(w, "proxied "+r.URL.String())
	})
	proxyURL, err := url.Parse(proxy.URL)
	require.NoError(t, err)
	c := egress.New(nil, nil).Client(egress.Options{Proxy: proxyURL})

	// The target is checked before the request goes to the proxy.
	_, err = get(c, "http://169.254.169.254/latest/meta-data/")
	re, ok := egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, egress.BuiltIn, re.Reason)
	require.Zero(t, proxied.Load())

	// An allowed target goes through the proxy (which answers itself: nothing leaves).
	body, err := get(c, "http://192.0.2.10/x")
	require.NoError(t, err)
	require.Equal(t, "proxied http://192.0.2.10/x", body)
	require.EqualValues(t, 1, proxied.Load())

	// The proxy's own address is checked when it is dialed.
	strict := egress.New(nil, nil).Strict().Client(egress.Options{Proxy: proxyURL})
	_, err = get(strict, "http://192.0.2.10/x")
	re, ok = egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, "127.0.0.1", re.Addr)
	require.EqualValues(t, 1, proxied.Load())
}

// Proxy environment variables are not a way round the policy: they are not used at all.
func TestEnvironmentProxyIgnored(t *testing.T) {
	proxy, proxied := server(t, "127.0.0.1", "proxy", nil)
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("http_proxy", proxy.URL)
	_, err := get(egress.New(nil, nil).Client(egress.Options{}), "http://169.254.169.254/")
	_, ok := egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Zero(t, proxied.Load())
}

// Connections other than HTTP get the same checks through DialerFor and Dial.
func TestDialAppliesThePolicy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	allowed := egress.New(nil, nil).Client(egress.Options{})
	c, err := egress.Dial(context.Background(), allowed, ln.Addr().String(), time.Second)
	require.NoError(t, err)
	c.Close()

	denied := egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}).Client(egress.Options{})
	_, err = egress.Dial(context.Background(), denied, ln.Addr().String(), time.Second)
	re, ok := egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, egress.Denied, re.Reason)

	// A client without the policy still gets the built-in refusals.
	_, err = egress.DialerFor(http.DefaultClient, 0).DialContext(context.Background(), "tcp", "169.254.169.254:80")
	re, ok = egress.Refusal(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, egress.BuiltIn, re.Reason)
}
