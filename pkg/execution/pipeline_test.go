package execution_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestRunSendsProgressInOrderAndSavesResult(t *testing.T) {
	e := setup(t, "FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true")
	client := e.hub.Connect("editor")
	wf := build(t, "order", "", start, set, code("Code", `console.log("seen", $input.all().length); return [{json: {b: $input.first().json.a + 1}}];`))
	ex := e.run(t, wf, "manual", "editor")
	done := e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusSuccess, done.Status)
	require.True(t, done.Finished)
	require.NotNil(t, done.StoppedAt)

	var types, nodes []string
	for len(types) == 0 || types[len(types)-1] != push.TypeExecutionFinished {
		m := nextPush(t, client, types)
		if m.Type != push.TypeSendConsoleMessage {
			require.Equal(t, execution.IDString(ex.ID), m.Data["executionId"], "every message names the execution")
		}
		types = append(types, m.Type)
		if m.Type == push.TypeNodeExecuteBefore || m.Type == push.TypeNodeExecuteAfter {
			nodes = append(nodes, m.Data["nodeName"].(string))
		}
		if m.Type == push.TypeSendConsoleMessage {
			require.Equal(t, `Node: "Code"`, m.Data["source"])
			require.Equal(t, []any{"seen", float64(1)}, m.Data["messages"])
		}
	}
	require.Equal(t, []string{"executionStarted",
		"nodeExecuteBefore", "nodeExecuteAfter", "nodeExecuteBefore", "nodeExecuteAfter",
		"nodeExecuteBefore", "sendConsoleMessage", "nodeExecuteAfter", "executionFinished"}, types)
	require.Equal(t, []string{"Start", "Start", "Set", "Set", "Code", "Code"}, nodes)

	out := nodeOutput(t, e.state(t, ex.ID), "Code")
	require.Equal(t, map[string]any{"b": float64(2)}, out[0].(map[string]any)["json"])
}

func TestManualRunsAreNotKeptByDefault(t *testing.T) {
	e := setup(t)
	ex := e.run(t, build(t, "unsaved", "", start, set), "manual", "")
	require.Eventually(t, func() bool {
		_, err := e.in.Store.GetExecution(context.Background(), ex.ID)
		return err != nil
	}, 10*time.Second, 20*time.Millisecond, "an unsaved manual run is deleted once finished")
}

func TestSaveSettingsPerWorkflow(t *testing.T) {
	e := setup(t)
	ok := e.run(t, build(t, "ok", `{"saveDataSuccessExecution":"none"}`, start, set), "trigger", "")
	fail := e.run(t, build(t, "fail", `{"saveDataSuccessExecution":"none"}`, start, code("Code", `throw new Error("boom")`)), "trigger", "")
	done := e.wait(t, fail.ID)
	require.Equal(t, workflow.StatusError, done.Status)
	require.False(t, done.Finished)
	require.Eventually(t, func() bool {
		_, err := e.in.Store.GetExecution(context.Background(), ok.ID)
		return err != nil
	}, 10*time.Second, 20*time.Millisecond, "success is not kept when saveDataSuccessExecution is none")
	state := e.state(t, fail.ID)
	require.Contains(t, state["resultData"].(map[string]any)["error"].(map[string]any)["message"], "boom")

	keep := e.run(t, build(t, "kept", `{"saveManualExecutions":true}`, start, set), "manual", "")
	require.Equal(t, workflow.StatusSuccess, e.wait(t, keep.ID).Status)
}

func TestStopBusyCodeNode(t *testing.T) {
	e := setup(t)
	ex := e.run(t, build(t, "busy", "", start, code("Code", `while (true) {}`)), "trigger", "")
	require.Eventually(t, func() bool {
		got, err := e.in.Store.GetExecution(context.Background(), ex.ID)
		return err == nil && got.Status == workflow.StatusRunning
	}, 10*time.Second, 10*time.Millisecond)
	began := time.Now()
	stopped, err := e.svc.Stop(context.Background(), ex.ID, 5*time.Second)
	require.NoError(t, err)
	require.Less(t, time.Since(began), 2*time.Second, "stop takes effect within 2 s")
	require.Equal(t, workflow.StatusCanceled, stopped.Status)
	require.NotNil(t, stopped.StoppedAt)

	// The slot is free again: the next run finishes.
	next := e.run(t, build(t, "after", "", start, set), "trigger", "")
	require.Equal(t, workflow.StatusSuccess, e.wait(t, next.ID).Status)

	_, err = e.svc.Stop(context.Background(), ex.ID, time.Second)
	require.ErrorIs(t, err, execution.ErrNotStoppable)
}

