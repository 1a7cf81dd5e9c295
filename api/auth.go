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

// currentUser resolves who is calling from the session cookie. A cookie stops working when its
// session is signed out, its user is deleted or disabled or changes password; one that expires
// within auth.SessionRenewBelow is renewed on the way. The password-less default owner (before
// owner setup, or everyone while user management is off) is only served to local callers and to
// sessions opened with the setup token.
func (s *server) currentUser(c fiber.Ctx) (*store.User, error) {
	claims, cookieErr := s.sessionClaims(c)
	if s.cfg.UserManagementDisabled {
		if !s.isLocal(c) && (cookieErr != nil || !claims.Setup) {
			return nil, errUnauthorized
		}
		return s.in.Store.EnsureDefaultOwner(c.Context())
	}
	if cookieErr != nil {
		return nil, cookieErr
	}
	u, err := s.in.Store.SessionUser(c.Context(), claims.UserID, claims.SessionID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnauthorized
	}
	if err != nil {
		return nil, err
	}
	if u.Disabled || !claims.Matches(deref(u.Password)) {
		return nil, errUnauthorized
	}
	if isDefaultUser(u) && !claims.Setup && !s.isLocal(c) {
		return nil, errUnauthorized
	}
	if s.sessions.NeedsRenewal(claims) {
		if err := s.signIn(c, u, claims.Setup); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// sessionClaims reads the session cookie; errUnauthorized when there is none or it is not valid.
func (s *server) sessionClaims(c fiber.Ctx) (auth.Claims, error) {
	raw := c.Cookies(auth.CookieName)
	if raw == "" {
		return auth.Claims{}, errUnauthorized
	}
	claims, err := s.sessions.Parse(raw)
	if err != nil {
		return auth.Claims{}, errUnauthorized
	}
	return claims, nil
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

// signIn sets the cookie of a new session of u; setup marks a default-owner session opened
// with the setup token.
func (s *server) signIn(c fiber.Ctx, u *store.User, setup bool) error {
	tok, claims, err := s.sessions.Issue(u.ID, deref(u.Password), setup)
	if err != nil {
		return err
	}
	c.Cookie(&fiber.Cookie{
		Name: auth.CookieName, Value: tok, Path: s.cfg.BasePath, Expires: claims.ExpiresAt,
		MaxAge: int(auth.SessionTTL / time.Second), HTTPOnly: true, SameSite: fiber.CookieSameSiteLaxMode,
		Secure: s.secureCookies(c),
	})
	return nil
}

// signOut revokes the caller's session, if it has a valid one, and removes the cookie.
func (s *server) signOut(c fiber.Ctx) error {
	if claims, err := s.sessionClaims(c); err == nil {
		if err := s.in.Store.RevokeSession(c.Context(), claims.SessionID, claims.ExpiresAt); err != nil {
			return err
		}
	}
	s.clearCookie(c)
	return nil
}

// clearCookie removes the session cookie.
func (s *server) clearCookie(c fiber.Ctx) {
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
	return tooManyAttempts(c, wait)
}

// tooManyAttempts is the 429 answer, with Retry-After in whole seconds.
func tooManyAttempts(c fiber.Ctx, wait time.Duration) error {
	secs := max(int((wait+time.Second-1)/time.Second), 1)
	c.Set("Retry-After", strconv.Itoa(secs))
	return &apiError{Status: fiber.StatusTooManyRequests, Message: "Too many attempts. Try again in " + strconv.Itoa(secs) + " seconds."}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// accountLimits are the rate limits of sign-in and password reset. Sign-in is limited per
// account and IP address pair, never per account alone, so nobody can lock another person out
// from elsewhere.
type accountLimits struct {
	loginIP, loginPair, resetIP, resetAccount auth.Rule
	// loginBackoff spaces out failed sign-ins from one IP address.
	loginBackoff auth.Backoff
}

// defaultAccountLimits: sign-in 10 attempts per account from one IP address (cleared on
// success) and 50 per IP address per 15 minutes; after 5 failures from an IP address each
// further attempt from it waits 1 s, 2 s, 4 s … up to 5 minutes after the previous one, until it
// has not failed for 15 minutes; password reset 3 mails per account and 10 requests per IP
// address per hour.
var defaultAccountLimits = accountLimits{
	loginIP:      auth.Rule{Name: "login-ip", Limit: 50, Window: 15 * time.Minute},
	loginPair:    auth.Rule{Name: "login-pair", Limit: 10, Window: 15 * time.Minute},
	resetIP:      auth.Rule{Name: "reset-ip", Limit: 10, Window: time.Hour},
	resetAccount: auth.Rule{Name: "reset-account", Limit: 3, Window: time.Hour},
	loginBackoff: auth.Backoff{Name: "login-backoff", Free: 5, Base: time.Second, Max: 5 * time.Minute, Forget: 15 * time.Minute},
}

// loginPairKey names one account signing in from one IP address.
func loginPairKey(email, ip string) string { return email + "\x00" + ip }
