package code_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/code"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

func TestCodeKeepsKeyOrder(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"runOnceForAllItems", "runOnceForEachItem"} {
		js := `return {json: {id: 1, name: "Ann", score: 9, tags: ["x"], nested: {z: 1, a: 2}}}`
		if mode == "runOnceForAllItems" {
			js = `return [{id: 1, name: "Ann", score: 9, tags: ["x"], nested: {z: 1, a: 2}}]`
		}
		out, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params(mode, js)}, nodetest.Items(m{}))
		require.NoError(t, err, mode)
		b, err := json.Marshal(out[0][0].JSON)
		require.NoError(t, err)
		require.Equal(t, `{"id":1,"name":"Ann","score":9,"tags":["x"],"nested":{"z":1,"a":2}}`, string(b), mode)

		// A second Code node adding a field keeps the input's order and appends.
		next, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params(mode,
			map[string]string{
				"runOnceForAllItems": `for (const item of $input.all()) item.json.added = true; return $input.all()`,
				"runOnceForEachItem": `$json.added = true; return $input.item`,
			}[mode])}, out[0])
		require.NoError(t, err, mode)
		require.Equal(t, [][]string{{"id", "name", "score", "tags", "nested", "added"}}, nodetest.Keys(next[0]), mode)
	}
}
