package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// The write path of a run: its checkpoints, its outcome and its retry link, each one statement
// guarded by the run's lease (see ClaimExecution in executions.go for how a run gets it).

// SaveExecutionState writes the run data and resumable state of a running execution, as long as
// owner still holds its lease; false means the lease was lost and the caller must stop. It is the
// base of the checkpoint and replaces its deltas (see checkpoints.go): one statement on
// Postgres, one transaction on SQLite.
func (s *Store) SaveExecutionState(ctx context.Context, id int64, owner string, data JSON) (bool, error) {
	var n int64
	if s.Dialect == Postgres {
		err := scanRaw(s.DB.WithContext(ctx).Raw(`WITH upd AS (UPDATE execution_data SET data = ? WHERE execution_id = ? AND EXISTS
		(SELECT 1 FROM executions WHERE id = ? AND status = ? AND lease_owner = ?) RETURNING execution_id),
		del AS (DELETE FROM execution_checkpoints WHERE execution_id IN (SELECT execution_id FROM upd))
		SELECT count(*) FROM upd`, data, id, id, workflow.StatusRunning, owner), &n)
		if err != nil {
			return false, fmt.Errorf("checkpoint execution %d: %w", id, err)
		}
		return n == 1, nil
	}
	err := s.writeOne(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(`UPDATE execution_data SET data = ? WHERE execution_id = ? AND EXISTS
		(SELECT 1 FROM executions WHERE id = ? AND status = ? AND lease_owner = ?)`, data, id, id, workflow.StatusRunning, owner)
		n = res.RowsAffected
		if res.Error != nil || n == 0 {
			return res.Error
		}
		return tx.Exec(`DELETE FROM execution_checkpoints WHERE execution_id = ?`, id).Error
	})
	if err != nil {
		return false, fmt.Errorf("checkpoint execution %d: %w", id, err)
	}
	return n == 1, nil
}

// Outcome is what the final write of a run records.
type Outcome struct {
	// Status is the final status, or waiting (until WaitTill).
	Status   workflow.Status
	WaitTill *time.Time
	// Data is the run data and resumable state (FinishExecution only).
	Data JSON
	// RetryOf is the execution the run retries, if any: its success is linked on the original.
	RetryOf *int64
	// Answer, when not nil, is the webhook answer of the run, kept in webhook_answers with the
	// outcome (the first answer of an execution stays) instead of in a write of its own.
	Answer []byte
}

// FinishExecution records the outcome of a run by owner: the final status (or waiting with
// out.WaitTill), the data and the webhook answer. It changes nothing unless the execution is
// still running under owner's lease, so a canceled or taken-over execution keeps the status it
// has. A retry that succeeded (out.RetryOf set, status success) is recorded on the original in
// the same transaction, so nobody ever sees the one without the other.
func (s *Store) FinishExecution(ctx context.Context, id int64, owner string, out Outcome) (bool, error) {
	now := time.Now().UTC()
	var stoppedAt *time.Time
	if out.Status != workflow.StatusWaiting {
		stoppedAt = &now
	}
	finished := out.Status == workflow.StatusSuccess
	original := retriedBy(out.Status, out.RetryOf)
	if s.Dialect == Postgres {
		// One statement, one round trip (two for a retry that succeeded): the data, the answer
		// and the original's link are written only when the status changed.
		args := []any{out.Status, out.WaitTill, stoppedAt, stoppedAt != nil, finished,
			id, workflow.StatusRunning, owner, out.Data, id, original}
		args, answer := keptAnswer(args, "fin", out.Answer, now)
		var n int64
		err := s.lockingOriginal(ctx, original, func(tx *gorm.DB) error {
			return scanRaw(tx.Raw(`WITH fin AS (`+finishRun+` RETURNING id),
		upd AS (UPDATE execution_data SET data = ? WHERE execution_id IN (SELECT id FROM fin) RETURNING execution_id),
		del AS (DELETE FROM execution_checkpoints WHERE execution_id IN (SELECT id FROM fin)),
		orig AS (UPDATE executions SET retry_success_id = ? WHERE id = ? AND EXISTS (SELECT 1 FROM fin) RETURNING id)`+answer+`
		SELECT count(*) FROM fin`, args...), &n)
		})
		if err != nil {
			return false, fmt.Errorf("finish execution %d: %w", id, err)
		}
		return n == 1, nil
	}
	var ok bool
	err := s.group.write(ctx, func(tx *gorm.DB) error {
		ok = false
		res := tx.Exec(finishRun, out.Status, out.WaitTill, stoppedAt, stoppedAt != nil, finished, id, workflow.StatusRunning, owner)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return nil
		}
		ok = true
		if err := tx.Exec(`DELETE FROM execution_checkpoints WHERE execution_id = ?`, id).Error; err != nil {
			return err
		}
		if err := tx.Exec(`UPDATE execution_data SET data = ? WHERE execution_id = ?`, out.Data, id).Error; err != nil {
			return err
		}
		if err := keepAnswer(tx, id, out.Answer, now); err != nil {
			return err
		}
		return setRetrySuccess(tx, original, id)
	})
	if err != nil {
		return false, fmt.Errorf("finish execution %d: %w", id, err)
	}
	return ok, nil
}

