package crypto_test

import (
	"encoding/base64"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/crypto"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// A 512-bit RSA key, as n8n's own test uses: smaller than Go's crypto/rsa accepts.
const smallKey = "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\nKUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQJAIJLixBy2qpFoS4DSmoEm\no3qGy0t6z09AIJtH+5OeRV1be+N4cDYJKffGzDa88vQENZiRm0GRq6a+HPGQMd2k\nTQIhAKMSvzIBnni7ot/OSie2TmJLY4SwTQAevXysE2RbFDYdAiEBCUEaRQnMnbp7\n9mxDXDf6AU0cN/RPBjb9qSHDcWZHGzUCIG2Es59z8ugGrDY+pxLQnwfotadxd+Uy\nv/Ow5T0q5gIJAiEAyS4RaI9YG8EWx/2w0T67ZUVAw8eOMB6BIUg0Xcu+3okCIBOs\n/5OiPgoTdSy7bcF9IGpSE8ZgGKzgYQVZeN97YE00\n-----END RSA PRIVATE KEY-----"

func TestValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params m
		want   any
	}{
		{"md5 hex", m{"value": "test"}, "098f6bcd4621d373cade4e832627b4f6"},
		{"sha256 base64", m{"value": "test", "type": "SHA256", "encoding": "base64"}, "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="},
		{"sha3-256", m{"value": "test", "type": "SHA3-256"}, "36f028580bb02cc8272a9a020f4200e346e276ae664e45ee80745574e2f5ab80"},
		{"hmac md5", m{"action": "hmac", "value": "test", "secret": "key", "encoding": "hex"}, "1d4a2743c056e467ff3f09c9af31de7e"},
		{"sign RSA-MD5 small key", m{"action": "sign", "value": "test", "algorithm": "RSA-MD5", "encoding": "base64", "privateKey": smallKey},
			"MVr+iZiOFtHVwO0iKC+CF+QlrZZKcGk7zBvUrWHC1fHBeS6IoWa8B/wrMvazV5H1YR8tbK8baZHD/vUNdfvjiA=="},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.RunOne(t, crypto.Type(), 1, tc.params, m{"x": 1.0})
			require.NoError(t, err)
			require.Equal(t, []m{{"x": 1.0, "data": tc.want}}, out)
		})
	}
}

func TestGenerate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		params m
		re     string
	}{
		{m{}, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`},
		{m{"encodingType": "hex", "stringLength": 10.0}, `^[0-9a-f]{10}$`},
		{m{"encodingType": "base64", "stringLength": 20.0}, `^[A-Za-z0-9]{1,20}$`},
		{m{"encodingType": "ascii", "stringLength": 5.0}, `^[\x00-\x7f]{5}$`},
	}
	for _, tc := range tests {
		params := m{"action": "generate", "dataPropertyName": "a.b"}
		for k, v := range tc.params {
			params[k] = v
		}
		out, err := nodetest.RunOne(t, crypto.Type(), 1, params, m{})
		require.NoError(t, err)
		require.Regexp(t, regexp.MustCompile(tc.re), out[0]["a.b"])
	}
}

func TestBinary(t *testing.T) {
	t.Parallel()
	in := workflow.Item{JSON: workflow.ObjectOf("x", 1.0), Binary: map[string]workflow.BinaryData{
		"data": {Data: base64.StdEncoding.EncodeToString([]byte("test")), MimeType: "text/plain"},
	}}
	out, err := nodetest.Run(t, crypto.Type(), nodetest.Node{Parameters: m{"binaryData": true}}, []workflow.Item{in})
	require.NoError(t, err)
	require.Equal(t, m{"x": 1.0, "data": "098f6bcd4621d373cade4e832627b4f6"}, workflow.ToMaps(out[0][0].JSON))
	require.Nil(t, out[0][0].Binary, "hashed binary data is not passed on")

	_, err = nodetest.Run(t, crypto.Type(), nodetest.Node{Parameters: m{"binaryData": true, "binaryPropertyName": "file"}}, []workflow.Item{in})
	require.Equal(t, "The item has no binary field 'file' [item 0]", nodetest.NodeError(t, err).Message)
	_, err = nodetest.Run(t, crypto.Type(), nodetest.Node{Parameters: m{"binaryData": true}}, nodetest.Items(m{}))
	require.Equal(t, "No binary data exists on item!", nodetest.NodeError(t, err).Message)
}

func TestErrors(t *testing.T) {
	t.Parallel()
	_, err := nodetest.RunOne(t, crypto.Type(), 1, m{"action": "sign", "value": "x", "algorithm": "RSA-SHA256", "privateKey": "nope"}, m{})
	require.Equal(t, "Invalid private key: expected a PEM encoded RSA or EC private key", nodetest.NodeError(t, err).Message)
	_, err = nodetest.RunOne(t, crypto.Type(), 1, m{"value": "x", "type": "whirlpool"}, m{})
	require.Equal(t, "Digest method not supported", nodetest.NodeError(t, err).Message)
	out, err := nodetest.Run(t, crypto.Type(), nodetest.Node{Parameters: m{"value": "x", "type": "whirlpool"}, ContinueOnFail: true}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "Digest method not supported"}}, nodetest.JSONs(out[0]))
}
