package postgres_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// An n8n 1.x export (Manual Trigger → Postgres select → Set) imports and runs unchanged.
func TestN8n1xExportSelectThenSet(t *testing.T) {
	creds, db := scratch(t)
	_, err := db.Exec(`INSERT INTO people (name, age) VALUES ('kid', 9), ('cat''s owner', 52)`)
	require.NoError(t, err)

	raw, err := os.ReadFile("testdata/select-adults.json")
	require.NoError(t, err)
	wf, err := workflow.Parse(raw)
	require.NoError(t, err)
	reg := core.Registry()
	for _, n := range wf.Nodes {
		typ, ok := reg.Get(n.Type, n.TypeVersion)
		require.True(t, ok, n.Type)
		issues, err := workflow.ParameterIssues(typ.Description.Properties, n.Parameters, n.TypeVersion)
		require.NoError(t, err)
		require.Empty(t, issues, n.Name)
	}

	e, err := engine.New(engine.Options{Registry: reg, Evaluator: nodetest.Evaluator(t),
		Credentials: func(_ context.Context, ref nodes.CredentialRef) (map[string]any, error) {
			require.Equal(t, "postgres", ref.Type)
			return creds, nil
		}})
	require.NoError(t, err)
	res, err := e.Run(context.Background(), engine.Request{Workflow: wf})
	require.NoError(t, err)
	require.Nil(t, res.State.ResultData.Error)
	require.Equal(t, "Greet", res.State.ResultData.LastNodeExecuted)
	runs := res.State.ResultData.RunData["Greet"]
	require.Len(t, runs, 1)
	out := runs[0].Data.Main[0]
	nodetest.RequireJSONs(t, []map[string]any{
		{"id": 1.0, "name": "ann", "age": 30.0, "greeting": "Hello ann (30)"},
		{"id": 2.0, "name": "bob", "age": 40.0, "greeting": "Hello bob (40)"},
		{"id": 4.0, "name": "cat's owner", "age": 52.0, "greeting": "Hello cat's owner (52)"},
	}, out)
	require.Equal(t, []string{"id", "name", "age", "greeting"}, nodetest.Keys(out)[0])
}
