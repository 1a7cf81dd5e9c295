package store

import (
	"context"
	"errors"
	"sync"

	"gorm.io/gorm"
)

// groupCommit runs the execution writes of many callers in one SQLite transaction. SQLite has
// one writer at a time and its commit writes every page the transaction changed to the
// write-ahead log; executions stored at once change the same table and index pages, so one
// commit for all of them writes each page once instead of once per execution. Writes that arrive
// while a transaction is running wait for it anyway (one connection): they form the next group,
// so a lone write is not delayed.
type groupCommit struct {
	db   *gorm.DB
	jobs chan *writeJob
	quit chan struct{}
	done chan struct{}
	once sync.Once
}

// writeJob is one caller's part of a group: fn runs inside the group's transaction.
type writeJob struct {
	fn     func(tx *gorm.DB) error
	result chan error
}

// maxGroup bounds how many writes share one transaction.
const maxGroup = 64

// errStoreClosed is returned for writes submitted after Close.
var errStoreClosed = errors.New("store closed")

func newGroupCommit(db *gorm.DB) *groupCommit {
	g := &groupCommit{db: db, jobs: make(chan *writeJob), quit: make(chan struct{}), done: make(chan struct{})}
	go g.loop()
	return g
}

// write runs fn in a transaction shared with other writes and returns its outcome. fn must only
// write through tx, and may run twice: when another write of its group fails, the group is rolled
// back and each write is tried again in a transaction of its own.
func (g *groupCommit) write(ctx context.Context, fn func(tx *gorm.DB) error) error {
	job := &writeJob{fn: fn, result: make(chan error, 1)}
	select {
	case g.jobs <- job:
	case <-g.quit:
		return errStoreClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once handed over the write happens: wait for it whatever ctx does.
	return <-job.result
}

func (g *groupCommit) loop() {
	defer close(g.done)
	for {
		var first *writeJob
		select {
		case first = <-g.jobs:
		case <-g.quit:
			return
		}
		group := []*writeJob{first}
	more:
		for len(group) < maxGroup {
			select {
			case j := <-g.jobs:
				group = append(group, j)
			default:
				break more
			}
		}
		g.run(group)
	}
}

func (g *groupCommit) run(group []*writeJob) {
	ctx := context.Background()
	err := g.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for _, j := range group {
			if err := j.fn(tx); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || len(group) == 1 {
		for _, j := range group {
			j.result <- err
		}
		return
	}
	// One write failed: the others must not fail with it.
	for _, j := range group {
		j.result <- g.db.WithContext(ctx).Transaction(j.fn)
	}
}

// stop ends the loop once the group being written is done; later writes get errStoreClosed.
func (g *groupCommit) stop() {
	g.once.Do(func() {
		close(g.quit)
		<-g.done
	})
}