// finishRun records a run's outcome on its execution (arguments: status, wait_till, stopped_at
// or nil, whether it is set, finished, id, running, owner) unless the run lost its lease.
const finishRun = `UPDATE executions SET status = ?, lease_owner = '', lease_expires_at = NULL, wait_till = ?,
	stopped_at = COALESCE(?, stopped_at), finished = CASE WHEN ? THEN ? ELSE finished END
	WHERE id = ? AND status = ? AND lease_owner = ?`

// keptAnswer is the part of a Postgres final write that keeps answer (none when nil), as a CTE
// inserting for the row the CTE named from returns, with its arguments appended to args.
func keptAnswer(args []any, from string, answer []byte, now time.Time) ([]any, string) {
	if answer == nil {
		return args, ""
	}
	return append(args, string(answer), now), `,
		ans AS (INSERT INTO webhook_answers (execution_id, answer, created_at) SELECT id, CAST(? AS text), CAST(? AS timestamptz) FROM ` + from + `
			ON CONFLICT DO NOTHING)`
}

// keepAnswer keeps answer (none when nil) in the transaction tx of a final write.
func keepAnswer(tx *gorm.DB, id int64, answer []byte, now time.Time) error {
	if answer == nil {
		return nil
	}
	row := WebhookAnswer{ExecutionID: id, Answer: string(answer), CreatedAt: now}
	return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&row).Error
}

// lockingOriginal runs fn (a Postgres statement that finishes a retry of original) after
// locking the original's row, when there is one, in one transaction. CreateRetry locks that row
// before it inserts: taking it first here too keeps the two from waiting on each other (the
// insert waits for the retry's row, the finish for the original's).
func (s *Store) lockingOriginal(ctx context.Context, original int64, fn func(tx *gorm.DB) error) error {
	if original == 0 {
		return fn(s.DB.WithContext(ctx))
	}
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`SELECT id FROM executions WHERE id = ? FOR UPDATE`, original).Error; err != nil {
			return err
		}
		return fn(tx)
	})
}

// retriedBy is the original execution a run with status and retryOf succeeded for; 0 when none.
func retriedBy(status workflow.Status, retryOf *int64) int64 {
	if retryOf == nil || status != workflow.StatusSuccess {
		return 0
	}
	return *retryOf
}

// setRetrySuccess links the original execution (none when 0) to the retry that succeeded.
func setRetrySuccess(tx *gorm.DB, original, retry int64) error {
	if original == 0 {
		return nil
	}
	return tx.Model(&Execution{}).Where("id = ?", original).Update("retry_success_id", retry).Error
}

