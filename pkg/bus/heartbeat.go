package bus

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/loop"
)

// Process roles that report heartbeats.
const (
	RoleWorker    = "worker"
	RoleScheduler = "scheduler"
)

// Heartbeat writes a key with a TTL of three intervals every interval, so readiness checks can
// tell whether a worker or scheduler is alive.
type Heartbeat struct {
	rdb      redis.UniversalClient
	key      string
	interval time.Duration
	loop     *loop.Loop
	started  bool
	stopOnce sync.Once
}

// NewHeartbeat reports role/instance every interval (0 or less means 5s); log may be nil.
func NewHeartbeat(rdb redis.UniversalClient, role, instance string, interval time.Duration, log *slog.Logger) *Heartbeat {
	if interval <= 0 {
		interval = 5 * time.Second
	}
	h := &Heartbeat{rdb: rdb, key: KeyHeartbeatPrefix + role + ":" + instance, interval: interval}
	h.loop = loop.New("heartbeat", interval, h.beat, log)
	return h
}

// Start writes the first beat synchronously (so readiness is true once Start returns), then
// keeps beating in the background.
func (h *Heartbeat) Start(ctx context.Context) error {
	if err := h.beat(ctx); err != nil {
		return err
	}
	h.started = true
	return h.loop.Start(ctx)
}

func (h *Heartbeat) beat(ctx context.Context) error {
	err := h.rdb.Set(ctx, h.key, time.Now().UTC().Format(time.RFC3339Nano), 3*h.interval).Err()
	if err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	return nil
}

// Stop ends the beat and removes the key, so a stopped process stops counting at once. Safe to
// call twice, and before Start.
func (h *Heartbeat) Stop() {
	h.stopOnce.Do(func() {
		if !h.started {
			return
		}
		h.loop.Stop()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = h.rdb.Del(ctx, h.key).Err()
	})
}

// LiveInstances lists the instances of role whose heartbeat has not expired.
func LiveInstances(ctx context.Context, rdb redis.UniversalClient, role string) ([]string, error) {
	prefix := KeyHeartbeatPrefix + role + ":"
	var out []string
	iter := rdb.Scan(ctx, 0, prefix+"*", 100).Iterator()
	for iter.Next(ctx) {
		out = append(out, iter.Val()[len(prefix):])
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("list %s heartbeats: %w", role, err)
	}
	return out, nil
}

// Alive reports whether the heartbeat of role/instance has not expired.
func Alive(ctx context.Context, rdb redis.UniversalClient, role, instance string) (bool, error) {
	n, err := rdb.Exists(ctx, KeyHeartbeatPrefix+role+":"+instance).Result()
	if err != nil {
		return false, fmt.Errorf("read %s heartbeat: %w", role, err)
	}
	return n > 0, nil
}
