package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

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
		err := s.DB.WithContext(ctx).Raw(`WITH upd AS (UPDATE execution_data SET data = ? WHERE execution_id = ? AND EXISTS
		(SELECT 1 FROM executions WHERE id = ? AND status = ? AND lease_owner = ?) RETURNING execution_id),
		del AS (DELETE FROM execution_checkpoints WHERE execution_id IN (SELECT execution_id FROM upd))
		SELECT count(*) FROM upd`, data, id, id, workflow.StatusRunning, owner).Scan(&n).Error
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

// FinishExecution records the outcome of a run by owner: the final status (or waiting with
// waitTill), and the data. It changes nothing unless the execution is still running under
// owner's lease, so a canceled or taken-over execution keeps the status it has.
func (s *Store) FinishExecution(ctx context.Context, id int64, owner string, status workflow.Status, waitTill *time.Time, data JSON) (bool, error) {
	now := time.Now().UTC()
	var stoppedAt *time.Time
	if status != workflow.StatusWaiting {
		stoppedAt = &now
	}
	finished := status == workflow.StatusSuccess
	if s.Dialect == Postgres {
		// One statement, one round trip: the data is written only when the status changed.
		var n int64
		err := s.DB.WithContext(ctx).Raw(`WITH fin AS (
			UPDATE executions SET status = ?, lease_owner = '', lease_expires_at = NULL, wait_till = ?,
				stopped_at = COALESCE(?, stopped_at), finished = CASE WHEN ? THEN ? ELSE finished END
			WHERE id = ? AND status = ? AND lease_owner = ? RETURNING id),
		upd AS (UPDATE execution_data SET data = ? WHERE execution_id IN (SELECT id FROM fin) RETURNING execution_id),
		del AS (DELETE FROM execution_checkpoints WHERE execution_id IN (SELECT id FROM fin))
		SELECT count(*) FROM fin`, status, waitTill, stoppedAt, stoppedAt != nil, finished,
			id, workflow.StatusRunning, owner, data).Scan(&n).Error
		if err != nil {
			return false, fmt.Errorf("finish execution %d: %w", id, err)
		}
		return n == 1, nil
	}
	var ok bool
	err := s.group.write(ctx, func(tx *gorm.DB) error {
		ok = false
		updates := map[string]any{"status": status, "lease_owner": "", "lease_expires_at": nil, "wait_till": waitTill}
		if stoppedAt != nil {
			updates["stopped_at"] = now
			updates["finished"] = finished
		}
		res := tx.Model(&Execution{}).Where("id = ? AND status = ? AND lease_owner = ?", id, workflow.StatusRunning, owner).Updates(updates)
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
		return tx.Model(&ExecutionData{}).Where("execution_id = ?", id).Update("data", data).Error
	})
	if err != nil {
		return false, fmt.Errorf("finish execution %d: %w", id, err)
	}
	return ok, nil
}

// DropExecution removes a run that owner finished and that is not to be kept, with its data,
// in one statement instead of recording the outcome first. Like FinishExecution it changes
// nothing unless the execution is still running under owner's lease, and reports whether it did.
func (s *Store) DropExecution(ctx context.Context, id int64, owner string) (bool, error) {
	// execution_data goes with its execution (ON DELETE CASCADE).
	const drop = `DELETE FROM executions WHERE id = ? AND status = ? AND lease_owner = ?`
	var n int64
	err := s.writeOne(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(drop, id, workflow.StatusRunning, owner)
		n = res.RowsAffected
		return res.Error
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

// SetRetrySuccess records on the original execution that retry succeeded.
func (s *Store) SetRetrySuccess(ctx context.Context, original, retry int64) error {
	return s.DB.WithContext(ctx).Model(&Execution{}).Where("id = ?", original).Update("retry_success_id", retry).Error
}
