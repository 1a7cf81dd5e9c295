package credential_test

import (
	"context"
	"net"
	"strconv"
	"testing"

	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
)

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// The imap credential is tested by logging in to the server, through the egress policy.
func TestIMAPCredentialTest(t *testing.T) {
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("alice", "secret")
	require.NoError(t, u.Create("INBOX", nil))
	mem.AddUser(u)
	srv := imapserver.New(&imapserver.Options{InsecureAuth: true, Logger: quiet{},
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	p, _ := strconv.Atoi(port)

	typ, ok := credential.Lookup("imap")
	require.True(t, ok)
	data := func(password string) map[string]any {
		return map[string]any{"user": "alice", "password": password, "host": "127.0.0.1", "port": float64(p), "secure": false}
	}
	open := credential.TestInput{Client: egress.New(nil, nil).Client(egress.Options{})}
	require.Equal(t, credential.TestResult{Status: "OK", Message: "Connection successful!"},
		typ.TestCredential(context.Background(), data("secret"), open))
	res := typ.TestCredential(context.Background(), data("wrong"), open)
	require.Equal(t, "Error", res.Status)
	require.Contains(t, res.Message, "uthentication failed")

	strict := credential.TestInput{Client: egress.New(nil, nil).Strict().Client(egress.Options{})}
	res = typ.TestCredential(context.Background(), data("secret"), strict)
	require.Equal(t, "Error", res.Status)
	require.Contains(t, res.Message, "is not allowed")
}
