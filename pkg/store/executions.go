package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// CreateExecution stores an execution and its data in one transaction and fills e.ID.
func (s *Store) CreateExecution(ctx context.Context, e *Execution, data *ExecutionData) error {
	return s.createExecution(ctx, e, data, false, nil)
}

// CreateOwnedExecution stores an execution as CreateExecution does, acting for the owner of its
// workflow: e.UserID is set to the user who owns e.WorkflowID (see WorkflowOwner), "" when it
// has none, read in the same statement instead of a round trip of its own.
func (s *Store) CreateOwnedExecution(ctx context.Context, e *Execution, data *ExecutionData) error {
	return s.createExecution(ctx, e, data, true, nil)
}

// CreateOwnedExecutionWithKey stores an execution as CreateOwnedExecution does and records it
// on the idempotency key claim in the same statement, so a call whose create committed although
// its answer was lost cannot give the key back (ReleaseIdempotencyKey leaves a key with an
// execution): a repeat replays this execution instead of starting another. claim.Recorded tells
// whether the claim was still the caller's.
func (s *Store) CreateOwnedExecutionWithKey(ctx context.Context, e *Execution, data *ExecutionData, claim *IdempotencyClaim) error {
	return s.createExecution(ctx, e, data, true, claim)
}

// IdempotencyClaim is a call's claim of an idempotency key (see ClaimIdempotencyKey).
type IdempotencyClaim struct {
	Scope, Key string
	ClaimedAt  time.Time
	// Recorded is set when the execution was recorded on the claim.
	Recorded bool
}

// ownerOfWorkflow selects the id of the owner of workflow ? (role ?), as WorkflowOwner finds it.
const ownerOfWorkflow = `SELECT u.id FROM users u JOIN shared_workflows sw ON sw.user_id = u.id
	WHERE sw.workflow_id = ? AND sw.role = ? LIMIT 1`

func (s *Store) createExecution(ctx context.Context, e *Execution, data *ExecutionData, owned bool, claim *IdempotencyClaim) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now().UTC()
	}
	insert, args := insertExecution(e, owned)
	var (
		id          int64
		userID      string
		keyRecorded bool
	)
	if s.Dialect == Postgres {
		// One statement is one round trip and one implicit transaction: both rows or neither.
		args = append(args, data.WorkflowData, data.StartData, data.Data)
		keyed, recorded := "", "false"
		if claim != nil {
			keyed = `,
		k AS (UPDATE idempotency_keys SET execution_id = (SELECT id FROM e)
			WHERE scope = ? AND key = ? AND execution_id IS NULL AND created_at = ? RETURNING 1)`
			recorded = "EXISTS (SELECT 1 FROM k)"
			args = append(args, claim.Scope, claim.Key, claim.ClaimedAt)
		}
		err := s.DB.WithContext(ctx).Raw(`WITH e AS (`+insert+`),
		d AS (INSERT INTO execution_data (execution_id, workflow_data, start_data, data) SELECT id, ?, ?, ? FROM e)`+keyed+`
		SELECT id, user_id, `+recorded+` FROM e`, args...).Row().Scan(&id, &userID, &keyRecorded)
		if err != nil {
			return fmt.Errorf("create execution: %w", err)
		}
	} else {
		// SQLite has no writing CTEs: the same insert, then the data, in a shared transaction.
		err := s.group.write(ctx, func(tx *gorm.DB) error {
			keyRecorded = false
			if err := tx.Raw(insert, args...).Row().Scan(&id, &userID); err != nil {
				return fmt.Errorf("create execution: %w", err)
			}
			if err := tx.Exec(`INSERT INTO execution_data (execution_id, workflow_data, start_data, data) VALUES (?, ?, ?, ?)`,
				id, data.WorkflowData, data.StartData, data.Data).Error; err != nil {
				return fmt.Errorf("create execution data: %w", err)
			}
			if claim == nil {
				return nil
			}
			res := tx.Exec(`UPDATE idempotency_keys SET execution_id = ? WHERE scope = ? AND key = ? AND execution_id IS NULL AND created_at = ?`,
				id, claim.Scope, claim.Key, claim.ClaimedAt)
			keyRecorded = res.RowsAffected == 1
			return res.Error
		})
		if err != nil {
			return err
		}
	}
	e.ID, e.UserID, data.ExecutionID = id, userID, id
	if claim != nil {
		claim.Recorded = keyRecorded
	}
	return nil
}

