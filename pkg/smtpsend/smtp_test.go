package smtpsend_test

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/smtpsend"
)

// loginServer is the server side of AUTH LOGIN: a username, then a password prompt.
type loginServer struct {
	step       int
	user, pass string
}

func (l *loginServer) Next(response []byte) ([]byte, bool, error) {
	switch l.step++; l.step {
	case 1:
		if response != nil {
			l.user = string(response)
			l.step++
			return []byte("Password:"), false, nil
		}
		return []byte("Username:"), false, nil
	case 2:
		l.user = string(response)
		return []byte("Password:"), false, nil
	default:
		l.pass = string(response)
		if l.user != "mailer" || l.pass != "s3cret" {
			return nil, true, smtp.ErrAuthFailed
		}
		return nil, true, nil
	}
}

// loginOnly offers AUTH LOGIN only and keeps the last message.
type loginOnly struct{ got *[]byte }

func (s loginOnly) AuthMechanisms() []string             { return []string{"LOGIN"} }
func (s loginOnly) Auth(string) (sasl.Server, error)     { return &loginServer{}, nil }
func (s loginOnly) Mail(string, *smtp.MailOptions) error { return nil }
func (s loginOnly) Rcpt(string, *smtp.RcptOptions) error { return nil }
func (s loginOnly) Reset()                               {}
func (s loginOnly) Logout() error                        { return nil }
func (s loginOnly) Data(r io.Reader) (err error)         { *s.got, err = io.ReadAll(r); return err }

func TestLoginAndDotStuffing(t *testing.T) {
	t.Parallel()
	var got []byte
	s := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return loginOnly{got: &got}, nil }))
	s.Domain, s.AllowInsecureAuth = "mail.test", true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	server := smtpsend.Server{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, User: "mailer", Password: "s3cret", HostName: "client.test"}
	policy := egress.New(nil, nil)

	msg := "Subject: dots\r\n\r\n.leading dot\r\n..two\r\nend"
	info, err := smtpsend.Deliver(context.Background(), policy, server, "a@example.com", []string{"b@example.com"}, []byte(msg))
	require.NoError(t, err)
	require.Equal(t, []string{"b@example.com"}, info.Accepted)
	require.Contains(t, info.EHLO, "AUTH LOGIN")
	require.Equal(t, msg+"\r\n", string(got))
	require.NoError(t, smtpsend.Verify(context.Background(), policy, server))

	server.Password = "wrong"
	err = smtpsend.Verify(context.Background(), policy, server)
	var se *smtpsend.Error
	require.True(t, errors.As(err, &se), "%v", err)
	require.Equal(t, "EAUTH", se.Code)
	require.Equal(t, "Invalid login: 535 5.7.8 Authentication failed", se.Msg)
}

func TestServerOf(t *testing.T) {
	t.Parallel()
	require.Equal(t, smtpsend.Server{Host: "smtp.example.com", Port: 465, Secure: true},
		smtpsend.ServerOf(map[string]any{"host": "smtp.example.com", "disableStartTls": true}))
	require.Equal(t, smtpsend.Server{Host: "h", Port: 587, DisableStartTLS: true, HostName: "me.example.com", User: "u", Password: "p"},
		smtpsend.ServerOf(map[string]any{"host": "h", "port": float64(587), "secure": false, "disableStartTls": true,
			"hostName": "me.example.com", "user": "u", "password": "p"}))
}
