package queue

import (
	"context"
	"fmt"
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
	// busy holds the queues whose last dequeue found a task: the next one runs its script at
	// once, since the pre-check would most likely be a round trip that finds a task too.
	busy       map[string]bool
	generation uint64        // counts wake-ups
	woken      chan struct{} // closed (and replaced) at each wake-up
	stop       chan struct{}
	stopOnce   sync.Once
	asked      int64 // dequeues passed to Redis, for tests
}

func newIdleGate(queues []string, recheck time.Duration) *idleGate {
	return &idleGate{queues: queues, recheck: recheck, emptySince: map[string]time.Time{}, busy: map[string]bool{},
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
// hand to found, and whether the queue's last dequeue found a task), after holding it while
// every queue is known empty.
func (g *idleGate) pass(queue string) (ok bool, generation uint64, busy bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for {
		select {
		case <-g.stop:
			return true, g.generation, g.busy[queue]
		default:
		}
		now := time.Now()
		since, empty := g.emptySince[queue]
		if !empty || now.Sub(since) >= g.recheck {
			g.asked++
			return true, g.generation, g.busy[queue]
		}
		// The first queue to be asked again decides how long to hold.
		next := since.Add(g.recheck)
		for _, q := range g.queues {
			s, ok := g.emptySince[q]
			if !ok {
				return false, 0, false // another queue may have tasks: let asynq move on to it
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
	g.busy[queue] = !empty
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

// ProcessHook gates asynq's dequeue script, listens to its forward script, and asks Redis with
// one plain read first whether a dequeue, forward or janitor script has anything to do.
func (g *idleGate) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		keys := scriptKeys(cmd)
		switch {
		case isDequeue(keys):
			queue := queueOfKey(keys[0])
			ok, gen, busy := g.pass(queue)
			if !ok {
				cmd.SetErr(redis.Nil)
				return redis.Nil
			}
			var err error = redis.Nil
			if busy || !emptyList(ctx, next, keys[0]) {
				err = next(ctx, cmd)
			} else {
				cmd.SetErr(err)
			}
			if err == nil || err == redis.Nil {
				g.found(queue, gen, err == redis.Nil)
			}
			return err
		case isForward(keys):
			if noneDue(ctx, next, cmd, keys[0]) {
				return nil
			}
			err := next(ctx, cmd)
			if c, ok := cmd.(*redis.Cmd); ok && err == nil {
				if n, _ := c.Int64(); n > 0 {
					g.wake(queueOfKey(keys[1]))
				}
			}
			return err
		case isExpiry(keys):
			if noneDue(ctx, next, cmd, keys[0]) {
				return nil
			}
		}
		return next(ctx, cmd)
	}
}

// The pre-checks below spare Redis a script that would find nothing: on the embedded Redis every
// script builds a fresh Lua state (some 150 kB of garbage), and an idle worker's forwarder alone
// runs six a second. A plain read gives the same answer for the price of a key lookup; when it
// finds work, or fails, the script runs as before, so nothing is skipped that the script would
// have done at that moment.

// emptyList tells whether the list at key (a queue's pending list) is empty.
func emptyList(ctx context.Context, next redis.ProcessHook, key string) bool {
	n := redis.NewIntCmd(ctx, "llen", key)
	return next(ctx, n) == nil && n.Val() == 0
}

// noneDue answers for a script that moves or deletes the members of the sorted set at key
// scored up to its first argument (the forward and the completed-task janitor scripts, which
// return how many they handled): when no member is due it sets the script's answer, 0, and
// tells the caller not to run it.
func noneDue(ctx context.Context, next redis.ProcessHook, cmd redis.Cmder, key string) bool {
	c, ok := cmd.(*redis.Cmd)
	args := cmd.Args() // evalsha, sha, number of keys, keys…, arguments…
	n, _ := args[2].(int)
	if !ok || len(args) <= 3+n {
		return false
	}
	upTo := fmt.Sprint(args[3+n])
	z := redis.NewIntCmd(ctx, "zcount", key, "-inf", upTo)
	if next(ctx, z) != nil || z.Val() != 0 {
		return false
	}
	c.SetVal(int64(0))
	return true
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

// isExpiry recognises asynq's janitor script: completed tasks past their retention deleted.
func isExpiry(keys []string) bool {
	return len(keys) == 1 && strings.HasSuffix(keys[0], "}:completed")
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