// insertExecution is the statement that inserts e and returns its id and user, with its
// arguments; with owned the user is the owner of e's workflow, read by the statement itself.
func insertExecution(e *Execution, owned bool) (string, []any) {
	user, userArgs := "?", []any{e.UserID}
	if owned {
		workflowID := ""
		if e.WorkflowID != nil {
			workflowID = *e.WorkflowID
		}
		user, userArgs = "COALESCE(("+ownerOfWorkflow+"), '')", []any{workflowID, WorkflowRoleOwner}
	}
	args := append(append([]any{e.WorkflowID, e.WorkflowName, e.Status, e.Mode, e.Finished, e.RetryOf, e.RetrySuccessID,
		e.SessionID}, userArgs...), e.LeaseOwner, e.LeaseExpiresAt, e.CreatedAt, e.StartedAt, e.StoppedAt, e.WaitTill)
	return `INSERT INTO executions (workflow_id, workflow_name, status, mode, finished, retry_of, retry_success_id,
		session_id, user_id, lease_owner, lease_expires_at, created_at, started_at, stopped_at, wait_till)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ` + user + `, ?, ?, ?, ?, ?, ?) RETURNING id, user_id`, args
}

// GetExecution returns the execution with id, or ErrNotFound.
func (s *Store) GetExecution(ctx context.Context, id int64) (*Execution, error) {
	var e Execution
	if err := s.DB.WithContext(ctx).Where("id = ?", id).Take(&e).Error; err != nil {
		return nil, notFound(err, fmt.Sprintf("execution %d", id))
	}
	return &e, nil
}

// GetExecutionData returns the data row of execution id, or ErrNotFound.
func (s *Store) GetExecutionData(ctx context.Context, id int64) (*ExecutionData, error) {
	var d ExecutionData
	if err := s.DB.WithContext(ctx).Where("execution_id = ?", id).Take(&d).Error; err != nil {
		return nil, notFound(err, fmt.Sprintf("execution data %d", id))
	}
	// A running (or interrupted) execution's checkpoint may have deltas: read it whole.
	deltas, err := s.checkpointDeltas(ctx, id)
	if err != nil {
		return nil, err
	}
	if d.Data, err = ApplyCheckpointDeltas(d.Data, deltas); err != nil {
		return nil, fmt.Errorf("execution data %d: %w", id, err)
	}
	return &d, nil
}

