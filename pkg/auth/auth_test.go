package auth

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

func TestPasswordPolicy(t *testing.T) {
	for _, tc := range []struct{ pw, msg string }{
		{"", "Password is mandatory"},
		{"Sh0rt", "Password must be 8 to 64 characters long."},
		{"alllowercase1", "Password must contain at least 1 uppercase letter."},
		{"NoDigitsHere", "Password must contain at least 1 number."},
		{strings.Repeat("Aa1", 22), "Password must be 8 to 64 characters long."},
		{"short", "Password must be 8 to 64 characters long. Password must contain at least 1 number. Password must contain at least 1 uppercase letter."},
	} {
		err := ValidatePassword(tc.pw)
		require.ErrorIs(t, err, ErrPolicy, tc.pw)
		require.EqualError(t, err, tc.msg)
	}
	require.NoError(t, ValidatePassword("Passw0rd"))
	require.NoError(t, ValidatePassword(strings.Repeat("Aa1", 21)+"x"), "64 characters")

	h, err := HashPassword("Passw0rd")
	require.NoError(t, err)
	require.True(t, CheckPassword(h, "Passw0rd"))
	require.False(t, CheckPassword(h, "passw0rd"))
	require.False(t, CheckPassword("", "anything"))
}

func TestNamesAndEmails(t *testing.T) {
	v, err := ValidateName("firstName", "  Ann ")
	require.NoError(t, err)
	require.Equal(t, "Ann", v)
	_, err = ValidateName("firstName", strings.Repeat("é", 33))
	require.EqualError(t, err, "firstName must be 1 to 32 characters long.")
	_, err = ValidateName("lastName", "  ")
	require.EqualError(t, err, "lastName must be 1 to 32 characters long.")

	e, err := NormalizeEmail(" Ann.Lee@Example.COM ")
	require.NoError(t, err)
	require.Equal(t, "ann.lee@example.com", e)
	for _, bad := range []string{"", "ann", "ann@", "@example.com", "ann@example", "Ann <ann@example.com>", "a b@example.com", "ann@example..com", "ann@.example.com"} {
		_, err := NormalizeEmail(bad)
		require.Error(t, err, bad)
	}
}

func TestSessionTokens(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := NewSessions("encryption-key-0123456789", clock)
	tok, issued, err := s.Issue("user-1", "$2a$10$hash", false)
	require.NoError(t, err)
	require.Equal(t, now.Add(SessionTTL), issued.ExpiresAt)
	c, err := s.Parse(tok)
	require.NoError(t, err)
	require.True(t, issued.ExpiresAt.Equal(c.ExpiresAt))
	require.Equal(t, issued.SessionID, c.SessionID)
	require.Equal(t, "user-1", c.UserID)
	require.Len(t, c.SessionID, 22, "a random 16-byte session id")
	require.False(t, c.Setup)
	again, _, err := s.Issue("user-1", "$2a$10$hash", false)
	require.NoError(t, err)
	c2, err := s.Parse(again)
	require.NoError(t, err)
	require.NotEqual(t, c.SessionID, c2.SessionID, "every sign-in is a session of its own")
	require.True(t, c.Matches("$2a$10$hash"))
	require.False(t, c.Matches("$2a$10$other"), "a changed password invalidates the token")
	require.False(t, c.Matches(""))
	require.NotContains(t, tok, "hash", "the token carries a fingerprint, not the hash")
	require.False(t, s.NeedsRenewal(c))

	now = now.Add(4*24*time.Hour + time.Minute)
	require.True(t, s.NeedsRenewal(c), "under 3 days left")
	now = now.Add(3 * 24 * time.Hour)
	_, err = s.Parse(tok)
	require.ErrorIs(t, err, ErrBadSession, "expired")

	now = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	other := NewSessions("another-key-0123456789", clock)
	_, err = other.Parse(tok)
	require.ErrorIs(t, err, ErrBadSession, "signed with another key")
	_, err = s.Parse(tok[:len(tok)-3] + "abc")
	require.ErrorIs(t, err, ErrBadSession, "tampered")
	_, err = s.Parse("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLTEifQ.")
	require.ErrorIs(t, err, ErrBadSession, "alg none")

	def, _, err := s.Issue("default", "", true)
	require.NoError(t, err)
	c, err = s.Parse(def)
	require.NoError(t, err)
	require.True(t, c.Matches(""), "the default owner has no password")
	require.True(t, c.Setup, "opened with the setup token")

	// A token without a session id (as issued before sessions had one) is refused.
	legacy, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{Subject: "user-1",
		ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour))}).SignedString(s.key)
	require.NoError(t, err)
	_, err = s.Parse(legacy)
	require.ErrorIs(t, err, ErrBadSession)
}