// The editor that started a run it then stops hears how the interrupted node ended before the
// run's end: the node's message goes out although the run's context is cancelled.
func TestStoppedRunStillTellsTheEditorItsNode(t *testing.T) {
	e := setup(t, "FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true")
	client := e.hub.Connect("stopper")
	ex := e.run(t, build(t, "busy", "", start, code("Code", `while (true) {}`)), "manual", "stopper")
	require.Eventually(t, func() bool {
		got, err := e.in.Store.GetExecution(context.Background(), ex.ID)
		return err == nil && got.Status == workflow.StatusRunning
	}, 10*time.Second, 10*time.Millisecond)
	stopped, err := e.svc.Stop(context.Background(), ex.ID, 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusCanceled, stopped.Status)

	var after []string
	for m := nextPush(t, client, after); m.Type != push.TypeExecutionFinished; m = nextPush(t, client, after) {
		if m.Type == push.TypeNodeExecuteAfter {
			after = append(after, m.Data["nodeName"].(string))
		}
	}
	require.Equal(t, []string{"Start", "Code"}, after, "the stopped node's end is told before the run's")
}

// pushMessage is a push message as the editor reads it.
type pushMessage struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

// nextPush returns the next message client receives; seen, what came so far, is reported when
// none comes within 10 s.
func nextPush(t *testing.T, client *push.Client, seen []string) pushMessage {
	t.Helper()
	select {
	case b := <-client.Messages():
		var m pushMessage
		require.NoError(t, json.Unmarshal(b, &m))
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("push stopped after %v", seen)
		return pushMessage{}
	}
}

func TestTimeoutFailsTheExecution(t *testing.T) {
	e := setup(t)
	ex := e.run(t, build(t, "slow", `{"executionTimeout":1}`, start, code("Code", `while (true) {}`)), "trigger", "")
	done := e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusError, done.Status)
	require.Contains(t, e.state(t, ex.ID)["resultData"].(map[string]any)["error"].(map[string]any)["message"], "timed out")
}

func TestWaitingExecutionResumesAndCanBeStopped(t *testing.T) {
	e := setup(t)
	waitNode := node{name: "Wait", typ: "n8n-nodes-base.wait", params: `{"amount":2,"unit":"minutes"}`}
	ex := e.run(t, build(t, "waits", "", start, waitNode, set), "trigger", "")
	waiting := e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusWaiting, waiting.Status)
	require.NotNil(t, waiting.WaitTill)
	require.WithinDuration(t, time.Now().Add(2*time.Minute), *waiting.WaitTill, 10*time.Second)

	// Not due yet: nothing happens.
	n, err := execution.ResumeDue(context.Background(), e.in.Store, e.in.Queue, time.Now())
	require.NoError(t, err)
	require.Zero(t, n)
	// Due: it is queued and finishes after the Wait node without running Start again.
	n, err = execution.ResumeDue(context.Background(), e.in.Store, e.in.Queue, time.Now().Add(3*time.Minute))
	require.NoError(t, err)
	require.Equal(t, 1, n)
	done := e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusSuccess, done.Status)
	state := e.state(t, ex.ID)
	runData := state["resultData"].(map[string]any)["runData"].(map[string]any)
	require.Len(t, runData["Start"], 1)
	require.Len(t, runData["Set"], 1)

	second := e.run(t, build(t, "waits-again", "", start, waitNode, set), "trigger", "")
	require.Equal(t, workflow.StatusWaiting, e.wait(t, second.ID).Status)
	stopped, err := e.svc.Stop(context.Background(), second.ID, time.Second)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusCanceled, stopped.Status)
	n, err = execution.ResumeDue(context.Background(), e.in.Store, e.in.Queue, time.Now().Add(time.Hour))
	require.NoError(t, err)
	require.Zero(t, n, "a canceled wait is never resumed")
}

