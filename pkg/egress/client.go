package egress

import (
	"cmp"
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Options adjust the transport of one caller; the zero value suits most fetches.
type Options struct {
	// Timeout bounds connecting, the TLS handshake and the wait for the response headers each;
	// 0 means 30s to connect, 10s for the handshake and no bound on the headers (bound the whole
	// request with its context or http.Client.Timeout).
	Timeout time.Duration
	// InsecureSkipVerify accepts any TLS certificate (the HTTP Request node's "Ignore SSL
	// Issues"). Default false.
	InsecureSkipVerify bool
	// Proxy sends every request through this proxy; nil connects directly. The proxy's own
	// address is checked when it is dialed, and the target's host before each request is handed
	// to the proxy (its name resolved here; the proxy resolves it again on its side).
	// Proxy environment variables (HTTP_PROXY, HTTPS_PROXY) are never used: the policy could
	// not see the addresses such a proxy connects to.
	Proxy *url.URL
}

// Transport is the round tripper of the policy's clients: an http.Transport whose dialer checks
// every address it connects to.
type Transport struct {
	*http.Transport
	policy *Policy
}

// Transport returns a new transport that applies the policy to every connection it opens.
func (p *Policy) Transport(o Options) *Transport {
	d := p.Dialer(cmp.Or(o.Timeout, 30*time.Second))
	tr := &http.Transport{
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   cmp.Or(o.Timeout, 10*time.Second),
		ResponseHeaderTimeout: o.Timeout,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       &tls.Config{InsecureSkipVerify: o.InsecureSkipVerify}, //nolint:gosec // only when the caller asks
	}
	if o.Proxy != nil {
		proxy := o.Proxy
		tr.Proxy = func(req *http.Request) (*url.URL, error) {
			if err := p.checkHost(req.Context(), req.URL.Hostname()); err != nil {
				return nil, err
			}
			return proxy, nil
		}
	}
	return &Transport{Transport: tr, policy: p}
}

// Client returns a new client whose connections the policy checks, redirects included. It
// has no overall timeout and follows up to 10 redirects, as http.Client does; callers set
// Timeout and CheckRedirect as they need.
func (p *Policy) Client(o Options) *http.Client {
	return &http.Client{Transport: p.Transport(o)}
}

// PolicyOf returns the policy the client applies, or nil when its transport is not one of
// this package's (it then applies none).
func PolicyOf(c *http.Client) *Policy {
	if t, ok := c.Transport.(*Transport); ok {
		return t.policy
	}
	return nil
}

// Dialer returns a dialer that checks each address after name resolution and before the
// connection is attempted: a refused address gets no packet, and the error wraps a
// *RefusedError. timeout bounds each dial; keep-alive is 30s. A nil policy applies only the
// built-in refusals.
func (p *Policy) Dialer(timeout time.Duration) *net.Dialer {
	if p == nil {
		p = builtInOnly
	}
	return &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second, ControlContext: p.control}
}

// control runs on the socket about to connect to address (an IP and port, as resolved).
func (p *Policy) control(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Addr: address, Reason: Unparsable}
	}
	return p.Check(ap.Addr())
}

// checkHost checks a request's host before it is handed to a proxy: an IP address as it is, a
// name by every address it resolves to here. A name that does not resolve here is left to
// the proxy (it may know names this machine does not).
func (p *Policy) checkHost(ctx context.Context, host string) error {
	if a, err := netip.ParseAddr(host); err == nil {
		return p.Check(a)
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if err := p.Check(a); err != nil {
			return err
		}
	}
	return nil
}

// DialContext connects as net.Dialer.DialContext does, checking each address the name resolves
// to before connecting (see Dialer; 30s per dial when ctx has no earlier deadline). For nodes
// that speak their own protocol over TCP (mail, file transfer). A nil policy applies only the
// built-in refusals.
func (p *Policy) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return p.Dialer(30*time.Second).DialContext(ctx, network, address)
}

// builtInOnly is the policy of no settings: the built-in refusals.
var builtInOnly = New(nil, nil)
