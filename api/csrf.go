package main

import (
	"mime"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/config"
)

// errCrossSite refuses a state-changing /rest call that another site's page sent.
var errCrossSite = &apiError{Status: fiber.StatusForbidden, Message: "Cross-site request refused"}

// errNotJSON refuses a state-changing /rest call whose body is not declared as JSON: HTML forms
// and no-cors fetches can only send form, multipart and text/plain bodies.
var errNotJSON = &apiError{Status: fiber.StatusUnsupportedMediaType,
	Message: "Unsupported Content-Type: send the request body as application/json"}

// sameOrigin is the CSRF check of a route: for the calls of the editor's REST API (under /rest/,
// authenticated by the session cookie, or public such as sign-in) with any method but GET, HEAD
// and OPTIONS, it requires a JSON body and a same-origin caller. Other routes — the public API,
// whose API key a browser never sends by itself, and webhooks — pass unchecked.
func (s *server) sameOrigin(r route) fiber.Handler {
	safe := r.method == http.MethodGet || r.method == http.MethodHead || r.method == http.MethodOptions
	if safe || r.access == apiKey || !strings.HasPrefix(r.path, "/rest/") {
		return func(c fiber.Ctx) error { return c.Next() }
	}
	public, _ := config.Origin(s.cfg.PublicURL)
	return func(c fiber.Ctx) error {
		if err := checkSameOrigin(c, public, s.requestOrigin(c)); err != nil {
			return err
		}
		if err := checkJSONBody(c); err != nil {
			return err
		}
		return c.Next()
	}
}

// checkSameOrigin refuses a request a browser marks as coming from another origin: Sec-Fetch-Site
// other than same-origin or none (typed by the user), or an Origin that is neither the request's
// own origin nor the public URL's origin. Clients that send neither (scripts, curl) pass: they
// hold no victim's cookie.
func checkSameOrigin(c fiber.Ctx, public, own string) error {
	if site := strings.ToLower(c.Get("Sec-Fetch-Site")); site != "" && site != "same-origin" && site != "none" {
		return errCrossSite
	}
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" {
		return nil
	}
	got, err := config.Origin(origin)
	if err != nil { // "null" from sandboxed pages and file: URLs, or garbage
		return errCrossSite
	}
	if got == own || got == public {
		return nil
	}
	return errCrossSite
}

// requestOrigin is the origin the browser addressed: the request's scheme and host, or, from a
// trusted proxy (FLOWMILL_TRUSTED_PROXIES), the X-Forwarded-Proto and X-Forwarded-Host it passes
// on. "" when they do not form an origin.
func (s *server) requestOrigin(c fiber.Ctx) string {
	scheme, host := c.Scheme(), c.Host()
	if s.trustedProxy(peerAddr(c)) {
		if p := c.Get("X-Forwarded-Proto"); p != "" {
			scheme, _, _ = strings.Cut(p, ",")
		}
		if h := c.Get("X-Forwarded-Host"); h != "" {
			host, _, _ = strings.Cut(h, ",")
		}
	}
	own, err := config.Origin(strings.TrimSpace(scheme) + "://" + strings.TrimSpace(host))
	if err != nil {
		return ""
	}
	return own
}

// checkJSONBody requires a declared JSON body: a Content-Type must be application/json (with
// parameters such as charset), and a non-empty body must have one.
func checkJSONBody(c fiber.Ctx) error {
	ct := c.Get(fiber.HeaderContentType)
	if ct == "" {
		if len(c.Request().Body()) > 0 {
			return errNotJSON
		}
		return nil
	}
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != fiber.MIMEApplicationJSON {
		return errNotJSON
	}
	return nil
}
