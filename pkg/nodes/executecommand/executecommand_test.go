package executecommand_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/executecommand"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestExecuteCommand(t *testing.T) {
	t.Parallel()
	two := func() []workflow.Item { return nodetest.Items(m{"data": "n8n"}, m{"data": "test"}) }
	ok := func(stdout, stderr string) m { return m{"exitCode": 0.0, "stdout": stdout, "stderr": stderr} }
	tests := []struct {
		name    string
		params  m
		input   []workflow.Item
		cof     bool
		want    []m
		wantErr string
	}{
		{"executes once by default", m{"command": "=echo {{ $json.data }}"}, two(), false, []m{ok("n8n", "")}, ""},
		{"once per item", m{"command": "=echo {{ $json.data }}", "executeOnce": false}, two(), false,
			[]m{ok("n8n", ""), ok("test", "")}, ""},
		{"stderr and trimming", m{"command": "printf '  out \\n\\n'; echo err >&2"}, two(), false, []m{ok("out", "err")}, ""},
		{"shell features", m{"command": "a=1; for i in 2 3; do a=$a$i; done; echo $a | tr 1 x"}, two(), false,
			[]m{ok("x23", "")}, ""},
		{"failing command", m{"command": "echo bad >&2; exit 3"}, two(), false, nil, "Command failed: echo bad >&2; exit 3\nbad\n"},
		{"failing command with continueOnFail", m{"command": "=test {{ $json.data }} = test", "executeOnce": false}, two(), true,
			[]m{{"error": "Command failed: test n8n = test\n"}, ok("", "")}, ""},
		{"empty input", m{"command": "echo x"}, []workflow.Item{}, false, []m{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, executecommand.Type(), nodetest.Node{Parameters: tc.params, ContinueOnFail: tc.cof}, tc.input)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, nodetest.JSONs(out[0]))
			for i, it := range out[0] {
				require.Equal(t, workflow.PairedItems{{Item: i}}, *it.PairedItem)
			}
		})
	}
}

// A running command is killed with its children when the run is cancelled.
func TestExecuteCommandCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := nodetest.Run(t, executecommand.Type(), nodetest.Node{Parameters: m{"command": "sleep 30; echo late"}, Context: ctx},
		nodetest.Items(m{}))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), 10*time.Second)
}

// An enabled command starts in the file nodes' folder, without Flowmill's settings in its
// environment, and is stopped when its output passes the cap.
func TestExecuteCommandFence(t *testing.T) {
	t.Setenv("FLOWMILL_ENCRYPTION_KEY", "secret-key")
	t.Setenv("FLOWMILL_TEST_OTHER", "x")
	t.Setenv("PLAIN_VARIABLE", "kept")
	dir := t.TempDir()
	host := nodetest.FilesHost(t, dir)
	resolved, err := host.Files.Resolve(".")
	require.NoError(t, err)

	out, err := nodetest.Run(t, executecommand.Type(), nodetest.Node{Host: host,
		Parameters: m{"command": "pwd; env | grep -c '^FLOWMILL_' || true; echo $PLAIN_VARIABLE"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, resolved+"\n0\nkept", nodetest.JSONs(out[0])[0]["stdout"])

	start := time.Now()
	_, err = nodetest.Run(t, executecommand.Type(), nodetest.Node{Host: host, Parameters: m{"command": "yes"}}, nodetest.Items(m{}))
	require.EqualError(t, err, "Command output exceeds 16 MiB: the command was stopped")
	require.Less(t, time.Since(start), 30*time.Second)
}
