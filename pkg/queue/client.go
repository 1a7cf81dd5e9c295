package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// ErrDuplicate means a task with the same id is already queued or running.
var ErrDuplicate = errors.New("task already queued")

// Client enqueues tasks. It shares one Redis connection pool with the rest of the process.
type Client struct {
	asynq     *asynq.Client
	inspector *asynq.Inspector
	// runTimeout is asynq's time limit of an execution:run task.
	runTimeout time.Duration
}

// ClientConfig adjusts a Client; the zero value suits a process that enqueues no executions.
type ClientConfig struct {
	// ExecutionTimeout is how long asynq lets an execution:run task run before it gives the
	// task to another worker: the longest an execution may run plus a margin. 0 means no limit
	// (NoExecutionTimeout): the execution lease, renewed while the run lives, is what hands a
	// dead worker's execution on, not asynq.
	ExecutionTimeout time.Duration
}

// NoExecutionTimeout is the task timeout of executions that may run for ever: asynq has no
// "none" (a zero timeout means its 30-minute default), so a century stands for it.
const NoExecutionTimeout = 100 * 365 * 24 * time.Hour

// NewClient builds a client on rdb with tasks that may run for ever; Close does not close rdb.
func NewClient(rdb redis.UniversalClient) *Client { return NewClientWith(rdb, ClientConfig{}) }

// NewClientWith builds a client on rdb adjusted by cfg; Close does not close rdb.
func NewClientWith(rdb redis.UniversalClient, cfg ClientConfig) *Client {
	timeout := cfg.ExecutionTimeout
	if timeout <= 0 {
		timeout = NoExecutionTimeout
	}
	return &Client{asynq: asynq.NewClientFromRedisClient(rdb), inspector: asynq.NewInspectorFromRedisClient(rdb),
		runTimeout: timeout}
}

// runOptions are the options of every execution:run task: its one stable id, and retries that
// hand a task whose worker died (or that is deferred) back to the queue under that same id.
func (c *Client) runOptions(queue string, p ExecutionRun) []asynq.Option {
	return []asynq.Option{asynq.TaskID(p.TaskID()), asynq.Queue(queue), asynq.MaxRetry(ExecutionRunRetries),
		asynq.Timeout(c.runTimeout)}
}

// ExecutionRunRetries is how often asynq hands an execution:run task back after its worker
// died or its handler failed; deferrals (Defer) do not count. Past it the task is archived and
// the reconciler queues the execution afresh.
const ExecutionRunRetries = 25

// RequeueExecution queues an execution again after its worker was lost, unless a task for it
// exists (pending, scheduled, waiting to be retried or being processed: that task runs it, and
// a second one would be a second chain of runs). A task left behind by a dead worker (archived,
// or completed but retained) is replaced. It reports whether it queued one.
func (c *Client) RequeueExecution(ctx context.Context, queue string, p ExecutionRun) (bool, error) {
	err := c.enqueue(ctx, KindExecutionRun, p, c.runOptions(queue, p)...)
	if !errors.Is(err, ErrDuplicate) {
		return err == nil, err
	}
	info, err := c.inspector.GetTaskInfo(queue, p.TaskID())
	if errors.Is(err, asynq.ErrTaskNotFound) {
		// Gone since the enqueue (finished meanwhile), or queued on the other queue.
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("inspect task %s: %w", p.TaskID(), err)
	}
	switch info.State {
	case asynq.TaskStateArchived, asynq.TaskStateCompleted:
		if err := c.inspector.DeleteTask(queue, p.TaskID()); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
			return false, fmt.Errorf("remove stale task %s: %w", p.TaskID(), err)
		}
		err := c.enqueue(ctx, KindExecutionRun, p, c.runOptions(queue, p)...)
		if errors.Is(err, ErrDuplicate) {
			return false, nil // queued by someone else meanwhile
		}
		return err == nil, err
	}
	return false, nil
}

// PingResult returns the result a worker wrote for ping id, or ok=false while it has none.
func (c *Client) PingResult(id string) (result string, ok bool, err error) {
	info, err := c.inspector.GetTaskInfo(QueueLow, DebugPing{ID: id}.TaskID())
	if err != nil {
		return "", false, err
	}
	if info.State != asynq.TaskStateCompleted {
		return "", false, nil
	}
	return string(info.Result), true, nil
}

// QueueSizes returns the number of pending tasks per queue (0 for a queue never used).
func (c *Client) QueueSizes() (map[string]int, error) {
	known, err := c.inspector.Queues()
	if err != nil {
		return nil, fmt.Errorf("list queues: %w", err)
	}
	out := map[string]int{}
	for q := range Queues {
		out[q] = 0
	}
	for _, q := range known {
		info, err := c.inspector.GetQueueInfo(q)
		if err != nil {
			return nil, fmt.Errorf("queue %s: %w", q, err)
		}
		out[q] = info.Pending
	}
	return out, nil
}

// EnqueueExecution queues an execution on queue. A duplicate (already queued) is not an error:
// the execution will run once either way.
func (c *Client) EnqueueExecution(ctx context.Context, queue string, p ExecutionRun) error {
	err := c.enqueue(ctx, KindExecutionRun, p, c.runOptions(queue, p)...)
	if errors.Is(err, ErrDuplicate) {
		return nil
	}
	return err
}

// EnqueuePing queues a diagnostic ping whose result is kept for a minute.
func (c *Client) EnqueuePing(ctx context.Context, p DebugPing) error {
	return c.enqueue(ctx, KindDebugPing, p, asynq.TaskID(p.TaskID()), asynq.Queue(QueueLow),
		asynq.Retention(time.Minute), asynq.MaxRetry(0))
}

func (c *Client) enqueue(ctx context.Context, kind string, payload any, opts ...asynq.Option) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("encode %s: %w", kind, err)
	}
	_, err = c.asynq.EnqueueContext(ctx, asynq.NewTask(kind, b), opts...)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return fmt.Errorf("%s: %w", kind, ErrDuplicate)
	}
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", kind, err)
	}
	return nil
}

// DeferError, returned by an execution:run handler, hands the task back to its queue to be
// tried again after Delay under the same task id (asynq's retry, not counted as a failure), so
// a waiting execution never has two tasks.
type DeferError struct {
	Delay  time.Duration
	Reason string
}

func (e *DeferError) Error() string { return "deferred: " + e.Reason }

// Defer is the error a handler returns to be tried again after delay.
func Defer(delay time.Duration, reason string) error {
	return &DeferError{Delay: delay, Reason: reason}
}
