package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/queue"
)

// Rule is one rate limit: at most Limit attempts per Window for one subject (an IP address or an
// account). Windows are fixed: they start at a subject's first attempt.
type Rule struct {
	// Name keys the counters; rules with different names count separately.
	Name   string
	Limit  int64
	Window time.Duration
}

// Limiter counts attempts in Redis, so a limit holds across every api replica.
type Limiter struct {
	rdb *redis.Client
}

// NewLimiter returns a limiter on rdb.
func NewLimiter(rdb *redis.Client) *Limiter { return &Limiter{rdb: rdb} }

// hit increments the counter and starts its window on the first attempt, atomically.
var hit = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`)

// Allow records one attempt by subject under r. When the attempt is over the limit it returns
// false and how long until the window ends.
func (l *Limiter) Allow(ctx context.Context, r Rule, subject string) (bool, time.Duration, error) {
	res, err := hit.Run(ctx, l.rdb, []string{l.key(r, subject)}, r.Window.Milliseconds()).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limit %s: %w", r.Name, err)
	}
	if res[0] > r.Limit {
		return false, time.Duration(res[1]) * time.Millisecond, nil
	}
	return true, 0, nil
}

// Reset forgets subject's attempts under r (after a successful sign-in, for example).
func (l *Limiter) Reset(ctx context.Context, r Rule, subject string) error {
	return l.rdb.Del(ctx, l.key(r, subject)).Err()
}

// key hashes the subject: e-mail addresses do not end up readable in Redis.
func (l *Limiter) key(r Rule, subject string) string {
	sum := sha256.Sum256([]byte(subject))
	return queue.KeyRateLimitPrefix + r.Name + ":" + hex.EncodeToString(sum[:12])
}
