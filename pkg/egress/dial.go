package egress

import (
	"cmp"
	"context"
	"net"
	"net/http"
	"time"
)

// DialerFor returns the dialer for connections that are not HTTP (FTP, SSH, databases) made
// on behalf of the workflows client c serves: it applies c's policy to every address dialed,
// or the built-in refusals when c applies none. timeout bounds each dial; 0 means 30s.
func DialerFor(c *http.Client, timeout time.Duration) *net.Dialer {
	p := PolicyOf(c)
	if p == nil {
		p = New(nil, nil)
	}
	return p.Dialer(cmp.Or(timeout, 30*time.Second))
}

// Dial connects to address (host:port) over TCP through the dialer DialerFor returns; a refused
// address gets no packet and the error wraps a *RefusedError.
func Dial(ctx context.Context, c *http.Client, address string, timeout time.Duration) (net.Conn, error) {
	return DialerFor(c, timeout).DialContext(ctx, "tcp", address)
}
