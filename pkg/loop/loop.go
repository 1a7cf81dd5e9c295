// Package loop runs a function now and then every interval until stopped: the shape of every
// timed background job (reconciling, resuming waits, pruning).
package loop

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Loop calls Run every Interval. Errors are logged and the loop goes on.
type Loop struct {
	name     string
	interval time.Duration
	run      func(ctx context.Context) error
	log      *slog.Logger
	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// New builds a loop; log may be nil.
func New(name string, interval time.Duration, run func(ctx context.Context) error, log *slog.Logger) *Loop {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Loop{name: name, interval: interval, run: run, log: log.With("component", name), done: make(chan struct{})}
}

// Start runs the first pass at once, in the background, then one every interval.
func (l *Loop) Start(ctx context.Context) error {
	ctx, l.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		defer close(l.done)
		t := time.NewTicker(l.interval)
		defer t.Stop()
		for {
			if err := l.run(ctx); err != nil && ctx.Err() == nil {
				l.log.Warn(l.name+" failed", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// Stop ends the loop after the pass in progress. Safe to call twice, and before Start.
func (l *Loop) Stop() {
	l.stopOnce.Do(func() {
		if l.cancel != nil {
			l.cancel()
			<-l.done
		}
	})
}
