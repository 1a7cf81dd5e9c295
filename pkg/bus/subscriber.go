package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/redis/go-redis/v9"
)

// SubscriberConfig adjusts a Subscriber; the zero value is fine.
type SubscriberConfig struct {
	// Buffer is how many received messages may wait for the handler. Default 100. When it is
	// full, Redis's reader waits up to a minute for room and then drops the message, so a slow
	// handler never holds up the publishers.
	Buffer int
	// Logger receives undecodable messages. Default: discard.
	Logger *slog.Logger
}

// Subscriber is the one loop that listens on a pub/sub channel: it subscribes at Start,
// resubscribes by itself after a lost connection (messages sent meanwhile are lost, which is
// why every listener also looks at the source of truth now and then), and calls its handler
// for each message until Stop. Build one with Topic.Subscribe.
type Subscriber struct {
	rdb     redis.UniversalClient
	channel string
	about   string
	buffer  int
	log     *slog.Logger
	handle  func(payload string)

	mu      sync.Mutex
	pubsub  *redis.PubSub
	stopped bool
	done    chan struct{}
}

// errStopped is returned by Start after Stop.
var errStopped = errors.New("subscriber stopped")

func newSubscriber(rdb redis.UniversalClient, channel, about string, cfg SubscriberConfig) *Subscriber {
	if cfg.Buffer <= 0 {
		cfg.Buffer = 100
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Subscriber{rdb: rdb, channel: channel, about: about, buffer: cfg.Buffer, log: cfg.Logger,
		done: make(chan struct{})}
}

// Start subscribes and returns once the subscription is live, so no message published after
// Start returns is missed; the handler then runs in the background. Start once.
func (s *Subscriber) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return fmt.Errorf("subscribe to %s: %w", s.about, errStopped)
	}
	ps := s.rdb.Subscribe(ctx, s.channel)
	if _, err := ps.Receive(ctx); err != nil {
		_ = ps.Close()
		return fmt.Errorf("subscribe to %s: %w", s.about, err)
	}
	s.pubsub = ps
	ch := ps.Channel(redis.WithChannelSize(s.buffer))
	go func() {
		defer close(s.done)
		for m := range ch {
			s.handle(m.Payload)
		}
	}()
	return nil
}

// Stop unsubscribes and returns once the handler has returned for the last time. Safe to call
// twice, and before Start.
func (s *Subscriber) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.stopped = true
	if s.pubsub != nil {
		_ = s.pubsub.Close()
		<-s.done
	}
}
