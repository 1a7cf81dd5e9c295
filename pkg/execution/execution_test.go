package execution_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type env struct {
	in     *infra.Infra
	svc    *execution.Service
	hub    *push.Hub
	runner *execution.Runner
}

// setup opens a fresh Postgres schema and Redis database and starts a worker on them.
func setup(t testing.TB, vars ...string) *env {
	t.Helper()
	m := map[string]string{"FLOWMILL_ENCRYPTION_KEY": "execution-test-key-0123"}
	for i := 0; i+1 < len(vars); i += 2 {
		m[vars[i]] = vars[i+1]
	}
	ctx := context.Background()
	in := infratest.Open(t, m)
	w, err := worker.New(in)
	require.NoError(t, err)
	require.NoError(t, w.Start(ctx))
	t.Cleanup(w.Stop)
	hub := push.NewHub(in.Redis, 0, nil)
	require.NoError(t, hub.Start(ctx))
	t.Cleanup(hub.Stop)
	svc, err := execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis})
	require.NoError(t, err)
	return &env{in: in, svc: svc, hub: hub, runner: w.Runner()}
}

// node is a workflow node in test shorthand.
type node struct {
	name, typ string
	version   float64
	params    string
}

// build makes a workflow whose nodes are connected in a line, in order.
func build(t testing.TB, name string, settings string, nodes ...node) *workflow.Workflow {
	t.Helper()
	var ns, cs []string
	for i, n := range nodes {
		if n.params == "" {
			n.params = "{}"
		}
		if n.version == 0 {
			n.version = 1
		}
		ns = append(ns, fmt.Sprintf(`{"name":%q,"type":%q,"typeVersion":%g,"position":[%d,0],"parameters":%s}`, n.name, n.typ, n.version, i*200, n.params))
		if i > 0 {
			cs = append(cs, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, nodes[i-1].name, n.name))
		}
	}
	if settings == "" {
		settings = "{}"
	}
	doc := fmt.Sprintf(`{"name":%q,"settings":%s,"nodes":[%s],"connections":{%s}}`, name, settings, strings.Join(ns, ","), strings.Join(cs, ","))
	wf, err := workflow.Parse([]byte(doc))
	require.NoError(t, err, doc)
	return wf
}

var (
	start = node{name: "Start", typ: "n8n-nodes-base.start"}
	set   = node{name: "Set", typ: "n8n-nodes-base.set", params: `{"values":{"number":[{"name":"a","value":1}]}}`}
)

func code(name, js string) node {
	b, _ := json.Marshal(map[string]any{"jsCode": js})
	return node{name: name, typ: "n8n-nodes-base.code", params: string(b)}
}

// save stores wf as a saved workflow of a new member and sets its id.
func save(t *testing.T, e *env, wf *workflow.Workflow) {
	t.Helper()
	saveFor(t, e, wf, newUser(t, e, store.RoleMember).ID)
}

// saveFor stores wf as a saved workflow that userID owns and sets its id.
func saveFor(t *testing.T, e *env, wf *workflow.Workflow, userID string) {
	t.Helper()
	wf.ID = store.NewID()
	b, err := json.Marshal(wf)
	require.NoError(t, err)
	var doc struct {
		Nodes       json.RawMessage `json:"nodes"`
		Connections json.RawMessage `json:"connections"`
		Settings    json.RawMessage `json:"settings"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	now := time.Now().UTC()
	require.NoError(t, e.in.Store.DB.Create(&store.Workflow{ID: wf.ID, Name: wf.Name + "-" + wf.ID, Nodes: store.JSON(doc.Nodes),
		Connections: store.JSON(doc.Connections), Settings: store.JSON(doc.Settings), CreatedAt: now, UpdatedAt: now}).Error)
	require.NoError(t, e.in.Store.ShareWorkflow(context.Background(), wf.ID, userID, store.WorkflowRoleOwner))
}

func (e *env) run(t *testing.T, wf *workflow.Workflow, mode workflow.Mode, session string) *store.Execution {
	t.Helper()
	ex, err := e.svc.Create(context.Background(), execution.New{Workflow: wf, Mode: mode, SessionID: session})
	require.NoError(t, err)
	return ex
}

func (e *env) wait(t *testing.T, id int64) *store.Execution {
	t.Helper()
	ex, err := e.svc.Wait(context.Background(), id, 20*time.Second)
	require.NoError(t, err)
	return ex
}

func (e *env) state(t *testing.T, id int64) map[string]any {
	t.Helper()
	d, err := e.in.Store.GetExecutionData(context.Background(), id)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(d.Data, &m))
	return m
}

func nodeOutput(t *testing.T, state map[string]any, node string) []any {
	t.Helper()
	runs := state["resultData"].(map[string]any)["runData"].(map[string]any)[node].([]any)
	last := runs[len(runs)-1].(map[string]any)
	return last["data"].(map[string]any)["main"].([]any)[0].([]any)
}

func execNew(wf *workflow.Workflow) execution.New {
	return execution.New{Workflow: wf, Mode: "trigger"}
}
