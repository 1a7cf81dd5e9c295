package queue

import (
	"context"
	"errors"
	"time"

	"github.com/hibiken/asynq"
)

// TriggerRetention is how long the task id of a fired tick stays taken after it ran, so a
// scheduler running late by up to that long cannot queue the same tick again.
const TriggerRetention = 10 * time.Minute

// EnqueueTrigger queues one tick of a trigger; a tick another scheduler already queued is not an
// error.
func (c *Client) EnqueueTrigger(ctx context.Context, p TriggerFire) error {
	err := c.enqueue(ctx, KindTriggerFire, p, asynq.TaskID(p.TaskID()), asynq.Queue(QueueDefault),
		asynq.MaxRetry(0), asynq.Retention(TriggerRetention))
	if errors.Is(err, ErrDuplicate) {
		return nil
	}
	return err
}
