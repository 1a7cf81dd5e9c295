package listener

import (
	"context"
	"sync"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// Outcome polling: a waiter looks at its run every outcomePoll at first, then less and less
// often up to outcomePollMax; a finished notice makes it look at once.
const (
	outcomePoll    = time.Second
	outcomePollMax = 30 * time.Second
)

// waiters routes finished notices (bus.Finished, one subscription per Manager) to the runs
// listeners wait for.
type waiters struct {
	mu sync.Mutex
	by map[int64]map[chan struct{}]struct{}
}

func (w *waiters) notice(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for ch := range w.by[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (w *waiters) add(id int64) chan struct{} {
	ch := make(chan struct{}, 1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.by == nil {
		w.by = map[int64]map[chan struct{}]struct{}{}
	}
	if w.by[id] == nil {
		w.by[id] = map[chan struct{}]struct{}{}
	}
	w.by[id][ch] = struct{}{}
	return ch
}

func (w *waiters) remove(id int64, ch chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.by[id], ch)
	if len(w.by[id]) == 0 {
		delete(w.by, id)
	}
}

// run is an execution a listener waits for.
type run struct {
	m  *Manager
	id int64
}

func (r run) ID() int64 { return r.id }

// Outcome waits until the run's outcome is known (execution.Service.Outcome), or ctx ends.
func (r run) Outcome(ctx context.Context) (nodes.Outcome, error) {
	noticed := r.m.waiters.add(r.id)
	defer r.m.waiters.remove(r.id, noticed)
	pause := outcomePoll
	t := time.NewTimer(pause)
	defer t.Stop()
	for {
		// An error (the database away) is looked at again at the next tick.
		if o, ended, err := r.m.cfg.Service.Outcome(ctx, r.id); err == nil && ended {
			return o, nil
		}
		select {
		case <-ctx.Done():
			return nodes.Outcome{}, ctx.Err()
		case <-noticed:
		case <-t.C:
			pause = min(2*pause, outcomePollMax)
			t.Reset(pause)
		}
	}
}
