package credential_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
)

func TestMQTTConnectionTest(t *testing.T) {
	t.Parallel()
	typ, ok := credential.Lookup("mqtt")
	require.True(t, ok)
	require.NotNil(t, typ.Connect)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	require.NoError(t, typ.Connect(ctx, map[string]any{"host": "127.0.0.1", "port": 1883.0, "clean": true}, nil),
		"Mosquitto must run on 127.0.0.1:1883")
	require.Error(t, typ.Connect(ctx, map[string]any{"host": "127.0.0.1", "port": 1.0}, nil), "nothing listens on port 1")
	require.ErrorContains(t, typ.Connect(ctx, map[string]any{"host": ""}, nil), "host is not set")
	require.ErrorContains(t, typ.Connect(ctx, map[string]any{"host": "127.0.0.1", "ssl": true, "ca": "junk"}, nil),
		"CA certificates")
}
