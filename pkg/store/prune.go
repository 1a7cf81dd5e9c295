package store

import (
	"context"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// PruneCutoff is the highest id among the executions beyond the newest keep ones: finished
// executions at or below it may be pruned by count. 0 when keep is 0 (no count limit) or there
// are no more than keep executions. An index-only walk down the primary key.
func (s *Store) PruneCutoff(ctx context.Context, keep int) (int64, error) {
	if keep <= 0 {
		return 0, nil
	}
	var ids []int64
	err := s.DB.WithContext(ctx).Model(&Execution{}).Order("id DESC").Offset(keep).Limit(1).Pluck("id", &ids).Error
	if err != nil {
		return 0, fmt.Errorf("prune executions: %w", err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	return ids[0], nil
}

// PruneExecutions deletes up to batch finished executions that stopped before olderThan, or, when
// none are left of those, up to batch finished executions with an id at most cutoff (see
// PruneCutoff; 0 for none), and returns how many it deleted. Each batch is one DELETE whose rows
// an index range scan finds (stopped_at, then the primary key); their data and checkpoints go
// with them (ON DELETE CASCADE). Call it until it returns 0: a batch is one short transaction.
func (s *Store) PruneExecutions(ctx context.Context, olderThan time.Time, cutoff int64, batch int) (int, error) {
	db := s.DB.WithContext(ctx)
	byAge := db.Model(&Execution{}).Select("id").Where("stopped_at < ? AND status IN ?", olderThan.UTC(), workflow.TerminalStatuses).
		Order("stopped_at").Limit(batch)
	res := db.Where("id IN (?)", byAge).Delete(&Execution{})
	if res.Error != nil {
		return 0, fmt.Errorf("prune executions by age: %w", res.Error)
	}
	if res.RowsAffected > 0 || cutoff <= 0 {
		return int(res.RowsAffected), nil
	}
	byCount := db.Model(&Execution{}).Select("id").Where("id <= ? AND status IN ?", cutoff, workflow.TerminalStatuses).
		Order("id").Limit(batch)
	res = db.Where("id IN (?)", byCount).Delete(&Execution{})
	if res.Error != nil {
		return 0, fmt.Errorf("prune executions by count: %w", res.Error)
	}
	return int(res.RowsAffected), nil
}

// ReleaseFreeSpace gives the pages that deletions freed back to the file system on SQLite (the
// file is in incremental auto-vacuum mode, see Open) and truncates the write-ahead log, so the
// files shrink after pruning. Postgres reuses the space itself (autovacuum): nothing to do there.
func (s *Store) ReleaseFreeSpace(ctx context.Context) error {
	if s.Dialect != SQLite {
		return nil
	}
	// The pragma frees one page per step of the statement: read it to the end.
	rows, err := s.sqlDB.QueryContext(ctx, "PRAGMA incremental_vacuum")
	if err != nil {
		return fmt.Errorf("release free pages: %w", err)
	}
	for rows.Next() {
	}
	if err := rows.Err(); err != nil {
		_ = rows.Close()
		return fmt.Errorf("release free pages: %w", err)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("release free pages: %w", err)
	}
	// The write-ahead log holds the pages the deletes and the vacuum wrote; copy them into the
	// file and cut the log back to nothing, or it stays as large as the biggest prune.
	if err := s.sqlDB.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(new(int), new(int), new(int)); err != nil {
		return fmt.Errorf("checkpoint the write-ahead log: %w", err)
	}
	return nil
}
