package httpauth_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/httpauth"
)

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		name        string
		auth        httpauth.Auth
		headers, qs []httpauth.Param
		err         string
	}{
		{"none", httpauth.Auth{}, nil, nil, ""},
		{"header", httpauth.Auth{Kind: httpauth.Header, Data: map[string]any{"name": "X-Key", "value": "v"}}, []httpauth.Param{{"X-Key", "v"}}, nil, ""},
		{"query", httpauth.Auth{Kind: httpauth.Query, Data: map[string]any{"name": "key", "value": "v"}}, nil, []httpauth.Param{{"key", "v"}}, ""},
		{"custom", httpauth.Auth{Kind: httpauth.Custom, Data: map[string]any{"json": `{"headers":{"B":"2","A":1},"qs":{"k":true}}`}},
			[]httpauth.Param{{"A", "1"}, {"B", "2"}}, []httpauth.Param{{"k", "true"}}, ""},
		{"custom body", httpauth.Auth{Kind: httpauth.Custom, Data: map[string]any{"json": `{"body":{"a":"b"}}`}}, nil, nil, `"body" values are not supported`},
		{"custom not JSON", httpauth.Auth{Kind: httpauth.Custom, Data: map[string]any{"json": `nope`}}, nil, nil, "must be an object of headers and qs objects"},
		{"oauth2 not connected", httpauth.Auth{Kind: httpauth.OAuth2, Data: map[string]any{}}, nil, nil, "OAuth credentials not connected"},
		{"oauth1 not connected", httpauth.Auth{Kind: httpauth.OAuth1, Data: map[string]any{"oauthTokenData": map[string]any{}}}, nil, nil, "OAuth credentials not connected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			headers, qs, err := tc.auth.Params()
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.headers, headers)
			require.Equal(t, tc.qs, qs)
		})
	}
}
