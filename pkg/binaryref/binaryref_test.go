package binaryref_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/binaryref"
)

func TestRefRoundTrip(t *testing.T) {
	ref := binaryref.Ref{ExecutionID: 42, Node: "Read: file %1", Run: 1, Output: 2, Item: 3, Key: "data file"}
	require.Equal(t, "execution:42:Read%3A%20file%20%251:1:2:3:data%20file", ref.String())
	back, err := binaryref.Parse(ref.String())
	require.NoError(t, err)
	require.Equal(t, ref, back)
	for _, bad := range []string{"", "execution:", "execution:1:Node:0:0:0", "execution:x:Node:0:0:0:data",
		"execution:1:Node:-1:0:0:data", "execution:1::0:0:0:data", "execution:1:Node:0:0:0:", "file:1:Node:0:0:0:data",
		"execution:1:%zz:0:0:0:data"} {
		_, err := binaryref.Parse(bad)
		require.Error(t, err, bad)
	}
}

func TestExternalizeMovesOnlyLargeDataAndFindGetsItBack(t *testing.T) {
	large := strings.Repeat("QUJD", binaryref.MaxInline/4+1)
	state, err := json.Marshal(map[string]any{"resultData": map[string]any{"runData": map[string]any{
		"Read": []any{map[string]any{"data": map[string]any{"main": []any{[]any{map[string]any{
			"json":   map[string]any{},
			"binary": map[string]any{"big": map[string]any{"data": large}, "small": map[string]any{"data": "AA=="}},
		}}}}}},
	}}})
	require.NoError(t, err)
	ref := binaryref.Ref{ExecutionID: 7, Node: "Read", Key: "big"}

	data, ok := binaryref.Find(state, ref)
	require.True(t, ok)
	require.Equal(t, large, data)

	out, err := binaryref.Externalize(state, 7)
	require.NoError(t, err)
	require.Less(t, len(out), binaryref.MaxInline)
	var back struct {
		ResultData struct {
			RunData map[string][]struct {
				Data struct {
					Main [][]struct {
						Binary map[string]map[string]string `json:"binary"`
					} `json:"main"`
				} `json:"data"`
			} `json:"runData"`
		} `json:"resultData"`
	}
	require.NoError(t, json.Unmarshal(out, &back))
	binary := back.ResultData.RunData["Read"][0].Data.Main[0][0].Binary
	require.Equal(t, map[string]string{"data": "", "id": ref.String()}, binary["big"])
	require.Equal(t, map[string]string{"data": "AA=="}, binary["small"])

	small := []byte(`{"resultData":{"runData":{}}}`)
	out, err = binaryref.Externalize(small, 7)
	require.NoError(t, err)
	require.Equal(t, small, out, "a small state is returned as it is")
	_, ok = binaryref.Find(small, ref)
	require.False(t, ok)
}
