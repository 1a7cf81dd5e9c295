package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
)

// Token kinds stored in auth_tokens.
const (
	// TokenPasswordReset is a single-use password-reset link token.
	TokenPasswordReset = "password-reset"
)

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
