package stopanderror_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/stopanderror"
)

type m = map[string]any

func TestStopAndError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		params   m
		wantMsg  string
		wantDesc string
	}{
		{"message", m{"errorMessage": "Not a valid uuid"}, "Not a valid uuid", ""},
		{"object", m{"errorType": "errorObject", "errorObject": `{"code":"404","message":"Gone","description":"The resource could not be fetched"}`},
			"Gone", "The resource could not be fetched"},
		{"object without message", m{"errorType": "errorObject", "errorObject": `{"code":"404"}`}, `Workflow ID  "" has failed`, ""},
		{"invalid JSON", m{"errorType": "errorObject", "errorObject": `{"code":`}, "Error Object is not valid JSON: unexpected end of JSON input", ""},
		{"not an object", m{"errorType": "errorObject", "errorObject": `[1]`}, "Error Object must be a JSON object", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := nodetest.RunOne(t, stopanderror.Type(), 1, tc.params, m{"a": 1})
			e := nodetest.NodeError(t, err)
			require.Equal(t, tc.wantMsg, e.Message)
			require.Equal(t, tc.wantDesc, e.Description)
		})
	}
}
