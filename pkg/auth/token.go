package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// Token kinds stored in auth_tokens.
const (
	// TokenPasswordReset is a single-use password-reset link token.
	TokenPasswordReset = "password-reset"
	// TokenInvitation is the single-use secret of an invitation link.
	TokenInvitation = "invitation"
)

// randomID returns 16 random bytes, URL-safe: session ids.
func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// NewToken returns a random URL-safe secret (32 bytes) and the hash to store: only the hash is
// kept, so a database leak does not reveal usable links.
func NewToken() (raw, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	raw = base64.RawURLEncoding.EncodeToString(b)
	return raw, HashToken(raw)
}

// HashToken is the stored form of a token or API key (SHA-256, hex). The secrets are random and
// long, so an unsalted fast hash is enough and lets the database find a row by it.
func HashToken(raw string) string {
	sum := sha256.Sum256([]byte(raw))
	return hex.EncodeToString(sum[:])
}

// APIKeyPrefix starts every public API key, so a leaked key is recognisable in scans.
const APIKeyPrefix = "flowmill_api_"

// NewAPIKey returns a new public API key, its stored hash and the hint shown in place of the key
// after creation (its prefix and last four characters).
func NewAPIKey() (key, hash, hint string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	key = APIKeyPrefix + hex.EncodeToString(b)
	return key, HashToken(key), APIKeyHint(key)
}

// APIKeyHint is what is shown of a key after creation: "flowmill_…" and its last four
// characters (it fits the 16-character key_hint column).
func APIKeyHint(key string) string {
	if len(key) <= len(APIKeyPrefix)+4 {
		return "flowmill_…"
	}
	return "flowmill_…" + key[len(key)-4:]
}

// SetupToken is the instance's owner-setup token: until an owner account is set up (and while
// user management is off) it opens a default-owner session from any address. It is derived
// from the encryption key, so every api replica knows the same token and nothing is stored;
// the key cannot be recovered from it.
func SetupToken(encryptionKey string) string {
	mac := hmac.New(sha256.New, []byte(encryptionKey))
	mac.Write([]byte("flowmill owner setup token v1"))
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// SetupTokenMatches compares a presented setup token in constant time.
func SetupTokenMatches(encryptionKey, presented string) bool {
	return presented != "" && hmac.Equal([]byte(SetupToken(encryptionKey)), []byte(presented))
}
