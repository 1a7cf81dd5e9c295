package queue

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"strings"

	"github.com/redis/go-redis/v9"
)

// leanScripts spares commands asynq's task server sends for every task that Flowmill has no use
// for. It is a hook on the server's own Redis client that runs a lean script in place of one of
// asynq's, same keys, same arguments, same answers:
//
//   - dequeue: asynq first checks the queue's pause key, then pops; most dequeues under load
//     find the queue empty (every idle server is woken by each enqueue), so the lean one pops
//     first and checks the pause only with a task in hand (putting it back, in the same atomic
//     script, when the queue is paused). It also leaves the task's pending_since in place
//     instead of deleting it: asynq reads it only from pending tasks (queue latency), and the
//     way back to pending of a task that failed (the forwarder) sets it anew; a task requeued
//     at shutdown, or an archived one run from the Inspector, counts its latency from when it
//     was first queued instead of from 0. An empty look is 2 commands instead of 3, a task 6
//     instead of 7.
//   - done: asynq ends every task that succeeded by removing it (LREM active, ZREM lease, DEL)
//     and then counting it twice, a processed counter per queue and day and a processed total
//     (INCR, GET, INCR), which nothing of Flowmill reads (its queue metrics are pending counts
//     and latency); the lean one only removes it: 4 commands instead of 7. asynq's Inspector
//     and dashboards therefore show no processed counts for these queues; failures are still
//     counted (the retry and archive scripts are asynq's).
//
// A script is known by its digest (asynq v0.26.0, internal/rdb): another version of asynq has
// other scripts, which then run unchanged (TestLeanScripts notices).
type leanScripts struct{}

// leanScript is one substitution: asynq's script digest and the lean script's source and digest.
type leanScript struct {
	asynqSHA, source, sha string
	keys                  int
}

func newLeanScript(asynqSHA string, keys int, source string) leanScript {
	s := sha1.Sum([]byte(source))
	return leanScript{asynqSHA: asynqSHA, keys: keys, source: source, sha: hex.EncodeToString(s[:])}
}

var (
	// leanDequeue: KEYS[1] pending list, KEYS[2] pause key, KEYS[3] active list, KEYS[4] lease
	// set; ARGV[1] lease expiry, ARGV[2] task key prefix. The task message, or nil.
	leanDequeue = newLeanScript("a8153319360adc71cdc370107f8ab9786f204765", 4, `local id = redis.call("RPOPLPUSH", KEYS[1], KEYS[3])
if not id then
  return nil
end
if redis.call("EXISTS", KEYS[2]) == 1 then
  redis.call("LPOP", KEYS[3])
  redis.call("RPUSH", KEYS[1], id)
  return nil
end
local key = ARGV[2] .. id
redis.call("HSET", key, "state", "active")
redis.call("ZADD", KEYS[4], ARGV[1], id)
return redis.call("HGET", key, "msg")`)

	// leanDone: KEYS[1] active list, KEYS[2] lease set, KEYS[3] task hash (KEYS[4] and KEYS[5],
	// the counters, are passed but not used); ARGV[1] the task id.
	leanDone = newLeanScript("1241eaa1c73409baaf1fea0c08d203a4911bda15", 5, `if redis.call("LREM", KEYS[1], 0, ARGV[1]) == 0 then
  return redis.error_reply("NOT FOUND")
end
if redis.call("ZREM", KEYS[2], ARGV[1]) == 0 then
  return redis.error_reply("NOT FOUND")
end
if redis.call("DEL", KEYS[3]) == 0 then
  return redis.error_reply("NOT FOUND")
end
return redis.status_reply("OK")`)

	// serverScripts are the scripts of the task server that leanScripts replaces.
	serverScripts = map[string]leanScript{leanDequeue.asynqSHA: leanDequeue, leanDone.asynqSHA: leanDone}

	// leanEnqueue is asynq's enqueue script that also sends the queue's wake-up, in the same
	// round trip, when the task is the only one pending (see wakeRequest): KEYS[1] task hash,
	// KEYS[2] pending list; ARGV[1] message, ARGV[2] task id, ARGV[3] pending since, ARGV[4]
	// the wake-up channel, ARGV[5] the queue. 1 when queued, 0 when the task id is taken.
	leanEnqueue = newLeanScript("98d28b42650870a743450ffda9791e9e19c6991b", 2, `if redis.call("EXISTS", KEYS[1]) == 1 then
  return 0
end
redis.call("HSET", KEYS[1], "msg", ARGV[1], "state", "pending", "pending_since", ARGV[3])
if redis.call("LPUSH", KEYS[2], ARGV[2]) == 1 then
  redis.call("PUBLISH", ARGV[4], ARGV[5])
end
return 1`)
)

