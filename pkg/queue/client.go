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
}

// NewClient builds a client on rdb; Close does not close rdb.
func NewClient(rdb redis.UniversalClient) *Client {
	return &Client{asynq: asynq.NewClientFromRedisClient(rdb), inspector: asynq.NewInspectorFromRedisClient(rdb)}
}

// RequeueExecution queues an execution again after its worker was lost. A task left behind by
// a dead worker (archived, or completed but retained) is replaced. One still marked active
// belongs to a worker that stopped renewing its lease, which asynq notices only much later, so
// a second task with its own id is queued; the database lease lets only one of them run it. A
// pending task is left alone.
func (c *Client) RequeueExecution(ctx context.Context, queue string, p ExecutionRun) error {
	err := c.enqueue(ctx, KindExecutionRun, p, asynq.TaskID(p.TaskID()), asynq.Queue(queue), asynq.MaxRetry(0))
	if !errors.Is(err, ErrDuplicate) {
		return err
	}
	info, err := c.inspector.GetTaskInfo(queue, p.TaskID())
	if err != nil {
		return fmt.Errorf("inspect task %s: %w", p.TaskID(), err)
	}
	switch info.State {
	case asynq.TaskStateArchived, asynq.TaskStateCompleted:
		if err := c.inspector.DeleteTask(queue, p.TaskID()); err != nil {
			return fmt.Errorf("remove stale task %s: %w", p.TaskID(), err)
		}
		return c.EnqueueExecution(ctx, queue, p)
	case asynq.TaskStateActive:
		id := fmt.Sprintf("%s:recovered:%d", p.TaskID(), time.Now().UnixNano())
		return c.enqueue(ctx, KindExecutionRun, p, asynq.TaskID(id), asynq.Queue(queue), asynq.MaxRetry(0))
	}
	return nil
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
	err := c.enqueue(ctx, KindExecutionRun, p, asynq.TaskID(p.TaskID()), asynq.Queue(queue), asynq.MaxRetry(0))
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

// DeferExecution queues an execution again to be tried after delay, under a fresh task id (the
// current task is finishing).
func (c *Client) DeferExecution(ctx context.Context, queue string, p ExecutionRun, delay time.Duration) error {
	id := fmt.Sprintf("%s:deferred:%d", p.TaskID(), time.Now().UnixNano())
	return c.enqueue(ctx, KindExecutionRun, p, asynq.TaskID(id), asynq.Queue(queue), asynq.MaxRetry(0), asynq.ProcessIn(delay))
}