func TestSetupToken(t *testing.T) {
	tok := SetupToken("encryption-key-0123456789")
	require.Len(t, tok, 32)
	require.Equal(t, tok, SetupToken("encryption-key-0123456789"), "every replica derives the same token")
	require.NotEqual(t, tok, SetupToken("another-key-0123456789"))
	require.NotContains(t, tok, "encryption")
	require.True(t, SetupTokenMatches("encryption-key-0123456789", tok))
	require.False(t, SetupTokenMatches("encryption-key-0123456789", ""))
	require.False(t, SetupTokenMatches("encryption-key-0123456789", tok[:31]))
}

func TestBackoffGrowsAndForgets(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	l := NewLimiter(rdb)
	ctx := context.Background()
	b := Backoff{Name: "test-backoff", Free: 1, Base: time.Second, Max: 3 * time.Second, Forget: time.Minute}
	now := time.Now()
	attempt := func() time.Duration {
		ok, wait, err := l.Attempt(ctx, b, "203.0.113.1", now)
		require.NoError(t, err)
		require.Equal(t, ok, wait == 0)
		return wait
	}
	require.Zero(t, attempt())
	require.NoError(t, l.Fail(ctx, b, "203.0.113.1"))
	require.Zero(t, attempt(), "the free failure")
	require.Equal(t, time.Second, attempt(), "one failure past the free ones: 1 s")
	require.NoError(t, l.Fail(ctx, b, "203.0.113.1"))
	now = now.Add(time.Second)
	require.Zero(t, attempt())
	require.Equal(t, 2*time.Second, attempt())
	require.NoError(t, l.Fail(ctx, b, "203.0.113.1"))
	require.NoError(t, l.Fail(ctx, b, "203.0.113.1"))
	now = now.Add(2 * time.Second)
	require.Zero(t, attempt())
	require.Equal(t, 3*time.Second, attempt(), "capped at Max")
	ok, _, err := l.Attempt(ctx, b, "198.51.100.1", now)
	require.NoError(t, err)
	require.True(t, ok, "other addresses are not held up")
	ttl, err := rdb.PTTL(ctx, l.key(Rule{Name: b.Name}, "203.0.113.1")).Result()
	require.NoError(t, err)
	require.InDelta(t, time.Minute.Seconds(), ttl.Seconds(), 5, "failures are forgotten a minute after the last")
}

func TestTokensAndKeys(t *testing.T) {
	raw, hash := NewToken()
	require.Len(t, raw, 43)
	require.Equal(t, hash, HashToken(raw))
	raw2, _ := NewToken()
	require.NotEqual(t, raw, raw2)
	key, keyHash, hint := NewAPIKey()
	require.True(t, strings.HasPrefix(key, APIKeyPrefix))
	require.Equal(t, keyHash, HashToken(key))
	require.Equal(t, "flowmill_…"+key[len(key)-4:], hint)
	require.LessOrEqual(t, len([]rune(hint)), 16, "fits the key_hint column")
}

func TestLimiterCountsInRedis(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	l := NewLimiter(rdb)
	ctx := context.Background()
	r := Rule{Name: "test", Limit: 2, Window: time.Minute}
	for range 2 {
		ok, _, err := l.Allow(ctx, r, "ann@example.com")
		require.NoError(t, err)
		require.True(t, ok)
	}
	ok, wait, err := l.Allow(ctx, r, "ann@example.com")
	require.NoError(t, err)
	require.False(t, ok)
	require.Greater(t, wait, 50*time.Second)
	require.LessOrEqual(t, wait, time.Minute)
	ok, _, _ = l.Allow(ctx, r, "bob@example.com")
	require.True(t, ok, "subjects count separately")
	keys, err := rdb.Keys(ctx, "flowmill:ratelimit:*").Result()
	require.NoError(t, err)
	for _, k := range keys {
		require.NotContains(t, k, "example.com", "subjects are hashed in keys")
	}
	require.NoError(t, l.Reset(ctx, r, "ann@example.com"))
	ok, _, _ = l.Allow(ctx, r, "ann@example.com")
	require.True(t, ok)
}
