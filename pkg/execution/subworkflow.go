package execution

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// subWorkflows gives each Execute Workflow child run an execution of its own (mode integrated),
// claimed by this worker for as long as the parent runs it.
type subWorkflows struct {
	r      *Runner
	mu     sync.Mutex
	active map[string]*subRun
}

type subRun struct {
	e     *store.Execution
	wf    *workflow.Workflow
	h     *hooks
	lease *lease
}

// subWorkflowsFor records the sub-workflow runs of a run that acts for userID.
type subWorkflowsFor struct {
	s      *subWorkflows
	userID string
}

func (f subWorkflowsFor) StartSubWorkflow(ctx context.Context, wf *workflow.Workflow) (engine.SubRun, error) {
	return f.s.start(ctx, wf, f.userID)
}

func (f subWorkflowsFor) FinishSubWorkflow(ctx context.Context, id string, res *engine.Result, runErr error) {
	f.s.finish(ctx, id, res, runErr)
}

// start records a sub-workflow run of a parent acting for parentUser. A saved workflow the
// parent's user may run acts for whom ActsFor says: a member's workflow called by the owner's
// gets the member's credentials, not the owner's. Any other sub-workflow acts for the parent's
// user; one given as JSON (source parameter, file or URL) may carry any id, so the record names
// a saved workflow only in the first case.
func (s *subWorkflows) start(ctx context.Context, wf *workflow.Workflow, parentUser string) (engine.SubRun, error) {
	r := s.r
	snapshot, err := json.Marshal(wf)
	if err != nil {
		return engine.SubRun{}, fmt.Errorf("encode sub-workflow snapshot: %w", err)
	}
	now := time.Now().UTC()
	expires := now.Add(r.cfg.LeaseTTL)
	e := &store.Execution{Status: workflow.StatusRunning, Mode: workflow.ModeIntegrated, WorkflowName: wf.Name, UserID: parentUser,
		LeaseOwner: r.newClaimToken(), LeaseExpiresAt: &expires, StartedAt: &now}
	if wf.ID != "" {
		u, _, err := (storeLoader{s: r.cfg.Store, userID: parentUser}).userAndDocument(ctx, wf.ID)
		switch {
		case err == nil:
			id := wf.ID
			e.WorkflowID = &id
			if e.UserID, err = ActsFor(ctx, r.cfg.Store, u, wf.ID); err != nil {
				return engine.SubRun{}, err
			}
		case !errors.Is(err, store.ErrNotFound):
			return engine.SubRun{}, err
		}
	}
	if err := r.cfg.Store.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: snapshot, StartData: store.JSON(`{}`)}); err != nil {
		return engine.SubRun{}, err
	}
	id := IDString(e.ID)
	run := &subRun{e: e, wf: wf, h: r.hooks(e, wf), lease: r.keepLease(ctx, e, func(error) {}, "")}
	s.mu.Lock()
	s.active[id] = run
	s.mu.Unlock()
	sub := engine.SubRun{ExecutionID: id, Hooks: []engine.Hook{run.h}}
	sub.Credentials, sub.Workflows, sub.SubWorkflows = r.actingFor(e.UserID)
	return sub, nil
}

func (s *subWorkflows) finish(ctx context.Context, id string, res *engine.Result, runErr error) {
	s.mu.Lock()
	run := s.active[id]
	delete(s.active, id)
	s.mu.Unlock()
	if run == nil {
		return
	}
	run.lease.end()
	var err error
	if res == nil {
		if runErr == nil {
			runErr = fmt.Errorf("the sub-workflow did not run")
		}
		err = s.r.fail(ctx, run.e, runErr)
	} else {
		err = s.r.finish(ctx, run.e, run.wf, res, run.h)
	}
	if err != nil {
		n, _ := strconv.ParseInt(id, 10, 64)
		s.r.log.Warn("record sub-workflow execution", "execution", n, "err", err)
	}
}
