package trainingdatastore_test

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/trainingdatastore"
)

type m = map[string]any

func names(t *testing.T, params m, inputs int) []any {
	t.Helper()
	in := make([]m, inputs)
	for i := range in {
		in[i] = m{}
	}
	out, err := nodetest.Run(t, trainingdatastore.Type(), nodetest.Node{Parameters: params}, nodetest.Items(in...))
	require.NoError(t, err)
	require.Len(t, out, 1)
	var got []any
	for _, j := range nodetest.JSONs(out[0]) {
		got = append(got, j["name"])
	}
	return got
}

func TestDatastore(t *testing.T) {
	t.Parallel()
	require.Equal(t, []any{"Jay Gatsby"}, names(t, m{}, 1), "default: one person")
	require.Equal(t, []any{"Jay Gatsby", "Jay Gatsby"}, names(t, m{"operation": "getOnePerson"}, 2), "once per input item")
	require.Len(t, names(t, m{"operation": "getAllPeople"}, 1), 5, "default limit 5")
	require.Equal(t, []any{"Jay Gatsby", "José Arcadio Buendía"}, names(t, m{"operation": "getAllPeople", "limit": 2.0}, 1))
	require.Len(t, names(t, m{"operation": "getAllPeople", "returnAll": true, "limit": 1.0}, 2), 10)
	require.Len(t, names(t, m{"operation": "getAllPeople", "limit": 10.0}, 1), 5)
}

func TestDatastorePerson(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, trainingdatastore.Type(), nodetest.Node{Parameters: m{"operation": "getAllPeople"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, m{"id": "23423535", "name": "Zaphod Beeblebrox", "email": "captain@heartofgold.com",
		"notes": "Felt like I was talking to more than one person", "country": nil, "created": "1979-10-12"}, workflow.ToMaps(out[0][3].JSON))
}
