// Package auth holds the account rules shared by the api: password hashing and policy, name and
// e-mail validation, the session cookie (a signed JWT), single-use tokens, API keys and the
// Redis-backed rate limiter.
package auth

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"
)

// Password and name limits, as the editor's forms enforce them.
const (
	PasswordMinLength = 8
	PasswordMaxLength = 64
	NameMaxLength     = 32
	// EmailMaxLength is the users.email column's size.
	EmailMaxLength = 254
	// bcryptCost matches n8n's genSaltSync(10), so hashes migrated from n8n verify unchanged.
	bcryptCost = 10
)

// ErrPolicy marks a value that breaks an account rule; its message says which.
var ErrPolicy = errors.New("invalid account value")

// PolicyError is a rule violation with the text the user should see.
type PolicyError struct{ Message string }

func (e *PolicyError) Error() string { return e.Message }
func (e *PolicyError) Unwrap() error { return ErrPolicy }

func policy(format string, args ...any) error {
	return &PolicyError{Message: fmt.Sprintf(format, args...)}
}

// ValidatePassword checks the default rules: 8–64 characters, at least one digit and one capital
// letter. The message lists every rule broken, in n8n's words.
func ValidatePassword(p string) error {
	if p == "" {
		return policy("Password is mandatory")
	}
	var msgs []string
	if n := utf8.RuneCountInString(p); n < PasswordMinLength || n > PasswordMaxLength {
		msgs = append(msgs, fmt.Sprintf("Password must be %d to %d characters long.", PasswordMinLength, PasswordMaxLength))
	}
	if !strings.ContainsFunc(p, unicode.IsDigit) {
		msgs = append(msgs, "Password must contain at least 1 number.")
	}
	if !strings.ContainsFunc(p, unicode.IsUpper) {
		msgs = append(msgs, "Password must contain at least 1 uppercase letter.")
	}
	if len(msgs) > 0 {
		return policy("%s", strings.Join(msgs, " "))
	}
	return nil
}

// HashPassword returns the bcrypt hash of a password that passed ValidatePassword.
func HashPassword(p string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(p), bcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// dummyHash is compared against when there is no user, so a wrong e-mail costs as much time as a
// wrong password and the answer time does not tell which accounts exist.
var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("no such user, no such password"), bcryptCost)

// CheckPassword reports whether p matches hash; an empty hash (no account, or no password yet)
// never matches but takes as long as a real comparison.
func CheckPassword(hash, p string) bool {
	if hash == "" {
		_ = bcrypt.CompareHashAndPassword(dummyHash, []byte(p))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(p)) == nil
}

// ValidateName checks a first or last name: 1–32 characters after trimming. field is the JSON
// name used in the message.
func ValidateName(field, v string) (string, error) {
	v = strings.TrimSpace(v)
	if n := utf8.RuneCountInString(v); n < 1 || n > NameMaxLength {
		return "", policy("%s must be 1 to %d characters long.", field, NameMaxLength)
	}
	return v, nil
}

// NormalizeEmail trims and lower-cases an address and checks that it is a plain address
// (local@domain, no display name), as accounts store it.
func NormalizeEmail(v string) (string, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	if !IsEmail(v) {
		return "", policy("Invalid email address")
	}
	return v, nil
}

// IsEmail reports whether v is a bare e-mail address with a dotted domain.
func IsEmail(v string) bool {
	if v == "" || len(v) > EmailMaxLength || strings.ContainsAny(v, " <>\"") {
		return false
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || a.Name != "" {
		return false
	}
	local, domain, ok := strings.Cut(v, "@")
	return ok && local != "" && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") &&
		!strings.HasSuffix(domain, ".") && !strings.Contains(domain, "..")
}
