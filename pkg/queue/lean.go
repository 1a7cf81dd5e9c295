package queue

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"strings"

	"github.com/redis/go-redis/v9"
)

// leanDone spares asynq's per-task statistics. asynq ends every task that succeeded with a
// script that removes it (LREM active, ZREM lease, DEL) and then counts it twice: a processed
// counter per queue and day and a processed total (INCR, GET, INCR) — three of the seven
// commands, which nothing of Flowmill reads (the queue metrics are pending counts and latency).
// This hook on the task server's own Redis client runs the same script without the counting
// in its place, so asynq's Inspector and dashboards show no processed counts for these queues.
// Failures are still counted (asynq's retry and archive scripts are left alone).
//
// The hook knows asynq's done script by its digest (asynq v0.26.0, internal/rdb doneCmd): another
// version of asynq has another script, which then runs unchanged (TestLeanDone notices).
type leanDone struct{}

// asynqDoneSHA is the SHA-1 of asynq v0.26.0's done script.
const asynqDoneSHA = "1241eaa1c73409baaf1fea0c08d203a4911bda15"

// leanDoneScript is asynq's done script without the counters: KEYS[1] active list, KEYS[2]
// lease set, KEYS[3] task hash (KEYS[4] and KEYS[5], the counters, are left as asynq passes
// them); ARGV[1] the task id. Its answers are asynq's.
const leanDoneScript = `if redis.call("LREM", KEYS[1], 0, ARGV[1]) == 0 then
  return redis.error_reply("NOT FOUND")
end
if redis.call("ZREM", KEYS[2], ARGV[1]) == 0 then
  return redis.error_reply("NOT FOUND")
end
if redis.call("DEL", KEYS[3]) == 0 then
  return redis.error_reply("NOT FOUND")
end
return redis.status_reply("OK")`

var leanDoneSHA = func() string { s := sha1.Sum([]byte(leanDoneScript)); return hex.EncodeToString(s[:]) }()

// DialHook is the redis.Hook method for new connections: nothing to do.
func (leanDone) DialHook(next redis.DialHook) redis.DialHook { return next }

// ProcessPipelineHook is the redis.Hook method for pipelines: asynq sends its scripts alone.
func (leanDone) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// ProcessHook runs the lean script in place of asynq's done script: by its digest, and by its
// source the first time, which also loads it into Redis's script cache.
func (leanDone) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		args := cmd.Args()
		if !isAsynqDone(args) {
			return next(ctx, cmd)
		}
		args[0], args[1] = "evalsha", leanDoneSHA
		err := next(ctx, cmd)
		if err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
			return err
		}
		args[0], args[1] = "eval", leanDoneScript
		cmd.SetErr(nil)
		return next(ctx, cmd)
	}
}

// isAsynqDone tells whether args are an EVALSHA or EVAL of asynq's done script with its five
// keys (active, lease, task, processed of the day, processed total).
func isAsynqDone(args []any) bool {
	if len(args) < 8 {
		return false
	}
	name, _ := args[0].(string)
	script, _ := args[1].(string)
	switch name {
	case "evalsha":
	case "eval":
		s := sha1.Sum([]byte(script))
		script = hex.EncodeToString(s[:])
	default:
		return false
	}
	if script != asynqDoneSHA {
		return false
	}
	n, _ := args[2].(int)
	return n == 5
}
