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

	leanByAsynqSHA = map[string]leanScript{leanDequeue.asynqSHA: leanDequeue, leanDone.asynqSHA: leanDone}
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
		lean, ok := leanFor(args)
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
// scripts with the keys it takes.
func leanFor(args []any) (leanScript, bool) {
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
	lean, ok := leanByAsynqSHA[script]
	if !ok {
		return leanScript{}, false
	}
	n, _ := args[2].(int)
	return lean, n == lean.keys
}
