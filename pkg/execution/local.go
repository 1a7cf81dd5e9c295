package execution

import (
	"context"
	"sync"
	"time"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// localRuns bounds how many executions a runner runs at once in its process, whether they came
// from the queue or were started here directly (createHere), and tracks the direct ones so a
// shutdown can wait for them.
type localRuns struct {
	slots chan struct{}
	// grace is how long stop lets direct runs finish before their context is canceled.
	grace time.Duration

	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup
	// ctx is the task context of direct runs; canceled once grace has passed on stop.
	ctx    context.Context
	cancel context.CancelFunc
}

func newLocalRuns(concurrency int, grace time.Duration) *localRuns {
	ctx, cancel := context.WithCancel(context.Background())
	return &localRuns{slots: make(chan struct{}, max(concurrency, 1)), grace: grace, ctx: ctx, cancel: cancel}
}

// acquire waits for a slot (a queued task blocks here while direct runs fill the process).
func (l *localRuns) acquire(ctx context.Context) (func(), error) {
	select {
	case l.slots <- struct{}{}:
		return func() { <-l.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// slotWait is how long a direct run waits for a busy runner before its execution goes to the
// queue instead: short runs free their slots within it, long ones are better off queued.
const slotWait = 100 * time.Millisecond

// tryStart takes a slot for a direct run, waiting up to slotWait; false when none came free,
// or the runner is stopping. done must be called when the run ends.
func (l *localRuns) tryStart(ctx context.Context) (done func(), ok bool) {
	l.mu.Lock()
	if l.stopped {
		l.mu.Unlock()
		return nil, false
	}
	l.wg.Add(1) // before Unlock: stop waits for this run from now on
	l.mu.Unlock()
	t := time.NewTimer(slotWait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return func() {
			<-l.slots
			l.wg.Done()
		}, true
	case <-t.C:
	case <-ctx.Done():
	case <-l.ctx.Done():
	}
	l.wg.Done()
	return nil, false
}

// stop refuses new direct runs and waits for the running ones; after grace their context is
// canceled, which makes them hand their execution back (lease released, last checkpoint kept).
func (l *localRuns) stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
	finished := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(l.grace):
		l.cancel()
		<-finished
	}
	l.cancel()
}

// createHere stores an execution already claimed by r and runs it in this process, without the
// queue round trip. handled is false when nothing was stored and the caller must queue it:
// under a production concurrency limit (counted per queued task), or when every slot stayed
// busy for slotWait, or the runner is stopping. A process that dies mid-run leaves the execution running under an
// expiring lease, which the reconciler hands to a worker as it does for a dead worker's. With
// owned the execution acts for its workflow's owner, read in the storing transaction
// (store.CreateOwnedExecution).
func (r *Runner) createHere(ctx context.Context, e *store.Execution, d *store.ExecutionData, owned bool, stored func(*store.Execution)) (handled bool, err error) {
	if r.slots != nil {
		return false, nil
	}
	done, ok := r.here.tryStart(ctx)
	if !ok {
		return false, nil
	}
	now := time.Now().UTC()
	expires := now.Add(r.cfg.LeaseTTL)
	e.Status, e.LeaseOwner, e.LeaseExpiresAt, e.StartedAt = workflow.StatusRunning, r.newClaimToken(), &expires, &now
	create := r.cfg.Store.CreateExecution
	if owned {
		create = r.cfg.Store.CreateOwnedExecution
	}
	if err := create(ctx, e, d); err != nil {
		done()
		return true, err
	}
	if stored != nil {
		stored(e)
	}
	go func() {
		defer done()
		runCtx, cancel, end := r.tracked(r.here.ctx, e.ID)
		defer end()
		// A stop asked between storing the execution and tracking it was heard by this
		// process's stop listener, which kept it for the tracking (see Runner.cancel).
		if err := r.run(r.here.ctx, runCtx, cancel, e, d, false, ""); err != nil {
			r.log.Warn("run execution", "execution", e.ID, "err", err)
		}
	}()
	return true, nil
}

// DeliverAnswersHere hands the answers of webhook executions run by r to deliver first: it
// reports whether a request of this process was waiting for the answer, and only when none
// was does the answer go out through Redis. Set before the runner starts.
func (r *Runner) DeliverAnswersHere(deliver func(WebhookAnswer) bool) { r.answered = deliver }