// TransitionExecution moves execution id to status to, but only from one of the statuses in
// from; it reports whether the row changed. This compare-and-set is what keeps a terminal status
// from ever regressing when cancel, finish and recovery race. Terminal statuses set stopped_at
// and finished (for success) and clear the lease.
func (s *Store) TransitionExecution(ctx context.Context, id int64, to workflow.Status, from ...workflow.Status) (bool, error) {
	updates := map[string]any{"status": to}
	for _, t := range workflow.TerminalStatuses {
		if to == t {
			now := time.Now().UTC()
			updates["stopped_at"] = now
			updates["finished"] = to == workflow.StatusSuccess
			updates["lease_owner"] = ""
			updates["lease_expires_at"] = nil
		}
	}
	res := s.DB.WithContext(ctx).Model(&Execution{}).
		Where("id = ? AND status IN ?", id, from).Updates(updates)
	if res.Error != nil {
		return false, fmt.Errorf("execution %d to %s: %w", id, to, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// ErrNotClaimable means a run holds a live lease on the execution, or it is not pending.
var ErrNotClaimable = errors.New("execution is not claimable")

// AcquireLease claims a pending execution for the run with claim token owner until now+ttl,
// marks it running and returns it, or ErrNotClaimable while any run (this process's included)
// holds a live lease on it. A claim of an execution left running under an expired lease (its
// worker died) counts a takeover.
func (s *Store) AcquireLease(ctx context.Context, id int64, owner string, ttl time.Duration) (*Execution, error) {
	now := time.Now().UTC()
	var claimed []Execution
	res := s.DB.WithContext(ctx).Model(&claimed).Clauses(clause.Returning{}).
		Where("id = ? AND status IN ?", id, workflow.PendingStatuses).
		Where("lease_expires_at IS NULL OR lease_expires_at < ?", now).
		Updates(map[string]any{
			"status":           workflow.StatusRunning,
			"lease_owner":      owner,
			"lease_expires_at": now.Add(ttl),
			"started_at":       gorm.Expr("COALESCE(started_at, ?)", now),
			"takeovers":        gorm.Expr(takeoverCount, workflow.StatusRunning),
		})
	if res.Error != nil {
		return nil, fmt.Errorf("lease execution %d: %w", id, res.Error)
	}
	if res.RowsAffected != 1 || len(claimed) != 1 {
		return nil, fmt.Errorf("lease execution %d: %w", id, ErrNotClaimable)
	}
	return &claimed[0], nil
}

// takeoverCount is the takeovers of a claimed row: one more when it was running under someone
// else's lease (a released lease, given back on a graceful stop, has no owner and is no
// takeover).
const takeoverCount = "takeovers + CASE WHEN status = ? AND lease_owner <> '' THEN 1 ELSE 0 END"

// RenewLease extends owner's lease on a running execution and records node as the node it is
// in (empty keeps the one recorded); false means the lease was lost.
func (s *Store) RenewLease(ctx context.Context, id int64, owner string, ttl time.Duration, node string) (bool, error) {
	updates := map[string]any{"lease_expires_at": time.Now().UTC().Add(ttl)}
	if node != "" {
		updates["running_node"] = node
	}
	res := s.DB.WithContext(ctx).Model(&Execution{}).
		Where("id = ? AND status = ? AND lease_owner = ?", id, workflow.StatusRunning, owner).
		Updates(updates)
	if res.Error != nil {
		return false, fmt.Errorf("renew lease of execution %d: %w", id, res.Error)
	}
	return res.RowsAffected == 1, nil
}

// ReleaseLease gives up owner's lease without changing the status, so another worker can take
// the execution over at once (used on graceful shutdown).
func (s *Store) ReleaseLease(ctx context.Context, id int64, owner string) error {
	return s.DB.WithContext(ctx).Model(&Execution{}).
		Where("id = ? AND lease_owner = ?", id, owner).
		Updates(map[string]any{"lease_owner": "", "lease_expires_at": nil}).Error
}

// OrphanedExecutions lists up to limit pending executions that no worker holds a live lease on,
// oldest first. Executions created within grace are left out: they are still being enqueued.
func (s *Store) OrphanedExecutions(ctx context.Context, grace time.Duration, limit int) ([]Execution, error) {
	now := time.Now().UTC()
	var out []Execution
	err := s.DB.WithContext(ctx).
		Where("status IN ?", workflow.PendingStatuses).
		Where("lease_expires_at IS NULL OR lease_expires_at < ?", now).
		Where("created_at < ?", now.Add(-grace)).
		Order("id").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list orphaned executions: %w", err)
	}
	return out, nil
}

// Claim is an execution a worker has just leased, with its data.
type Claim struct {
	Execution *Execution
	Data      *ExecutionData
	// Resumed tells that the execution had started before this claim (a worker taking over, a
	// wait resuming), so a stop request made meanwhile may not have reached anyone. SQLite
	// answers true always: the embedded process checks every claim.
	Resumed bool
	// TakenOver tells that the claim found the execution running under another run's expired
	// lease (its worker died): the claim counted a takeover.
	TakenOver bool
}

// ClaimExecution is AcquireLease plus the execution's data, in one round trip on Postgres: the
// first thing a worker does with every execution. owner is the run's claim token
// (random per claim, see package execution), which every later write of the run presents.
func (s *Store) ClaimExecution(ctx context.Context, id int64, owner string, ttl time.Duration) (*Claim, error) {
	if s.Dialect != Postgres {
		var before int
		_ = s.DB.WithContext(ctx).Model(&Execution{}).Where("id = ?", id).Select("takeovers").Scan(&before).Error
		e, err := s.AcquireLease(ctx, id, owner, ttl)
		if err != nil {
			return nil, err
		}
		d, err := s.GetExecutionData(ctx, id)
		if err != nil {
			return nil, err
		}
		return &Claim{Execution: e, Data: d, Resumed: true, TakenOver: e.Takeovers > before}, nil
	}
	now := time.Now().UTC()
	var rows []struct {
		Execution
		WorkflowData JSON
		StartData    JSON
		Data         JSON
		Checkpoints  JSON
		Resumed      bool
		// Before is the takeover count the statement's snapshot holds, from before the claim.
		TakeoversBefore int
	}
	// started_at keeps its first value: one that differs from this claim's time was set before.
	// The claim commits without waiting for the disk (synchronous_commit off for this statement's
	// transaction only): every later write of the run (checkpoint, result) waits for the disk and
	// so makes the claim durable first; a claim lost with a database crash before then leaves the
	// execution to be run again from its last checkpoint, as when a worker dies before its first.
	err := scanRaw(s.DB.WithContext(ctx).Raw(`WITH async AS (SELECT set_config('synchronous_commit', 'off', true)),
		c AS (
		UPDATE executions SET status = ?, lease_owner = ?, lease_expires_at = ?, started_at = COALESCE(started_at, ?),
			takeovers = `+takeoverCount+`
		WHERE id = ? AND status IN ? AND (lease_expires_at IS NULL OR lease_expires_at < ?)
		RETURNING *)
		SELECT c.*, d.workflow_data, d.start_data, d.data, c.started_at IS DISTINCT FROM ? AS resumed,
		(SELECT o.takeovers FROM executions o WHERE o.id = c.id) AS takeovers_before,
		(SELECT json_agg(k.data ORDER BY k.seq) FROM execution_checkpoints k WHERE k.execution_id = c.id) AS checkpoints
		FROM c JOIN execution_data d ON d.execution_id = c.id CROSS JOIN async`,
		workflow.StatusRunning, owner, now.Add(ttl), now, workflow.StatusRunning, id, workflow.PendingStatuses, now, now), &rows)
	if err != nil {
		return nil, fmt.Errorf("lease execution %d: %w", id, err)
	}
	if len(rows) != 1 {
		return nil, fmt.Errorf("lease execution %d: %w", id, ErrNotClaimable)
	}
	r := rows[0]
	if len(r.Checkpoints) > 0 {
		var raw []json.RawMessage
		if err := json.Unmarshal(r.Checkpoints, &raw); err != nil {
			return nil, fmt.Errorf("lease execution %d: checkpoints: %w", id, err)
		}
		deltas := make([]JSON, len(raw))
		for i, d := range raw {
			deltas[i] = JSON(d)
		}
		if r.Data, err = ApplyCheckpointDeltas(r.Data, deltas); err != nil {
			return nil, fmt.Errorf("lease execution %d: %w", id, err)
		}
	}
	// Every part of the statement reads one snapshot, so the subquery saw the row as it was.
	return &Claim{Execution: &r.Execution, Resumed: r.Resumed, TakenOver: r.Takeovers > r.TakeoversBefore,
		Data: &ExecutionData{ExecutionID: r.ID, WorkflowData: r.WorkflowData, StartData: r.StartData, Data: r.Data}}, nil
}
