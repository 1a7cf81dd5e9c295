package debughelper_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/debughelper"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func run(t *testing.T, params m, continueOnFail bool, inputs int) ([]workflow.Item, error) {
	t.Helper()
	in := make([]m, inputs)
	for i := range in {
		in[i] = m{"n": float64(i)}
	}
	out, err := nodetest.Run(t, debughelper.Type(), nodetest.Node{Parameters: params, ContinueOnFail: continueOnFail}, nodetest.Items(in...))
	if err != nil {
		return nil, err
	}
	require.Len(t, out, 1)
	return out[0], nil
}

func TestDoNothingOutputsNothing(t *testing.T) {
	t.Parallel()
	out, err := run(t, m{"category": "doNothing"}, false, 3)
	require.NoError(t, err)
	require.Empty(t, out)
}

func TestThrowError(t *testing.T) {
	t.Parallel()
	_, err := run(t, m{}, false, 1)
	e := nodetest.NodeError(t, err)
	require.Equal(t, "NodeApiError", e.Name)
	require.Equal(t, "Node has thrown an error", e.Message)

	for _, typ := range []string{"NodeOperationError", "Error"} {
		_, err = run(t, m{"throwErrorType": typ, "throwErrorMessage": "boom"}, false, 1)
		e = nodetest.NodeError(t, err)
		require.Equal(t, typ, e.Name)
		require.Equal(t, "boom", e.Message)
	}

	out, err := run(t, m{"throwErrorMessage": "boom"}, true, 2)
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "boom"}, {"error": "boom"}}, nodetest.JSONs(out))
	require.Equal(t, &workflow.PairedItems{{Item: 1}}, out[1].PairedItem)
}

func TestOutOfMemoryIsRefused(t *testing.T) {
	t.Parallel()
	_, err := run(t, m{"category": "oom", "memorySizeValue": 100000.0}, false, 1)
	require.ErrorContains(t, err, "Out Of Memory category is not available")
}

func TestRandomData(t *testing.T) {
	t.Parallel()
	params := m{"category": "randomData", "randomDataSeed": "demo", "randomDataCount": 4.0}
	a, err := run(t, params, false, 2)
	require.NoError(t, err)
	require.Len(t, a, 8, "count items per input item")
	for _, it := range a {
		require.ElementsMatch(t, []string{"uid", "email", "firstname", "lastname", "password"}, keys(it.JSON.ToMap()))
		require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, it.JSON.Get("uid"))
		require.Regexp(t, `@`, it.JSON.Get("email"))
	}
	require.Equal(t, &workflow.PairedItems{{Item: 1}}, a[7].PairedItem)
	b, err := run(t, params, false, 2)
	require.NoError(t, err)
	require.Equal(t, nodetest.JSONs(a), nodetest.JSONs(b), "same seed, same data")

	params["randomDataSeed"] = "other"
	c, err := run(t, params, false, 2)
	require.NoError(t, err)
	require.NotEqual(t, nodetest.JSONs(a), nodetest.JSONs(c))
}

func TestRandomDataTypes(t *testing.T) {
	t.Parallel()
	patterns := map[string]*regexp.Regexp{
		"ipv4":       regexp.MustCompile(`^(\d{1,3}\.){3}\d{1,3}$`),
		"ipv6":       regexp.MustCompile(`^([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}$`),
		"macAddress": regexp.MustCompile(`^([0-9a-f]{2}:){5}[0-9a-f]{2}$`),
		"semver":     regexp.MustCompile(`^\d+\.\d+\.\d+$`),
		"url":        regexp.MustCompile(`^https://[a-z]+\.[a-z]+$`),
		"latLong":    regexp.MustCompile(`^-?\d+\.\d{4}, -?\d+\.\d{4}$`),
		"uuid":       regexp.MustCompile(`^[0-9a-f-]{36}$`),
	}
	for typ, re := range patterns {
		out, err := run(t, m{"category": "randomData", "randomDataType": typ, "randomDataCount": 3.0}, false, 1)
		require.NoError(t, err)
		require.Len(t, out, 3)
		for _, it := range out {
			require.Regexp(t, re, it.JSON.Get(typ), typ)
		}
	}
	out, err := run(t, m{"category": "randomData", "randomDataType": "nanoid", "nanoidAlphabet": "ab", "nanoidLength": "5",
		"randomDataCount": 2.0, "randomDataSingleArray": true}, false, 1)
	require.NoError(t, err)
	require.Len(t, out, 1)
	list := out[0].JSON.Get("generatedItems").([]any)
	require.Len(t, list, 2)
	require.Regexp(t, `^[ab]{5}$`, list[0])

	out, err = run(t, m{"category": "randomData", "randomDataType": "creditCard", "randomDataCount": 20.0}, false, 1)
	require.NoError(t, err)
	for _, it := range out {
		require.True(t, luhnValid(it.JSON.Get("number").(string)), it.JSON.Get("number"))
		require.Regexp(t, `^(0[1-9]|1[0-2])/\d{2}$`, it.JSON.Get("exp"))
	}
}

func TestRandomDataLimits(t *testing.T) {
	t.Parallel()
	_, err := run(t, m{"category": "randomData", "randomDataCount": 10001.0}, false, 1)
	require.ErrorContains(t, err, "at most 10000 are allowed")
	_, err = run(t, m{"category": "randomData", "randomDataType": "nanoid", "nanoidLength": "x"}, false, 1)
	require.ErrorContains(t, err, "NanoId Length must be a whole number")
}

func keys(j m) []string {
	var out []string
	for k := range j {
		out = append(out, k)
	}
	return out
}

func luhnValid(s string) bool {
	sum := 0
	for i := range s {
		d, _ := strconv.Atoi(s[len(s)-1-i : len(s)-i])
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return len(s) == 16 && sum%10 == 0
}