// DropExecution removes a run that owner finished and that is not to be kept, with its data,
// in one statement instead of recording the outcome first (out.Data is not used). Like
// FinishExecution it changes nothing unless the execution is still running under owner's
// lease, reports whether it did, and keeps the answer and records a retry's success on the
// original (out.RetryOf, when the status is success) in the same transaction.
func (s *Store) DropExecution(ctx context.Context, id int64, owner string, out Outcome) (bool, error) {
	// execution_data goes with its execution (ON DELETE CASCADE).
	const drop = `DELETE FROM executions WHERE id = ? AND status = ? AND lease_owner = ?`
	now := time.Now().UTC()
	original := retriedBy(out.Status, out.RetryOf)
	var n int64
	if s.Dialect == Postgres && (original != 0 || out.Answer != nil) {
		args, answer := keptAnswer([]any{id, workflow.StatusRunning, owner, id, original}, "del", out.Answer, now)
		err := s.lockingOriginal(ctx, original, func(tx *gorm.DB) error {
			return scanRaw(tx.Raw(`WITH del AS (`+drop+` RETURNING id),
			orig AS (UPDATE executions SET retry_success_id = ? WHERE id = ? AND EXISTS (SELECT 1 FROM del) RETURNING id)`+answer+`
			SELECT count(*) FROM del`, args...), &n)
		})
		if err != nil {
			return false, fmt.Errorf("drop execution %d: %w", id, err)
		}
		return n == 1, nil
	}
	err := s.writeOne(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(drop, id, workflow.StatusRunning, owner)
		n = res.RowsAffected
		if res.Error != nil || n != 1 {
			return res.Error
		}
		if err := keepAnswer(tx, id, out.Answer, now); err != nil {
			return err
		}
		return setRetrySuccess(tx, original, id)
	})
	if err != nil {
		return false, fmt.Errorf("drop execution %d: %w", id, err)
	}
	return n == 1, nil
}

// writeOne runs a single-statement write: on SQLite in a transaction shared with other writes,
// on Postgres on its own.
func (s *Store) writeOne(ctx context.Context, fn func(tx *gorm.DB) error) error {
	if s.group == nil {
		return fn(s.DB.WithContext(ctx))
	}
	return s.group.write(ctx, fn)
}

// ErrRetried means the execution was already retried successfully.
var ErrRetried = errors.New("execution already retried successfully")

// ErrRetryPending means a retry of the execution is still queued or running.
var ErrRetryPending = errors.New("a retry of the execution is still running")

// CreateRetry stores e, a retry of execution *e.RetryOf, with its data as CreateExecution does,
// unless the original was retried successfully meanwhile (ErrRetried) or another retry of it is
// still pending (ErrRetryPending, from the unique index on pending retries). The original's row
// is locked for the transaction, so a retry that finishes meanwhile is seen.
func (s *Store) CreateRetry(ctx context.Context, e *Execution, data *ExecutionData) error {
	if e.RetryOf == nil {
		return errors.New("create retry: RetryOf is required")
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now().UTC()
	}
	write := func(tx *gorm.DB) error {
		e.ID = 0
		var orig Execution
		q := tx.Select("id", "retry_success_id").Where("id = ?", *e.RetryOf)
		if s.Dialect == Postgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		if err := q.Take(&orig).Error; err != nil {
			return notFound(err, fmt.Sprintf("execution %d", *e.RetryOf))
		}
		if orig.RetrySuccessID != nil {
			return ErrRetried
		}
		if err := tx.Create(e).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return ErrRetryPending
			}
			return fmt.Errorf("create execution: %w", err)
		}
		data.ExecutionID = e.ID
		if err := tx.Create(data).Error; err != nil {
			return fmt.Errorf("create execution data: %w", err)
		}
		return nil
	}
	if s.Dialect == Postgres {
		return s.DB.WithContext(ctx).Transaction(write)
	}
	return s.group.write(ctx, write)
}
