package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/metrics"
)

// ErrDuplicate means a task with the same id is already queued or running.
var ErrDuplicate = errors.New("task already queued")

// Client enqueues tasks. It shares one Redis connection pool with the rest of the process.
type Client struct {
	rdb       redis.UniversalClient
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

// NewClientWith builds a client on rdb adjusted by cfg; Close does not close rdb. A
// single-node rdb gets a hook that sends an enqueue's wake-up in the enqueue's own script (one
// round trip instead of two; see wakeRequest); it changes no other command.
func NewClientWith(rdb redis.UniversalClient, cfg ClientConfig) *Client {
	timeout := cfg.ExecutionTimeout
	if timeout <= 0 {
		timeout = NoExecutionTimeout
	}
	if c, ok := rdb.(*redis.Client); ok {
		c.AddHook(leanEnqueueHook{})
	}
	return &Client{rdb: rdb, asynq: asynq.NewClientFromRedisClient(rdb), inspector: asynq.NewInspectorFromRedisClient(rdb),
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
// is alive: pending, scheduled, waiting to be retried, or being processed by a live worker. That
// task runs it, and a second one would be a second chain of runs. A task left behind (archived,
// or completed but retained) is replaced. A task still marked active on a worker that has died
// (asynq notices only after a minute or more) gets one recovery task, whose id is also derived
// from the execution. It reports whether it queued a task.
func (c *Client) RequeueExecution(ctx context.Context, queue string, p ExecutionRun) (bool, error) {
	state, err := c.place(ctx, queue, p, p.TaskID())
	if err != nil || state != asynq.TaskStateActive {
		return state == 0 && err == nil, err
	}
	live, err := c.processedByLiveWorker(queue, p.TaskID())
	if err != nil || live {
		return false, err
	}
	state, err = c.place(ctx, queue, p, p.TaskID()+":recovered")
	return state == 0 && err == nil, err
}

// place enqueues p under id, replacing an archived or completed task of that id; it answers 0
// when it queued one, else the state of the task that stays.
func (c *Client) place(ctx context.Context, queue string, p ExecutionRun, id string) (asynq.TaskState, error) {
	opts := append(c.runOptions(queue, p), asynq.TaskID(id))
	err := c.enqueue(ctx, KindExecutionRun, p, opts...)
	if !errors.Is(err, ErrDuplicate) {
		return 0, err
	}
	info, err := c.inspector.GetTaskInfo(queue, id)
	if errors.Is(err, asynq.ErrTaskNotFound) {
		return asynq.TaskStateCompleted, nil // gone since the enqueue: it finished meanwhile
	}
	if err != nil {
		return 0, fmt.Errorf("inspect task %s: %w", id, err)
	}
	if info.State != asynq.TaskStateArchived && info.State != asynq.TaskStateCompleted {
		return info.State, nil
	}
	if err := c.inspector.DeleteTask(queue, id); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
		return 0, fmt.Errorf("remove stale task %s: %w", id, err)
	}
	err = c.enqueue(ctx, KindExecutionRun, p, opts...)
	if errors.Is(err, ErrDuplicate) {
		return asynq.TaskStatePending, nil // queued by someone else meanwhile
	}
	return 0, err
}

// processedByLiveWorker tells whether a task server that is alive (its heartbeat, written every
// 5 s, has not run out) lists task id among the tasks it is processing.
func (c *Client) processedByLiveWorker(queue, id string) (bool, error) {
	servers, err := c.inspector.Servers()
	if err != nil {
		return false, fmt.Errorf("list task servers: %w", err)
	}
	for _, s := range servers {
		for _, w := range s.ActiveWorkers {
			if w.TaskID == id && w.Queue == queue {
				return true, nil
			}
		}
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
	stats, err := c.QueueStats()
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(stats))
	for q, s := range stats {
		out[q] = s.Pending
	}
	return out, nil
}

// QueueStats returns the pending tasks of every queue and how long its oldest one has waited
// (zero for a queue never used).
func (c *Client) QueueStats() (map[string]metrics.QueueStat, error) {
	known, err := c.inspector.Queues()
	if err != nil {
		return nil, fmt.Errorf("list queues: %w", err)
	}
	out := map[string]metrics.QueueStat{}
	for q := range Queues {
		out[q] = metrics.QueueStat{}
	}
	for _, q := range known {
		info, err := c.inspector.GetQueueInfo(q)
		if err != nil {
			return nil, fmt.Errorf("queue %s: %w", q, err)
		}
		out[q] = metrics.QueueStat{Pending: info.Pending, LatencySeconds: info.Latency.Seconds()}
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
	wake := &wakeRequest{channel: bus.QueueWake.Channel(c.rdb)}
	info, err := c.asynq.EnqueueContext(context.WithValue(ctx, wakeRequestKey{}, wake), asynq.NewTask(kind, b), opts...)
	if errors.Is(err, asynq.ErrTaskIDConflict) {
		return fmt.Errorf("%s: %w", kind, ErrDuplicate)
	}
	if err != nil {
		return fmt.Errorf("enqueue %s: %w", kind, err)
	}
	if info.State == asynq.TaskStatePending && !wake.handled {
		// Idle workers wait for this instead of polling. The task is stored: if the message is
		// lost, a worker still finds it at its next look (ServerConfig.IdleRecheck).
		_ = bus.QueueWake.Publish(ctx, c.rdb, info.Queue)
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
