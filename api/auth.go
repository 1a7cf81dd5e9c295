package main

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	"github.com/flowmill/flowmill/pkg/store"
)

const localsUser = "user"

var errUnauthorized = unauthorized("Unauthorized")

// currentUser resolves who is calling from the session cookie. With user management off every
// caller is the default owner. A cookie stops working when its user is deleted or disabled or
// changes password; one that expires within auth.SessionRenewBelow is renewed on the way.
func (s *server) currentUser(c fiber.Ctx) (*store.User, error) {
	if s.cfg.UserManagementDisabled {
		return s.in.Store.EnsureDefaultOwner(c.Context())
	}
	raw := c.Cookies(auth.CookieName)
	if raw == "" {
		return nil, errUnauthorized
	}
	claims, err := s.sessions.Parse(raw)
	if err != nil {
		return nil, errUnauthorized
	}
	u, err := s.in.Store.GetUser(c.Context(), claims.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnauthorized
	}
	if err != nil {
		return nil, err
	}
	if u.Disabled || !claims.Matches(deref(u.Password)) {
		return nil, errUnauthorized
	}
	if s.sessions.NeedsRenewal(claims) {
		if err := s.signIn(c, u); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// guard enforces a route's access level before its handler runs: not signed in is 401, signed
// in without the role is 403 (deny rules are checked before the route is allowed).
func (s *server) guard(a access) fiber.Handler {
	return func(c fiber.Ctx) error {
		switch a {
		case public:
			return c.Next()
		case apiKey:
			return s.publicAPIGuard(c)
		}
		u, err := s.currentUser(c)
		if err != nil {
			return err
		}
		if !allowed(a, u) {
			return &apiError{Status: fiber.StatusForbidden, Message: "Forbidden"}
		}
		c.Locals(localsUser, u)
		return c.Next()
	}
}

// allowed is the role rule of an access level for a signed-in user: deny first, then allow.
func allowed(a access, u *store.User) bool {
	switch {
	case a == ownerOnly && u.GlobalRole != store.RoleOwner:
		return false
	case a == accountOnly && isDefaultUser(u):
		return false
	}
	return a == signedIn || a == ownerOnly || a == accountOnly
}

// isDefaultUser tells the password-less owner that stands in until owner setup.
func isDefaultUser(u *store.User) bool { return u.GlobalRole == store.RoleOwner && u.IsPending() }

// sessionUser is the caller of a signedIn or ownerOnly route, as guard found them.
func sessionUser(c fiber.Ctx) *store.User { return c.Locals(localsUser).(*store.User) }

// signIn sets a fresh session cookie for u.
func (s *server) signIn(c fiber.Ctx, u *store.User) error {
	tok, exp, err := s.sessions.Issue(u.ID, deref(u.Password))
	if err != nil {
		return err
	}
	c.Cookie(&fiber.Cookie{
		Name: auth.CookieName, Value: tok, Path: s.cfg.BasePath, Expires: exp,
		MaxAge: int(auth.SessionTTL / time.Second), HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
		Secure: s.secureCookies(c),
	})
	return nil
}

// signOut removes the session cookie.
func (s *server) signOut(c fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: auth.CookieName, Value: "", Path: s.cfg.BasePath, Expires: time.Unix(0, 0), MaxAge: -1,
		HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode, Secure: s.secureCookies(c),
	})
}

// secureCookies tells whether the browser reaches us over https: the public URL says so, or the
// proxy in front does. (The header can only add the Secure flag, never remove it.)
func (s *server) secureCookies(c fiber.Ctx) bool {
	return strings.HasPrefix(s.cfg.PublicURL, "https://") || strings.EqualFold(c.Get("X-Forwarded-Proto"), "https")
}

// limit counts one attempt under rule for subject and refuses it with 429 and Retry-After when
// the limit is reached.
func (s *server) limit(c fiber.Ctx, rule auth.Rule, subject string) error {
	ok, wait, err := s.limiter.Allow(c.Context(), rule, subject)
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	secs := int((wait + time.Second - 1) / time.Second)
	c.Set("Retry-After", strconv.Itoa(max(secs, 1)))
	return &apiError{Status: fiber.StatusTooManyRequests, Message: "Too many attempts. Try again in " + strconv.Itoa(max(secs, 1)) + " seconds."}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// accountLimits are the rate limits of sign-in and password reset.
type accountLimits struct {
	loginIP, loginAccount, resetIP, resetAccount auth.Rule
}

// defaultAccountLimits: sign-in 10 attempts per account (cleared on success) and 50 per IP
// address per 15 minutes; password reset 3 mails per account and 10 requests per IP address
// per hour.
var defaultAccountLimits = accountLimits{
	loginIP:      auth.Rule{Name: "login-ip", Limit: 50, Window: 15 * time.Minute},
	loginAccount: auth.Rule{Name: "login-account", Limit: 10, Window: 15 * time.Minute},
	resetIP:      auth.Rule{Name: "reset-ip", Limit: 10, Window: time.Hour},
	resetAccount: auth.Rule{Name: "reset-account", Limit: 3, Window: time.Hour},
}
