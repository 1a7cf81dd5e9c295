package totp_test

import (
	"context"
	"encoding/base32"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/totp"
)

type m = map[string]any

func run(t *testing.T, creds m, options m, now time.Time) ([]map[string]any, error) {
	t.Helper()
	params := m{}
	if options != nil {
		params["options"] = options
	}
	out, err := nodetest.Run(t, totp.Type(), nodetest.Node{
		Parameters:  params,
		Credentials: m{"totpApi": m{"id": "1", "name": "TOTP"}},
		CredentialData: func(_ context.Context, ref nodes.CredentialRef) (map[string]any, error) {
			return creds, nil
		},
		Flow: nodes.FlowConfig{Now: func() time.Time { return now }},
	}, nodetest.Items(m{"a": 1.0}, m{"b": 2.0}))
	if err != nil {
		return nil, err
	}
	return nodetest.JSONs(out[0]), nil
}

// The RFC 6238 test vectors (appendix B) for SHA1, SHA256 and SHA512 with 8 digits.
func TestRFC6238Vectors(t *testing.T) {
	t.Parallel()
	seed := func(n int) string {
		s := ""
		for len(s) < n {
			s += "1234567890"
		}
		return base32.StdEncoding.EncodeToString([]byte(s[:n]))
	}
	tests := []struct {
		unix      int64
		algorithm string
		secret    string
		want      string
	}{
		{59, "SHA1", seed(20), "94287082"},
		{1111111109, "SHA1", seed(20), "07081804"},
		{2000000000, "SHA1", seed(20), "69279037"},
		{59, "SHA256", seed(32), "46119246"},
		{1234567890, "SHA256", seed(32), "91819424"},
		{59, "SHA512", seed(64), "90693936"},
		{20000000000, "SHA512", seed(64), "47863826"},
	}
	for _, tc := range tests {
		out, err := run(t, m{"secret": tc.secret, "label": "ACME:jane"}, m{"algorithm": tc.algorithm, "digits": 8.0}, time.Unix(tc.unix, 0))
		require.NoError(t, err)
		require.Equal(t, tc.want, out[0]["token"], "%s at %d", tc.algorithm, tc.unix)
	}
}

func TestOutput(t *testing.T) {
	t.Parallel()
	now := time.Unix(1111111100, 500_000_000) // 20.5 s into its 30 s step
	out, err := run(t, m{"secret": "gezdgnbvgy3tqojqgezdgnbvgy3tqojq", "label": "ACME:jane"}, nil, now)
	require.NoError(t, err)
	// Lower-case secrets are read as upper case; 6 digits and 30 s by default.
	require.Equal(t, []map[string]any{{"token": "081804", "secondsRemaining": 9.0}, {"token": "081804", "secondsRemaining": 9.0}}, out)
	o, err := nodetest.Run(t, totp.Type(), nodetest.Node{}, nodetest.Items(m{}))
	require.Nil(t, o)
	require.Equal(t, `Node "Node" does not have any credentials set for "totpApi"!`, nodetest.NodeError(t, err).Message)
}

func TestBadCredentials(t *testing.T) {
	t.Parallel()
	_, err := run(t, m{"secret": "JBSWY3DPEHPK3PXP", "label": "jane"}, nil, time.Unix(0, 0))
	require.Equal(t, "Malformed label - expected `issuer:username`", nodetest.NodeError(t, err).Message)
	_, err = run(t, m{"secret": "JBSW1", "label": "a:b"}, nil, time.Unix(0, 0))
	require.Equal(t, "Invalid character found: 1", nodetest.NodeError(t, err).Message)
}