func TestRetryContinuesFromTheFailedNode(t *testing.T) {
	e := setup(t)
	wf := build(t, "retry", "", start, set, code("Code", `throw new Error("not yet")`))
	save(t, e, wf)
	ex := e.run(t, wf, "trigger", "")
	require.Equal(t, workflow.StatusError, e.wait(t, ex.ID).Status)

	// Retrying the stored snapshot fails the same way.
	again, err := e.svc.Retry(context.Background(), ex.ID, false)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusError, e.wait(t, again.ID).Status)
	require.Equal(t, ex.ID, *again.RetryOf)

	// Fix the saved workflow and retry with it: Start and Set are not run again.
	fixed := build(t, "retry", "", start, set, code("Code", `return [{json: {fixed: true, a: $input.first().json.a}}]`))
	b, _ := json.Marshal(fixed)
	var doc struct {
		Nodes json.RawMessage `json:"nodes"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	require.NoError(t, e.in.Store.DB.Model(&store.Workflow{}).Where("id = ?", wf.ID).Update("nodes", store.JSON(doc.Nodes)).Error)
	ok, err := e.svc.Retry(context.Background(), ex.ID, true)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, e.wait(t, ok.ID).Status)
	state := e.state(t, ok.ID)
	runData := state["resultData"].(map[string]any)["runData"].(map[string]any)
	require.Len(t, runData["Set"], 1, "Set ran once, in the original execution")
	require.Equal(t, map[string]any{"fixed": true, "a": float64(1)}, nodeOutput(t, state, "Code")[0].(map[string]any)["json"])

	orig, err := e.in.Store.GetExecution(context.Background(), ex.ID)
	require.NoError(t, err)
	require.Equal(t, ok.ID, *orig.RetrySuccessID)
	_, err = e.svc.Retry(context.Background(), ex.ID, false)
	var re *execution.RetryError
	require.ErrorAs(t, err, &re, "an execution retried successfully is not retried again")
	_, err = e.svc.Retry(context.Background(), ok.ID, false)
	require.ErrorAs(t, err, &re, "a successful execution cannot be retried")
}

func TestErrorWorkflowReceivesTheFailure(t *testing.T) {
	e := setup(t)
	handler := build(t, "on-error", "",
		node{name: "Error Trigger", typ: "n8n-nodes-base.errorTrigger"},
		code("Report", `const j = $input.first().json; return [{json: {failed: j.workflow.name, message: j.execution.error.message, node: j.execution.lastNodeExecuted, mode: j.execution.mode}}]`))
	member := newUser(t, e, store.RoleMember)
	saveFor(t, e, handler, member.ID)
	failing := build(t, "fails", `{"errorWorkflow":"`+handler.ID+`"}`, start, code("Broken", `throw new Error("kaput")`))
	saveFor(t, e, failing, member.ID)
	ex := e.run(t, failing, "trigger", "")
	require.Equal(t, workflow.StatusError, e.wait(t, ex.ID).Status)

	var errRun store.Execution
	require.Eventually(t, func() bool {
		return e.in.Store.DB.Where("mode = ? AND status IN ?", workflow.ModeError, workflow.TerminalStatuses).Take(&errRun).Error == nil
	}, 10*time.Second, 20*time.Millisecond, "the error workflow ran")
	require.Equal(t, workflow.StatusSuccess, errRun.Status, "%v", e.state(t, errRun.ID)["resultData"])
	require.Equal(t, handler.ID, *errRun.WorkflowID)
	out := nodeOutput(t, e.state(t, errRun.ID), "Report")
	got := out[0].(map[string]any)["json"].(map[string]any)
	require.Equal(t, "fails", got["failed"])
	require.Contains(t, got["message"], "kaput")
	require.Equal(t, "Broken", got["node"])
	require.Equal(t, "trigger", got["mode"])
}

func TestUnreadableOrUnstartableWorkflowFailsClearly(t *testing.T) {
	e := setup(t)
	wf := build(t, "unknown", "", start, node{name: "Mystery", typ: "n8n-nodes-base.doesNotExist"})
	ex := e.run(t, wf, "trigger", "")
	require.Equal(t, workflow.StatusError, e.wait(t, ex.ID).Status)
	errObj := e.state(t, ex.ID)["resultData"].(map[string]any)["error"].(map[string]any)
	require.Contains(t, errObj["message"], "doesNotExist")
	require.Equal(t, "Mystery", errObj["node"])
}

func TestPruneByAgeAndCount(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	old := time.Now().Add(-30 * 24 * time.Hour)
	for i := range 7 {
		stopped := time.Now()
		if i < 3 {
			stopped = old
		}
		ex := &store.Execution{Status: workflow.StatusSuccess, Mode: "trigger", StoppedAt: &stopped, Finished: true}
		require.NoError(t, e.in.Store.CreateExecution(ctx, ex, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	}
	running := &store.Execution{Status: workflow.StatusRunning, Mode: "trigger", LeaseOwner: "w"}
	require.NoError(t, e.in.Store.CreateExecution(ctx, running, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))

	n, err := execution.Prune(ctx, e.in.Store, time.Now().Add(-14*24*time.Hour), 0)
	require.NoError(t, err)
	require.Equal(t, 3, n, "the three old executions go")
	n, err = execution.Prune(ctx, e.in.Store, time.Now().Add(-14*24*time.Hour), 2)
	require.NoError(t, err)
	require.Equal(t, 3, n, "beyond the newest two (one of them running), finished ones go")
	count, _, err := e.in.Store.CountExecutions(ctx, store.ExecutionFilter{})
	require.NoError(t, err)
	require.EqualValues(t, 2, count)
	_, err = e.in.Store.GetExecution(ctx, running.ID)
	require.NoError(t, err, "running executions are never pruned")
}

func TestProductionConcurrencyLimit(t *testing.T) {
	e := setup(t, "FLOWMILL_CONCURRENCY_PRODUCTION_LIMIT", "1")
	ctx := context.Background()
	busy := build(t, "busy", "", start, code("Code", `while (true) {}`))
	first := e.run(t, busy, "trigger", "")
	require.Eventually(t, func() bool {
		got, err := e.in.Store.GetExecution(ctx, first.ID)
		return err == nil && got.Status == workflow.StatusRunning
	}, 10*time.Second, 10*time.Millisecond)

	// A second production run waits in the queue while the slot is taken.
	second := e.run(t, build(t, "quick", "", start, set), "trigger", "")
	// A manual run is exempt and finishes meanwhile.
	manual := e.run(t, build(t, "manual", `{"saveManualExecutions":true}`, start, set), "manual", "")
	require.Equal(t, workflow.StatusSuccess, e.wait(t, manual.ID).Status)
	got, err := e.in.Store.GetExecution(ctx, second.ID)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusQueued, got.Status, "the second production run is held back")

	_, err = e.svc.Stop(ctx, first.ID, 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, e.wait(t, second.ID).Status, "it runs once the slot is free")
}

func TestSubWorkflowRunsAsItsOwnExecution(t *testing.T) {
	e := setup(t)
	owner := newUser(t, e, store.RoleOwner)
	child := build(t, "child", "", start, code("Double", `return $input.all().map(i => ({json: {v: (i.json.a || 0) * 2}}))`))
	saveFor(t, e, child, owner.ID)
	parent := build(t, "parent", "", start, set,
		node{name: "Call", typ: "n8n-nodes-base.executeWorkflow", params: `{"source":"database","workflowId":"` + child.ID + `"}`})
	ex, err := e.svc.Create(context.Background(), execution.New{Workflow: parent, Mode: "trigger", UserID: owner.ID})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, e.wait(t, ex.ID).Status)
	require.Equal(t, map[string]any{"v": float64(2)}, nodeOutput(t, e.state(t, ex.ID), "Call")[0].(map[string]any)["json"])

	var sub store.Execution
	require.NoError(t, e.in.Store.DB.Where("mode = ?", "integrated").Take(&sub).Error)
	require.Equal(t, child.ID, *sub.WorkflowID)
	require.Equal(t, owner.ID, sub.UserID, "the sub-workflow acts for the parent's user")
	require.Equal(t, workflow.StatusSuccess, sub.Status)
	require.Empty(t, sub.LeaseOwner)
	require.Equal(t, map[string]any{"v": float64(2)}, nodeOutput(t, e.state(t, sub.ID), "Double")[0].(map[string]any)["json"])
}

// TestSubWorkflowOnlyOfWhatTheUserMayRun runs Execute Workflow (source database) for each kind
// of acting user: the instance owner may run any workflow, a member only their own, a run that
// acts for nobody none; a refusal reads the same as a workflow that does not exist.
func TestSubWorkflowOnlyOfWhatTheUserMayRun(t *testing.T) {
	e := setup(t)
	owner := newUser(t, e, store.RoleOwner)
	member := newUser(t, e, store.RoleMember)
	ownersChild := build(t, "owners", "", start, code("Secret", `return [{json: {secret: "owner data"}}]`))
	saveFor(t, e, ownersChild, owner.ID)
	membersChild := build(t, "members", "", start, code("Mine", `return [{json: {mine: true}}]`))
	saveFor(t, e, membersChild, member.ID)

	cases := []struct {
		name, userID, childID string
		wantErr               string
	}{
		{"owner runs the owner's", owner.ID, ownersChild.ID, ""},
		{"owner runs a member's", owner.ID, membersChild.ID, ""},
		{"member runs their own", member.ID, membersChild.ID, ""},
		{"member runs the owner's", member.ID, ownersChild.ID, "Workflow " + ownersChild.ID + " could not be found or you may not run it."},
		{"member names a missing id", member.ID, "missing-id", "Workflow missing-id could not be found or you may not run it."},
		{"nobody runs the owner's", "", ownersChild.ID, "Workflow " + ownersChild.ID + " could not be found or you may not run it."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			parent := build(t, "parent "+tc.name, `{"saveDataErrorExecution":"all","saveDataSuccessExecution":"all"}`, start,
				node{name: "Call", typ: "n8n-nodes-base.executeWorkflow", params: `{"source":"database","workflowId":"` + tc.childID + `"}`})
			ex, err := e.svc.Create(context.Background(), execution.New{Workflow: parent, Mode: "trigger", UserID: tc.userID})
			require.NoError(t, err)
			require.Equal(t, tc.userID, ex.UserID)
			done := e.wait(t, ex.ID)
			state := e.state(t, ex.ID)
			if tc.wantErr == "" {
				require.Equal(t, workflow.StatusSuccess, done.Status, "%v", state["resultData"])
				var sub store.Execution
				require.NoError(t, e.in.Store.DB.Where("mode = ? AND workflow_id = ?", "integrated", tc.childID).Order("id DESC").Take(&sub).Error)
				var childOwner string
				if tc.childID == membersChild.ID {
					childOwner = member.ID
				} else {
					childOwner = owner.ID
				}
				require.Equal(t, childOwner, sub.UserID, "a saved sub-workflow acts for its own owner")
				return
			}
			require.Equal(t, workflow.StatusError, done.Status)
			result := state["resultData"].(map[string]any)
			require.Equal(t, tc.wantErr, result["error"].(map[string]any)["message"])
			require.NotContains(t, fmt.Sprint(result), "owner data", "the refused workflow did not run")
			var n int64
			require.NoError(t, e.in.Store.DB.Model(&store.Execution{}).Where("mode = ? AND workflow_id = ?", "integrated", tc.childID).
				Where("user_id = ?", tc.userID).Count(&n).Error)
			require.Zero(t, n, "no sub-workflow execution was recorded")
		})
	}
}

// TestRunsActForTheWorkflowOwner checks whom executions act for: a run of a saved workflow that
// names no user acts for its owner, a retry for the original's user.
func TestRunsActForTheWorkflowOwner(t *testing.T) {
	e := setup(t)
	member := newUser(t, e, store.RoleMember)
	wf := build(t, "fails", `{"saveDataErrorExecution":"all"}`, start, code("Code", `throw new Error("boom")`))
	saveFor(t, e, wf, member.ID)
	ex := e.run(t, wf, "trigger", "")
	require.Equal(t, member.ID, ex.UserID)
	require.Equal(t, workflow.StatusError, e.wait(t, ex.ID).Status)

	unsaved := build(t, "unsaved fails", `{"saveManualExecutions":true}`, start, code("Code", `throw new Error("boom")`))
	manual, err := e.svc.Create(context.Background(), execution.New{Workflow: unsaved, Mode: "manual", UserID: member.ID})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusError, e.wait(t, manual.ID).Status)
	retry, err := e.svc.Retry(context.Background(), manual.ID, false)
	require.NoError(t, err)
	require.Equal(t, member.ID, retry.UserID, "a retry acts for the original's user")
	e.wait(t, retry.ID)

	// A retry with the workflow as saved now loads only a workflow that user may run.
	owner := newUser(t, e, store.RoleOwner)
	ownersWF := build(t, "owner's", "", start, set)
	saveFor(t, e, ownersWF, owner.ID)
	failed := &store.Execution{WorkflowID: &ownersWF.ID, Status: workflow.StatusError, Mode: "integrated", UserID: member.ID}
	require.NoError(t, e.in.Store.CreateExecution(context.Background(), failed,
		&store.ExecutionData{WorkflowData: store.JSON(`{"nodes":[],"connections":{}}`), Data: store.JSON(`{"resultData":{"runData":{}}}`)}))
	_, err = e.svc.Retry(context.Background(), failed.ID, true)
	var re *execution.RetryError
	require.ErrorAs(t, err, &re)
	require.Equal(t, "Workflow "+ownersWF.ID+" could not be found or you may not run it.", re.Reason)
}

// newUser stores a user with role.
func newUser(t *testing.T, e *env, role string) *store.User {
	t.Helper()
	now := time.Now().UTC()
	u := &store.User{ID: store.NewUUID(), GlobalRole: role, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, e.in.Store.DB.Create(u).Error)
	return u
}

// TestSubWorkflowOfASharedWorkflowActsForTheCaller gives a member, who may run the owner's
// workflow through a share, a sub-workflow as JSON that carries that workflow's id: the
// content is the member's, so it acts for the member, not the owner.
func TestSubWorkflowOfASharedWorkflowActsForTheCaller(t *testing.T) {
	e := setup(t)
	owner := newUser(t, e, store.RoleOwner)
	member := newUser(t, e, store.RoleMember)
	ownersWF := build(t, "owner's", "", start, set)
	saveFor(t, e, ownersWF, owner.ID)
	require.NoError(t, e.in.Store.ShareWorkflow(context.Background(), ownersWF.ID, member.ID, "editor"))
	spoof, err := json.Marshal(map[string]any{"id": ownersWF.ID, "name": "spoof", "connections": map[string]any{},
		"nodes": []any{map[string]any{"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": []int{0, 0}, "parameters": map[string]any{}}}})
	require.NoError(t, err)
	params, err := json.Marshal(map[string]any{"source": "parameter", "workflowJson": string(spoof)})
	require.NoError(t, err)
	parent := build(t, "parent", "", start, node{name: "Call", typ: "n8n-nodes-base.executeWorkflow", params: string(params)})
	ex, err := e.svc.Create(context.Background(), execution.New{Workflow: parent, Mode: "trigger", UserID: member.ID})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, e.wait(t, ex.ID).Status, "%v", e.state(t, ex.ID)["resultData"])
	var sub store.Execution
	require.NoError(t, e.in.Store.DB.Where("mode = ? AND workflow_name = ?", "integrated", "spoof").Take(&sub).Error)
	require.Equal(t, member.ID, sub.UserID)
}
