package credential_test

import (
	"context"
	"io"
	"net"
	"net/netip"
	"strconv"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
)

type smtpSession struct{}

func (smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }
func (smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "mailer" || pass != "s3cret" {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}
func (smtpSession) Mail(string, *smtp.MailOptions) error { return nil }
func (smtpSession) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (smtpSession) Data(io.Reader) error                 { return nil }
func (smtpSession) Reset()                               {}
func (smtpSession) Logout() error                        { return nil }

func TestSMTPCredentialTest(t *testing.T) {
	t.Parallel()
	s := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return smtpSession{}, nil }))
	s.Domain, s.AllowInsecureAuth = "mail.test", true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedPort := closed.Addr().(*net.TCPAddr).Port
	require.NoError(t, closed.Close())

	typ, ok := credential.Lookup("smtp")
	require.True(t, ok)
	require.Equal(t, []string{"n8n-nodes-base.emailSend"}, typ.TestedBy)
	// The api tests with the strict profile; the test opens loopback as FLOWMILL_EGRESS_ALLOW would.
	allowed := credential.TestInput{Client: egress.New([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, nil).Strict().Client(egress.Options{})}
	data := func(p int, user, pass string) map[string]any {
		return map[string]any{"user": user, "password": pass, "host": "127.0.0.1", "port": float64(p), "secure": false}
	}
	require.Equal(t, credential.TestResult{Status: "OK", Message: "Connection successful!"},
		typ.TestCredential(context.Background(), data(port, "mailer", "s3cret"), allowed))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "Invalid login: 535 5.7.8 Authentication failed"},
		typ.TestCredential(context.Background(), data(port, "mailer", "wrong"), allowed))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "connect ECONNREFUSED 127.0.0.1:" + strconv.Itoa(closedPort)},
		typ.TestCredential(context.Background(), data(closedPort, "mailer", "s3cret"), allowed))
	strict := credential.TestInput{Client: egress.New(nil, nil).Strict().Client(egress.Options{})}
	res := typ.TestCredential(context.Background(), data(port, "mailer", "s3cret"), strict)
	require.Equal(t, "Error", res.Status)
	require.Contains(t, res.Message, "127.0.0.1 is not allowed")
}
