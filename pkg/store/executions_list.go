package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// ExecutionFilter narrows execution listings. Zero fields do not filter.
type ExecutionFilter struct {
	WorkflowIDs []string // executions of these workflows (nil: any the caller may see)
	WorkflowID  string
	Statuses    []workflow.Status
	// Finished filters on the finished flag when set.
	Finished *bool
	// Waiting keeps only executions with a wait_till.
	Waiting bool
	// FirstID keeps ids above it, LastID ids below it (paging newest first).
	FirstID, LastID int64
	// Before keeps executions started (created) before it.
	Before *time.Time
	IDs    []int64
	// SharedWith keeps what a member with this user id may see: executions of workflows shared
	// with them, and executions that act for them (their runs of workflows never saved).
	SharedWith string
}

func (f ExecutionFilter) apply(q *gorm.DB) *gorm.DB {
	if f.WorkflowIDs != nil {
		q = q.Where("workflow_id IN ?", f.WorkflowIDs)
	}
	if f.WorkflowID != "" {
		q = q.Where("workflow_id = ?", f.WorkflowID)
	}
	if len(f.Statuses) > 0 {
		q = q.Where("status IN ?", f.Statuses)
	}
	if f.Finished != nil {
		q = q.Where("finished = ?", *f.Finished)
	}
	if f.Waiting {
		q = q.Where("wait_till IS NOT NULL")
	}
	if f.FirstID > 0 {
		q = q.Where("id > ?", f.FirstID)
	}
	if f.LastID > 0 {
		q = q.Where("id < ?", f.LastID)
	}
	if f.Before != nil {
		q = q.Where("created_at < ?", f.Before.UTC())
	}
	if f.IDs != nil {
		q = q.Where("id IN ?", f.IDs)
	}
	if f.SharedWith != "" {
		q = q.Where("(workflow_id IN (SELECT workflow_id FROM shared_workflows WHERE user_id = ?) OR user_id = ?)", f.SharedWith, f.SharedWith)
	}
	return q
}

func (f ExecutionFilter) empty() bool {
	return f.WorkflowIDs == nil && f.WorkflowID == "" && len(f.Statuses) == 0 && f.Finished == nil &&
		!f.Waiting && f.FirstID == 0 && f.LastID == 0 && f.Before == nil && f.IDs == nil && f.SharedWith == ""
}

// ListExecutions returns up to limit executions matching f, newest first.
func (s *Store) ListExecutions(ctx context.Context, f ExecutionFilter, limit int) ([]Execution, error) {
	var out []Execution
	err := f.apply(s.DB.WithContext(ctx).Model(&Execution{})).Order("id DESC").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list executions: %w", err)
	}
	return out, nil
}

// EstimateThreshold is the row count above which an unfiltered count comes from table
// statistics instead of a full count.
const EstimateThreshold = 100_000

// CountExecutions counts executions matching f. An unfiltered count on a large Postgres table is
// read from the planner's statistics (estimated=true) so the list stays fast.
func (s *Store) CountExecutions(ctx context.Context, f ExecutionFilter) (count int64, estimated bool, err error) {
	if f.empty() && s.Dialect == Postgres {
		var est float64
		err := s.DB.WithContext(ctx).Raw(
			"SELECT reltuples FROM pg_class WHERE oid = to_regclass('executions')").Scan(&est).Error
		if err == nil && est > EstimateThreshold {
			return int64(est), true, nil
		}
	}
	err = f.apply(s.DB.WithContext(ctx).Model(&Execution{})).Count(&count).Error
	if err != nil {
		return 0, false, fmt.Errorf("count executions: %w", err)
	}
	return count, false, nil
}

// pastStatuses are every status but the current (pending) ones.
var pastStatuses = append([]workflow.Status{workflow.StatusWaiting}, workflow.TerminalStatuses...)

// Past returns f limited to past executions, as n8n's list of past executions means a filter
// without a status list: waiting and ended ones, or only ended ones for the error filter
// (Finished false, not Waiting). It replaces f's Statuses.
func (f ExecutionFilter) Past() ExecutionFilter {
	f.Statuses = pastStatuses
	if f.Finished != nil && !*f.Finished && !f.Waiting {
		f.Statuses = workflow.TerminalStatuses
	}
	return f
}

// CountPastExecutions counts the executions f.Past() matches. When f filters nothing else it
// keeps CountExecutions' estimate for large tables (estimated=true), less the few current
// executions, so the list stays fast.
func (s *Store) CountPastExecutions(ctx context.Context, f ExecutionFilter) (count int64, estimated bool, err error) {
	past := f.Past()
	if f.WorkflowID != "" || f.Finished != nil || f.Waiting || f.SharedWith != "" {
		return s.CountExecutions(ctx, past)
	}
	count, estimated, err = s.CountExecutions(ctx, f)
	if err != nil {
		return 0, false, err
	}
	if !estimated {
		return s.CountExecutions(ctx, past)
	}
	current := f
	current.Statuses = workflow.PendingStatuses
	pending, _, err := s.CountExecutions(ctx, current)
	if err != nil {
		return 0, false, err
	}
	return max(count-pending, 0), true, nil
}

// DeleteExecutions deletes the executions matching f (their data goes with them) and returns
// their ids. It refuses an empty filter.
func (s *Store) DeleteExecutions(ctx context.Context, f ExecutionFilter) ([]int64, error) {
	if f.empty() {
		return nil, fmt.Errorf("delete executions: %w: no filter", ErrConflict)
	}
	var ids []int64
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := f.apply(tx.Model(&Execution{})).Pluck("id", &ids).Error; err != nil {
			return err
		}
		return deleteByIDs(tx, ids)
	})
	if err != nil {
		return nil, fmt.Errorf("delete executions: %w", err)
	}
	return ids, nil
}

func deleteByIDs(tx *gorm.DB, ids []int64) error {
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		if err := tx.Where("execution_id IN ?", chunk).Delete(&ExecutionData{}).Error; err != nil {
			return err
		}
		if err := tx.Where("id IN ?", chunk).Delete(&Execution{}).Error; err != nil {
			return err
		}
	}
	return nil
}

// DueWaitingExecutions lists waiting executions whose wait_till has come (before until).
func (s *Store) DueWaitingExecutions(ctx context.Context, until time.Time, limit int) ([]Execution, error) {
	var out []Execution
	err := s.DB.WithContext(ctx).Where("status = ? AND wait_till IS NOT NULL AND wait_till <= ?", workflow.StatusWaiting, until.UTC()).
		Order("wait_till").Limit(limit).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list due waiting executions: %w", err)
	}
	return out, nil
}

// DeleteExecution removes one execution and its data.
func (s *Store) DeleteExecution(ctx context.Context, id int64) error {
	return s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return deleteByIDs(tx, []int64{id}) })
}
