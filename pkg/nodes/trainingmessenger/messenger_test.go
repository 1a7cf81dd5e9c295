package trainingmessenger_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/trainingmessenger"
)

type m = map[string]any

func TestMessenger(t *testing.T) {
	t.Parallel()
	params := m{"customerId": "={{ $json.id }}", "message": "=Hi {{ $json.name }}"}
	out, err := nodetest.Run(t, trainingmessenger.Type(), nodetest.Node{Parameters: params},
		nodetest.Items(m{"id": "1", "name": "Ann"}, m{"id": 2.0, "name": "Bo"}))
	require.NoError(t, err)
	require.Equal(t, []m{
		{"output": "Sent message to customer 1:  Hi Ann"},
		{"output": "Sent message to customer 2:  Hi Bo"},
	}, nodetest.JSONs(out[0]))
}
