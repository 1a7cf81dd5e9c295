package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
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
	return bus.KeyRateLimitPrefix + r.Name + ":" + hex.EncodeToString(sum[:12])
}

// Backoff is a growing wait between failed attempts by one subject (an IP address): the first
// Free failures cost nothing, then each further attempt must wait Base, 2×Base, 4×Base … (at
// most Max) after the previous one. Failures are forgotten Forget after the last one.
type Backoff struct {
	// Name keys the counters.
	Name   string
	Free   int64
	Base   time.Duration
	Max    time.Duration
	Forget time.Duration
}

// backoffAttempt refuses an attempt that comes before the subject's next allowed time, and
// otherwise moves that time on by the delay the current failure count earns, atomically, so
// concurrent attempts cannot slip through together.
var backoffAttempt = redis.NewScript(`
local now = tonumber(ARGV[1])
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
if now < nextAt then return nextAt - now end
local free, base, max = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if n >= free then
  local delay = base * math.pow(2, math.min(n - free, 30))
  if delay > max then delay = max end
  redis.call('HSET', KEYS[1], 'next', now + delay)
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
return 0
`)

// backoffFail counts one failure and keeps the count for the forget window.
var backoffFail = redis.NewScript(`
redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`)

// Attempt asks whether subject may try now; when not, it returns how long to wait.
func (l *Limiter) Attempt(ctx context.Context, b Backoff, subject string, now time.Time) (bool, time.Duration, error) {
	wait, err := backoffAttempt.Run(ctx, l.rdb, []string{l.key(Rule{Name: b.Name}, subject)}, now.UnixMilli(),
		b.Free, b.Base.Milliseconds(), b.Max.Milliseconds(), b.Forget.Milliseconds()).Int64()
	if err != nil {
		return false, 0, fmt.Errorf("backoff %s: %w", b.Name, err)
	}
	if wait > 0 {
		return false, time.Duration(wait) * time.Millisecond, nil
	}
	return true, 0, nil
}

// Fail records a failed attempt by subject.
func (l *Limiter) Fail(ctx context.Context, b Backoff, subject string) error {
	if err := backoffFail.Run(ctx, l.rdb, []string{l.key(Rule{Name: b.Name}, subject)}, b.Forget.Milliseconds()).Err(); err != nil {
		return fmt.Errorf("backoff %s: %w", b.Name, err)
	}
	return nil
}
