package queue

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// idleGate spares an idle task server asynq's polling. asynq has no blocking fetch: its
// processor runs a dequeue script on every queue, and when all are empty sleeps PollInterval
// and tries again — hundreds of scripts a second per worker, doing nothing. The gate is a hook
// on the server's own Redis client that sees those scripts: once a queue was found empty it
// answers "empty" for it without asking Redis, and when every queue is known empty it holds the
// dequeue until a wake-up — an enqueue's message on bus.QueueWake (see wakeRequest for when an
// enqueue sends one), or asynq's forwarder moving
// scheduled or retried tasks to a pending list in this process — or until Recheck has passed
// since the queue was last asked, so a lost message (a Redis reconnect, a task moved by another
// worker's forwarder) delays a task by at most Recheck and never loses it.
//
// A wake-up that arrives while a dequeue that finds nothing is on its way is not lost: a queue
// is marked empty only when no wake-up came between sending the dequeue and its answer.
type idleGate struct {
	queues  []string
	recheck time.Duration

	mu         sync.Mutex
	emptySince map[string]time.Time // queue → when a dequeue last found it empty, no wake-up since
	generation uint64               // counts wake-ups
	woken      chan struct{}        // closed (and replaced) at each wake-up
	stop       chan struct{}
	stopOnce   sync.Once
	asked      int64 // dequeues passed to Redis, for tests
}

func newIdleGate(queues []string, recheck time.Duration) *idleGate {
	return &idleGate{queues: queues, recheck: recheck, emptySince: map[string]time.Time{},
		woken: make(chan struct{}), stop: make(chan struct{})}
}

// wake tells the gate that queue (every queue when empty) may have tasks.
func (g *idleGate) wake(queue string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.generation++
	if queue == "" {
		clear(g.emptySince)
	} else {
		delete(g.emptySince, queue)
	}
	close(g.woken)
	g.woken = make(chan struct{})
}

// close releases a held dequeue and makes the gate pass everything on; safe to call twice.
func (g *idleGate) close() {
	g.stopOnce.Do(func() {
		close(g.stop)
		g.wake("")
	})
}

// pass tells whether the dequeue on queue should go to Redis (and the wake-up generation to
// hand to found), after holding it while every queue is known empty.
func (g *idleGate) pass(queue string) (bool, uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		select {
		case <-g.stop:
			return true, g.generation
		default:
		}
		now := time.Now()
		since, empty := g.emptySince[queue]
		if !empty || now.Sub(since) >= g.recheck {
			g.asked++
			return true, g.generation
		}
		// The first queue to be asked again decides how long to hold.
		next := since.Add(g.recheck)
		for _, q := range g.queues {
			s, ok := g.emptySince[q]
			if !ok {
				return false, 0 // another queue may have tasks: let asynq move on to it
			}
			if s.Add(g.recheck).Before(next) {
				next = s.Add(g.recheck)
			}
		}
		woken := g.woken
		g.mu.Unlock()
		t := time.NewTimer(time.Until(next))
		select {
		case <-woken:
		case <-t.C:
		case <-g.stop:
		}
		t.Stop()
		g.mu.Lock()
	}
}

// found records what a dequeue sent at generation found.
func (g *idleGate) found(queue string, generation uint64, empty bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if empty && generation == g.generation {
		g.emptySince[queue] = time.Now()
	}
}

// DialHook is the redis.Hook method for new connections: nothing to do.
func (g *idleGate) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessPipelineHook is the redis.Hook method for pipelines: asynq sends its scripts alone.
func (g *idleGate) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook gates asynq's dequeue script and listens to its forward script.
func (g *idleGate) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		keys := scriptKeys(cmd)
		switch {
		case isDequeue(keys):
			queue := queueOfKey(keys[0])
			ok, gen := g.pass(queue)
			if !ok {
				cmd.SetErr(redis.Nil)
				return redis.Nil
			}
			err := next(ctx, cmd)
			if err == nil || err == redis.Nil {
				g.found(queue, gen, err == redis.Nil)
			}
			return err
		case isForward(keys):
			err := next(ctx, cmd)
			if c, ok := cmd.(*redis.Cmd); ok && err == nil {
				if n, _ := c.Int64(); n > 0 {
					g.wake(queueOfKey(keys[1]))
				}
			}
			return err
		}
		return next(ctx, cmd)
	}
}

// scriptKeys returns the keys of an EVAL or EVALSHA command, nil for any other command.
func scriptKeys(cmd redis.Cmder) []string {
	name := cmd.Name()
	if name != "evalsha" && name != "eval" {
		return nil
	}
	args := cmd.Args()
	if len(args) < 3 {
		return nil
	}
	n, ok := args[2].(int)
	if !ok || n < 0 || len(args) < 3+n {
		return nil
	}
	keys := make([]string, n)
	for i := range n {
		if keys[i], ok = args[3+i].(string); !ok {
			return nil
		}
	}
	return keys
}

// isDequeue recognises asynq's dequeue script by its keys: pending, paused, active and lease
// of one queue (asynq v0.26 internal/rdb).
func isDequeue(keys []string) bool {
	return len(keys) == 4 && strings.HasSuffix(keys[0], "}:pending") && strings.HasSuffix(keys[1], "}:paused") &&
		strings.HasSuffix(keys[2], "}:active") && strings.HasSuffix(keys[3], "}:lease")
}

// isForward recognises asynq's forward script: scheduled or retry set to the pending list.
func isForward(keys []string) bool {
	return len(keys) == 2 && (strings.HasSuffix(keys[0], "}:scheduled") || strings.HasSuffix(keys[0], "}:retry")) &&
		strings.HasSuffix(keys[1], "}:pending")
}

// queueOfKey reads the queue name out of an asynq key, asynq:{<queue>}:….
func queueOfKey(key string) string {
	open, end := strings.IndexByte(key, '{'), strings.IndexByte(key, '}')
	if open < 0 || end < open {
		return ""
	}
	return key[open+1 : end]
}
