package workflow

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParameterIssues(t *testing.T) {
	props := []Property{
		{Name: "url", DisplayName: "URL", Type: "string", Required: true, Default: ""},
		{Name: "method", DisplayName: "Method", Type: "options", Required: true, Default: "GET"},
		{Name: "body", DisplayName: "Body", Type: "string", Required: true, Default: "",
			DisplayOptions: &DisplayOptions{Show: DisplayRules{{Key: "method", Values: []any{"POST"}}}}},
		{Name: "note", Type: "notice", Required: true, Default: ""},
	}
	cases := []struct {
		values map[string]any
		want   []string
	}{
		{map[string]any{}, []string{`Parameter "URL" is required.`}},
		{map[string]any{"url": "https://x"}, nil},
		{map[string]any{"url": "={{ $json.u }}"}, nil},
		{map[string]any{"url": "https://x", "method": "POST"}, []string{`Parameter "Body" is required.`}},
		{map[string]any{"url": "https://x", "method": "POST", "body": "b"}, nil},
	}
	for _, tc := range cases {
		got, err := ParameterIssues(props, tc.values, 1)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%v", tc.values)
	}
}
