package nodes_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
)

func testType(t *testing.T, name, version string) nodes.Type {
	t.Helper()
	d := nodes.MustParseDescription([]byte(`{"displayName": "X", "name": "` + name + `", "group": ["transform"], "version": ` + version + `,
	  "defaults": {"name": "X"}, "inputs": ["main"], "outputs": ["main"], "properties": []}`))
	return nodes.Type{Description: d, Node: nodes.NodeFunc(nodes.PassThrough)}
}

// A type answers only the versions it lists: a node from a newer n8n never runs older code.
func TestRegistryLookupIsStrict(t *testing.T) {
	t.Parallel()
	r := nodes.NewRegistry()
	r.MustRegister(testType(t, "test.one", "1"))
	r.MustRegister(testType(t, "test.many", "[2, 2.1]"))
	r.MustRegister(testType(t, "test.many", "1"))
	r = r.Disable(map[string]string{"test.off": "with SOME_SETTING"})

	cases := []struct {
		name    string
		version float64
		want    string // the version that answers, or the error
	}{
		{"test.one", 1, "1"},
		{"test.one", 0, "1"}, // no typeVersion: version 1
		{"test.one", 2, `The node type "test.one" has no version 2 here (known version: 1): upgrade Flowmill, or replace the node`},
		{"test.one", 1.1, `The node type "test.one" has no version 1.1 here (known version: 1): upgrade Flowmill, or replace the node`},
		{"test.many", 2.1, "2.1"},
		{"test.many", 1, "1"},
		{"test.many", 0, "1"},
		{"test.many", 3, `The node type "test.many" has no version 3 here (known versions: 1, 2, 2.1): upgrade Flowmill, or replace the node`},
		{"test.absent", 1, `The node type "test.absent" is not known: install it, or replace the node`},
		{"test.off", 1, `The node type "test.off" is disabled on this instance; an admin can turn it on with SOME_SETTING.`},
	}
	for _, tc := range cases {
		typ, err := r.Lookup(tc.name, tc.version)
		got, ok := r.Get(tc.name, tc.version)
		if err != nil {
			require.EqualError(t, err, tc.want, "%s@%g", tc.name, tc.version)
			require.False(t, ok)
			require.Nil(t, got)
			continue
		}
		require.True(t, ok)
		require.Same(t, typ, got)
		want, perr := strconv.ParseFloat(tc.want, 64)
		require.NoError(t, perr)
		require.True(t, typ.Description.Version.Has(want), "%s@%g answered by %v", tc.name, tc.version, typ.Description.Version)
	}

	var uv *nodes.UnknownVersionError
	_, err := r.Lookup("test.many", 4)
	require.ErrorAs(t, err, &uv)
	require.Equal(t, []float64{1, 2, 2.1}, uv.Known)
	var ut *nodes.UnknownTypeError
	_, err = r.Lookup("test.absent", 1)
	require.ErrorAs(t, err, &ut)
	require.Nil(t, r.Versions("test.absent"))
}

func TestInputRequirementMetBy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		req      nodes.InputRequirement
		withData []int
		want     bool
	}{
		{"nothing required", nodes.InputRequirement{}, nil, true},
		{"one of any", nodes.InputRequirement{Count: 1}, []int{1}, true},
		{"one of any, none", nodes.InputRequirement{Count: 1}, nil, false},
		{"both listed", nodes.InputRequirement{Inputs: []int{0, 1}}, []int{0, 1}, true},
		{"one listed missing", nodes.InputRequirement{Inputs: []int{0, 1}}, []int{1, 2}, false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.req.MetBy(tc.withData), tc.name)
	}
}
