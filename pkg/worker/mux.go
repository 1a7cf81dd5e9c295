package worker

import (
	"context"

	"github.com/hibiken/asynq"

	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
)

// register installs every task handler of the worker.
func (w *Worker) register() {
	w.server.HandleTask(queue.KindDebugPing, w.counted(w.ping))
	w.server.HandleTask(queue.KindExecutionRun, w.counted(func(ctx context.Context, t *asynq.Task) error {
		return w.runner.Handle(ctx, t.Payload())
	}))
	w.server.HandleTask(queue.KindTriggerFire, w.counted(func(ctx context.Context, t *asynq.Task) error {
		return w.runner.HandleTrigger(ctx, t.Payload())
	}))
}

// counted records each task's result in flowmill_queue_tasks_total.
func (w *Worker) counted(h asynq.HandlerFunc) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		err := h(ctx, t)
		result := "ok"
		if err != nil {
			result = "error"
		}
		w.metrics.TasksTotal.WithLabelValues(t.Type(), result).Inc()
		return err
	}
}

// ping answers a diagnostic ping with its message and the id of the worker that took it, as the
// task result and as a console message to the session that asked.
func (w *Worker) ping(ctx context.Context, t *asynq.Task) error {
	var p queue.DebugPing
	if err := queue.Decode(t.Type(), t.Payload(), &p); err != nil {
		return err
	}
	answer := "pong " + p.Message + " from " + w.ID
	if p.SessionID != "" {
		err := w.publisher.Send(ctx, p.SessionID, push.Message{Type: push.TypeSendConsoleMessage,
			Data: map[string]any{"source": "worker " + w.ID, "messages": []string{answer}}})
		if err != nil {
			return err
		}
	}
	_, err := t.ResultWriter().Write([]byte(answer))
	return err
}
