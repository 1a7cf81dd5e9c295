package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Session cookie settings.
const (
	// CookieName is the session cookie's name.
	CookieName = "flowmill-auth"
	// SessionTTL is how long a session cookie is valid.
	SessionTTL = 7 * 24 * time.Hour
	// SessionRenewBelow is the remaining validity under which a request gets a fresh cookie.
	SessionRenewBelow = 3 * 24 * time.Hour
)

// ErrBadSession means a session token is missing, malformed, forged, expired, or no longer
// matches its user.
var ErrBadSession = errors.New("invalid session")

// Sessions issues and checks session tokens: HS256 JWTs signed with a key derived from the
// encryption key, so every api replica accepts every other replica's cookies.
type Sessions struct {
	key []byte
	now func() time.Time
}

// NewSessions derives the signing key from the instance's encryption key. now is the clock
// (time.Now when nil).
func NewSessions(encryptionKey string, now func() time.Time) *Sessions {
	if now == nil {
		now = time.Now
	}
	mac := hmac.New(sha256.New, []byte(encryptionKey))
	mac.Write([]byte("flowmill session cookie v1"))
	return &Sessions{key: mac.Sum(nil), now: now}
}

// Claims are what a session token says.
type Claims struct {
	UserID string
	// SessionID names the session: signing out revokes it by this id (see store.RevokeSession).
	SessionID string
	// Password is the fingerprint of the user's password hash when the token was issued.
	Password string
	// Setup marks a default-owner session opened with the instance's setup token, which may be
	// used from any address; other default-owner sessions only work for local callers.
	Setup     bool
	ExpiresAt time.Time
}

type tokenClaims struct {
	Password string `json:"pwd,omitempty"`
	Setup    bool   `json:"stp,omitempty"`
	jwt.RegisteredClaims
}

// Issue returns a token for a new session of userID whose password hash is passwordHash (""
// for the password-less default owner), and when it expires. setup marks a session opened with
// the setup token. Every token gets a fresh random session id.
func (s *Sessions) Issue(userID, passwordHash string, setup bool) (string, Claims, error) {
	now := s.now()
	exp := now.Add(SessionTTL).Truncate(time.Second)
	sid := randomID()
	tc := tokenClaims{Password: PasswordFingerprint(passwordHash), Setup: setup, RegisteredClaims: jwt.RegisteredClaims{
		ID: sid, Subject: userID, IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp),
	}}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, tc).SignedString(s.key)
	if err != nil {
		return "", Claims{}, fmt.Errorf("sign session: %w", err)
	}
	return tok, Claims{UserID: userID, SessionID: sid, Password: tc.Password, Setup: setup, ExpiresAt: exp}, nil
}

// Parse checks a token's signature and expiry and returns its claims.
func (s *Sessions) Parse(token string) (Claims, error) {
	var tc tokenClaims
	_, err := jwt.ParseWithClaims(token, &tc, func(*jwt.Token) (any, error) { return s.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(s.now),
		jwt.WithExpirationRequired())
	if err != nil || tc.Subject == "" || tc.ID == "" {
		return Claims{}, ErrBadSession
	}
	return Claims{UserID: tc.Subject, SessionID: tc.ID, Password: tc.Password, Setup: tc.Setup, ExpiresAt: tc.ExpiresAt.Time}, nil
}

// Matches reports whether the token was issued for the password the user has now: a password
// change signs out every other session.
func (c Claims) Matches(passwordHash string) bool {
	return subtle.ConstantTimeCompare([]byte(c.Password), []byte(PasswordFingerprint(passwordHash))) == 1
}

// NeedsRenewal reports whether the token expires within SessionRenewBelow.
func (s *Sessions) NeedsRenewal(c Claims) bool { return c.ExpiresAt.Sub(s.now()) < SessionRenewBelow }

// PasswordFingerprint identifies a password hash without revealing it: the token carries it so a
// changed password invalidates older tokens. Empty for no password.
func PasswordFingerprint(passwordHash string) string {
	if passwordHash == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("flowmill password fingerprint:" + passwordHash))
	return hex.EncodeToString(sum[:16])
}
