package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWithNodeDefaults(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[{"name":"A","type":"t"}]`, `[{"name":"A","type":"t","typeVersion":1,"position":[0,0],"parameters":{}}]`},
		{`[ { } ]`, `[{"typeVersion":1,"position":[0,0],"parameters":{}}]`},
		{`[{"name":"A","typeVersion":2,"position":[5,6],"parameters":{"x":1}}]`, `[{"name":"A","typeVersion":2,"position":[5,6],"parameters":{"x":1}}]`},
		{`[{"position":[1,2] , "name":"B" }]`, `[{"position":[1,2],"name":"B","typeVersion":1,"parameters":{}}]`},
		{`[]`, `[]`},
		{`null`, `null`},
	} {
		got, err := withNodeDefaults(json.RawMessage(c.in))
		require.NoError(t, err)
		require.Equal(t, c.want, compact(t, got), c.in)
	}
	// Not a list of objects: passed on unchanged for the workflow check to refuse.
	for _, in := range []string{`{}`, `[1]`, `"x"`} {
		got, err := withNodeDefaults(json.RawMessage(in))
		require.NoError(t, err)
		require.Equal(t, in, string(got))
	}
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	out, err := json.Marshal(raw) // compacts the raw JSON
	require.NoError(t, err)
	return string(out)
}
