package main

import (
	"net/netip"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// forwardingHeaders are the headers a reverse proxy adds to say whom it forwards for.
var forwardingHeaders = []string{"X-Forwarded-For", "X-Real-Ip", "Forwarded"}

// peerAddr is the address of the connection's other end.
func peerAddr(c fiber.Ctx) netip.Addr {
	a, _ := netip.AddrFromSlice(c.RequestCtx().RemoteIP())
	return a.Unmap()
}

// trustedProxy reports whether a is one of FLOWMILL_TRUSTED_PROXIES.
func (s *server) trustedProxy(a netip.Addr) bool {
	return slices.ContainsFunc(s.cfg.TrustedProxyNets, func(p netip.Prefix) bool { return p.Contains(a) })
}

// clientAddr is the caller's IP address: the connection's peer, unless the peer is a trusted
// proxy; then the right-most address of X-Forwarded-For that is not a trusted proxy (the
// left-most ones are whatever the client wrote), or the left-most when every hop is trusted.
func (s *server) clientAddr(c fiber.Ctx) netip.Addr {
	peer := peerAddr(c)
	if !s.trustedProxy(peer) {
		return peer
	}
	var hops []netip.Addr
	for _, h := range c.Request().Header.PeekAll("X-Forwarded-For") {
		for _, f := range strings.Split(string(h), ",") {
			a, err := netip.ParseAddr(strings.TrimSpace(f))
			if err != nil {
				return peer // a hop that is not an address: believe nothing of the header
			}
			hops = append(hops, a.Unmap())
		}
	}
	for i := len(hops) - 1; i >= 0; i-- {
		if !s.trustedProxy(hops[i]) || i == 0 {
			return hops[i]
		}
	}
	return peer
}

// clientIP is clientAddr as text, for rate limits and logs.
func (s *server) clientIP(c fiber.Ctx) string { return s.clientAddr(c).String() }

// isLocal reports whether the caller is on this machine: its address is a loopback address and
// the request did not come through a proxy, or came through a trusted proxy that says so. A
// proxy on this machine that is not trusted makes every caller look local by address, so a
// forwarded request from an untrusted peer never counts as local.
func (s *server) isLocal(c fiber.Ctx) bool {
	if !s.clientAddr(c).IsLoopback() {
		return false
	}
	if s.trustedProxy(peerAddr(c)) {
		return true
	}
	for _, h := range forwardingHeaders {
		if len(c.Request().Header.Peek(h)) > 0 {
			return false
		}
	}
	return true
}
