package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// WebhookAnswer is the answer a webhook execution gave its caller, kept so that a caller whose
// Redis message was lost, or a repeat of an idempotent call, can read it; for an execution a
// listener trigger waits for, the run's outcome (execution.awaiter). Either way it is keyed by
// the execution, first one wins and outlives the execution.
type WebhookAnswer struct {
	ExecutionID int64 `gorm:"primaryKey;autoIncrement:false"`
	// Answer is the answer as the worker publishes it (JSON).
	Answer    string
	CreatedAt time.Time
}

// TableName keeps the table name of the schema.
func (WebhookAnswer) TableName() string { return "webhook_answers" }

// SaveWebhookAnswer keeps the answer of an execution. The first answer stays: an execution
// answers once, and a worker that took it over and answers again is not believed over it.
func (s *Store) SaveWebhookAnswer(ctx context.Context, executionID int64, answer []byte) error {
	row := WebhookAnswer{ExecutionID: executionID, Answer: string(answer), CreatedAt: time.Now().UTC()}
	err := s.DB.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error
	if err != nil {
		return fmt.Errorf("save webhook answer of execution %d: %w", executionID, err)
	}
	return nil
}

// GetWebhookAnswer returns the kept answer of an execution, or ErrNotFound.
func (s *Store) GetWebhookAnswer(ctx context.Context, executionID int64) ([]byte, error) {
	var row WebhookAnswer
	err := s.DB.WithContext(ctx).Where("execution_id = ?", executionID).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read webhook answer of execution %d: %w", executionID, err)
	}
	return []byte(row.Answer), nil
}

// PruneWebhookAnswers deletes the answers and idempotency keys made before olderThan and
// returns how many rows went.
func (s *Store) PruneWebhookAnswers(ctx context.Context, olderThan time.Time) (int64, error) {
	var n int64
	for _, m := range []any{&WebhookAnswer{}, &IdempotencyKey{}} {
		res := s.DB.WithContext(ctx).Where("created_at < ?", olderThan.UTC()).Delete(m)
		if res.Error != nil {
			return n, fmt.Errorf("prune webhook answers: %w", res.Error)
		}
		n += res.RowsAffected
	}
	return n, nil
}
