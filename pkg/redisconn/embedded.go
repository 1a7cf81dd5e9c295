package redisconn

import (
	"fmt"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Embedded is an in-process Redis on loopback for the embedded default. miniredis does not
// let time pass on its own, so a ticker advances its clock: TTLs (heartbeats, task leases)
// then expire as they would on a real server.
type Embedded struct {
	srv      *miniredis.Miniredis
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

// StartEmbedded listens on 127.0.0.1 at a free port.
func StartEmbedded() (*Embedded, error) {
	srv := miniredis.NewMiniRedis()
	if err := srv.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("start embedded redis: %w", err)
	}
	e := &Embedded{srv: srv, stop: make(chan struct{}), done: make(chan struct{})}
	go e.tick()
	return e, nil
}

func (e *Embedded) tick() {
	defer close(e.done)
	const step = 100 * time.Millisecond
	t := time.NewTicker(step)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case now := <-t.C:
			e.srv.FastForward(now.Sub(last))
			e.srv.SetTime(now)
			last = now
		case <-e.stop:
			return
		}
	}
}

// URL is the redis:// address of the embedded server.
func (e *Embedded) URL() string { return "redis://" + e.srv.Addr() }

// Stop shuts the server down. Safe to call twice.
func (e *Embedded) Stop() {
	e.stopOnce.Do(func() {
		close(e.stop)
		<-e.done
		e.srv.Close()
	})
}
