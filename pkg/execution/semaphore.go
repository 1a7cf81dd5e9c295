package execution

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// semaphore limits how many executions run at once across every worker (the production
// concurrency limit) with a sorted set in Redis; the task queue knows nothing of it, a run that
// finds every slot taken is simply deferred. Holds expire unless renewed, so a worker that dies
// gives its slots back by itself.
type semaphore struct {
	rdb   redis.UniversalClient
	key   string
	limit int
	ttl   time.Duration
}

// newSemaphore allows limit holders at once on key; each hold lasts ttl unless renewed.
func newSemaphore(rdb redis.UniversalClient, key string, limit int, ttl time.Duration) *semaphore {
	return &semaphore{rdb: rdb, key: key, limit: limit, ttl: ttl}
}

// acquireScript drops expired holds, then adds the holder if there is room (or renews it if it
// already holds a slot). It answers 1 when the holder has a slot.
var acquireScript = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZSCORE', KEYS[1], ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  return 1
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  return 1
end
return 0`)

// Acquire takes (or renews) a slot for holder, a run's claim token (never an execution id, so a
// second task of one execution does not share the first one's slot and then give it back);
// false means every slot is taken.
func (s *semaphore) Acquire(ctx context.Context, holder string) (bool, error) {
	now := time.Now()
	ok, err := acquireScript.Run(ctx, s.rdb, []string{s.key},
		now.UnixMilli(), now.Add(s.ttl).UnixMilli(), holder, s.limit).Int()
	if err != nil {
		return false, fmt.Errorf("concurrency slot: %w", err)
	}
	return ok == 1, nil
}

// Release gives holder's slot back.
func (s *semaphore) Release(ctx context.Context, holder string) error {
	return s.rdb.ZRem(ctx, s.key, holder).Err()
}
