package webhook_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/webhook"
)

func TestPEMKeyRestoresLineBreaks(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	require.NoError(t, err)
	good := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	for _, pasted := range []string{good, strings.ReplaceAll(good, "\n", " "), strings.ReplaceAll(good, "\n", `\n`)} {
		block, _ := pem.Decode([]byte(webhook.PEMKey(pasted)))
		require.NotNil(t, block, pasted)
		require.Equal(t, der, block.Bytes)
	}
}
