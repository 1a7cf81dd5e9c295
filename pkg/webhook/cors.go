package webhook

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/flowmill/flowmill/pkg/trigger"
)

// msgIPRefused is n8n's answer to a caller missing from the node's IP whitelist.
const msgIPRefused = "IP is not whitelisted to access the webhook!"

// ipAllowed reports whether a caller (host or host:port) passes a comma-separated whitelist.
// As in n8n an entry matches an address containing it ("10.0.0." admits that range); an entry
// with a slash is a CIDR range. An empty whitelist admits everyone.
func ipAllowed(whitelist, remote string) bool {
	if strings.TrimSpace(whitelist) == "" {
		return true
	}
	ip := remote
	if host, _, err := net.SplitHostPort(remote); err == nil {
		ip = host
	}
	addr, addrErr := netip.ParseAddr(ip)
	for entry := range strings.SplitSeq(whitelist, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		if strings.Contains(entry, "/") {
			if p, err := netip.ParsePrefix(entry); err == nil && addrErr == nil && p.Contains(addr.Unmap()) {
				return true
			}
			continue
		}
		if ip != "" && strings.Contains(ip, entry) {
			return true
		}
	}
	return false
}

// allowOrigin is the Access-Control-Allow-Origin of a call from origin to a webhook allowing
// allowed (the node's allowedOrigins): "" leaves the default (any origin); an origin on the
// list is echoed, any other gets the list's first entry, which the browser then refuses.
func allowOrigin(allowed, origin string) string {
	allowed = strings.TrimSpace(allowed)
	if allowed == "" || allowed == "*" {
		return ""
	}
	var list []string
	for o := range strings.SplitSeq(allowed, ",") {
		if o = strings.TrimSpace(o); o != "" {
			list = append(list, o)
		}
	}
	if len(list) == 0 {
		return ""
	}
	for _, o := range list {
		if o == origin {
			return origin
		}
	}
	return list[0]
}

// withCORS sets the answer's Access-Control-Allow-Origin from the webhook's allowed origins,
// unless the workflow set that header itself (a preflight's, which no workflow answers, is
// replaced).
func withCORS(a Answer, hook *trigger.Webhook, r *http.Request) Answer {
	preflight := r.Method == http.MethodOptions
	if hook == nil {
		return a
	}
	v := allowOrigin(hook.AllowedOrigins, r.Header.Get("Origin"))
	if v == "" {
		return a
	}
	headers := make(map[string]string, len(a.Headers)+1)
	for k, val := range a.Headers {
		if strings.EqualFold(k, "Access-Control-Allow-Origin") {
			if !preflight {
				return a
			}
			continue
		}
		headers[k] = val
	}
	headers["Access-Control-Allow-Origin"] = v
	if v != "*" {
		headers["Vary"] = "Origin"
	}
	a.Headers = headers
	return a
}

// preflightHook is the webhook a preflight asks about (its Access-Control-Request-Method),
// for its allowed origins; nil when there is none or it cannot be told.
func (rt *Runtime) preflightHook(ctx context.Context, kind Kind, r *http.Request, path string) *trigger.Webhook {
	method := strings.ToUpper(r.Header.Get("Access-Control-Request-Method"))
	if method == "" {
		return nil
	}
	switch kind {
	case Production:
		if h, err := rt.production.find(ctx, method, path); err == nil {
			return &h.hook
		}
	case Test:
		return rt.tests.peek(ctx, method, path)
	}
	return nil
}