// DialHook is the redis.Hook method for new connections: nothing to do.
func (leanScripts) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessPipelineHook is the redis.Hook method for pipelines: asynq sends its scripts alone.
func (leanScripts) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook runs the lean script in place of asynq's: by its digest, and by its source when
// Redis does not know it yet, which loads it into Redis's script cache.
func (leanScripts) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		args := cmd.Args()
		lean, ok := leanFor(args, serverScripts)
		if !ok {
			return next(ctx, cmd)
		}
		args[0], args[1] = "evalsha", lean.sha
		err := next(ctx, cmd)
		if err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
			return err
		}
		args[0], args[1] = "eval", lean.source
		cmd.SetErr(nil)
		return next(ctx, cmd)
	}
}

// leanFor is the lean script to run in place of args, an EVALSHA or EVAL of one of asynq's
// scripts in table (by digest) with the keys it takes.
func leanFor(args []any, table map[string]leanScript) (leanScript, bool) {
	if len(args) < 3 {
		return leanScript{}, false
	}
	name, _ := args[0].(string)
	script, _ := args[1].(string)
	switch name {
	case "evalsha":
	case "eval":
		s := sha1.Sum([]byte(script))
		script = hex.EncodeToString(s[:])
	default:
		return leanScript{}, false
	}
	lean, ok := table[script]
	if !ok {
		return leanScript{}, false
	}
	n, _ := args[2].(int)
	return lean, n == lean.keys
}

// wakeRequest, in the context of an enqueue, asks the client's lean enqueue hook to send the
// queue's wake-up (on channel) from the enqueue script; handled tells that it did (or that it
// was not needed), otherwise the caller publishes it itself.
//
// The script sends it only when the task is the only one pending: a task already pending was
// announced when it was queued onto the empty list, and every server whose dequeue found the
// list empty before that got the message, so it looks again and goes on looking until it finds
// the list empty, which it cannot while this task waits. A task moved to pending by a server's
// forwarder is announced to that server only; another server may then wait up to its
// IdleRecheck for a task queued behind it, as for a lost message.
type wakeRequest struct {
	channel string
	handled bool
}

type wakeRequestKey struct{}

// leanEnqueueHook runs leanEnqueue in place of asynq's enqueue script for an enqueue whose
// context carries a wakeRequest; any other command goes on unchanged.
type leanEnqueueHook struct{}

// DialHook is the redis.Hook method for new connections: nothing to do.
func (leanEnqueueHook) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessPipelineHook is the redis.Hook method for pipelines: asynq sends its scripts alone.
func (leanEnqueueHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook sends the lean enqueue in place of asynq's, answering asynq's command with its
// result.
func (leanEnqueueHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		wr, _ := ctx.Value(wakeRequestKey{}).(*wakeRequest)
		script, ok := cmd.(*redis.Cmd)
		args := cmd.Args()
		if wr == nil || !ok || !isAsynqEnqueue(args) {
			return next(ctx, cmd)
		}
		keys, argv := args[3:5], args[5:8]
		queue := queueOfKey(keys[1].(string))
		// next answers with the command's error (go-redis sets it on the command afterwards).
		run := func(name, source string) (*redis.Cmd, error) {
			c := redis.NewCmd(ctx, append(append(append([]any{name, source, 2}, keys...), argv...), wr.channel, queue)...)
			return c, next(ctx, c)
		}
		lean, err := run("evalsha", leanEnqueue.sha)
		if err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT") {
			lean, err = run("eval", leanEnqueue.source)
		}
		script.SetVal(lean.Val())
		script.SetErr(err)
		wr.handled = err == nil
		return err
	}
}

// isAsynqEnqueue tells whether args are an EVALSHA or EVAL of asynq's enqueue script: two
// keys, the task hash and a pending list, and three arguments.
func isAsynqEnqueue(args []any) bool {
	if _, ok := leanFor(args, map[string]leanScript{leanEnqueue.asynqSHA: leanEnqueue}); !ok || len(args) != 8 {
		return false
	}
	pending, _ := args[4].(string)
	return strings.HasSuffix(pending, "}:pending")
}
