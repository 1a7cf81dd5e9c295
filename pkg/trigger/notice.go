package trigger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
)

// Announce tells every scheduler and api that the activation of workflow id changed.
func Announce(ctx context.Context, rdb redis.UniversalClient, id string) error {
	if err := bus.Activations.Publish(ctx, rdb, id); err != nil {
		return fmt.Errorf("announce activation of workflow %s: %w", id, err)
	}
	return nil
}

// ActivationError is the last failure to start a workflow's triggers, as the editor reads it
// (GET /rest/active/error/:id).
type ActivationError struct {
	Time  int64 `json:"time"`
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
}

// SetError records why workflow id's triggers could not start.
func SetError(ctx context.Context, rdb redis.UniversalClient, id, message string) error {
	var e ActivationError
	e.Time = time.Now().UnixMilli()
	e.Error.Message = message
	b, _ := json.Marshal(e)
	if err := rdb.HSet(ctx, bus.KeyActivationErrors, id, b).Err(); err != nil {
		return fmt.Errorf("record activation error of workflow %s: %w", id, err)
	}
	return nil
}

// ClearError forgets the activation error of workflow id.
func ClearError(ctx context.Context, rdb redis.UniversalClient, id string) error {
	if err := rdb.HDel(ctx, bus.KeyActivationErrors, id).Err(); err != nil {
		return fmt.Errorf("clear activation error of workflow %s: %w", id, err)
	}
	return nil
}

// GetError returns the activation error of workflow id; ok is false when there is none.
func GetError(ctx context.Context, rdb redis.UniversalClient, id string) (e ActivationError, ok bool, err error) {
	b, err := rdb.HGet(ctx, bus.KeyActivationErrors, id).Bytes()
	if errors.Is(err, redis.Nil) {
		return e, false, nil
	}
	if err != nil {
		return e, false, fmt.Errorf("read activation error of workflow %s: %w", id, err)
	}
	if err := json.Unmarshal(b, &e); err != nil {
		return e, false, fmt.Errorf("read activation error of workflow %s: %w", id, err)
	}
	return e, true, nil
}
