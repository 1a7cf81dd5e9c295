package mail

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/mail/mailtest"
)

func TestSendPlainWithSignIn(t *testing.T) {
	srv := mailtest.Start(t)
	m, err := New(Config{Host: srv.Host, Port: srv.Port, User: "bot", Pass: "s3cret", Sender: "Flowmill <bot@example.com>"})
	require.NoError(t, err)
	msg := Invitation("ann@example.com", "http://localhost:5678/signup?inviterId=a&inviteeId=b", "http://localhost:5678/")
	require.NoError(t, m.Send(context.Background(), msg))
	got := srv.Next(t)
	require.Equal(t, "bot@example.com", got.From)
	require.Equal(t, "ann@example.com", got.To)
	require.Equal(t, "bot:s3cret", got.Auth)
	require.Equal(t, "You have been invited to Flowmill", got.Subject)
	require.Equal(t, []string{"http://localhost:5678/", "http://localhost:5678/signup?inviterId=a&inviteeId=b"}, got.Links())
	require.Contains(t, got.HTML, `href="http://localhost:5678/signup?inviterId=a&amp;inviteeId=b"`)
	require.Contains(t, got.Raw, "From: \"Flowmill\" <bot@example.com>")
}

func TestSendOverTLS(t *testing.T) {
	srv := mailtest.StartTLS(t)
	m, err := New(Config{Host: srv.Host, Port: srv.Port, SSL: true, Sender: "bot@example.com", RootCAs: srv.RootCAs})
	require.NoError(t, err)
	require.NoError(t, m.Send(context.Background(), PasswordReset("Ann <ann@example.com>", "Ann", "https://flow.example.com/change-password?token=t&userId=u", "https://flow.example.com/", "2 hours")))
	got := srv.Next(t)
	require.Equal(t, "ann@example.com", got.To)
	require.Empty(t, got.Auth)
	require.Contains(t, got.Text, "Hi Ann,")
	require.Contains(t, got.Links(), "https://flow.example.com/change-password?token=t&userId=u")

	// An untrusted certificate is refused.
	m, err = New(Config{Host: srv.Host, Port: srv.Port, SSL: true, Sender: "bot@example.com"})
	require.NoError(t, err)
	require.ErrorContains(t, m.Send(context.Background(), Invitation("a@example.com", "http://x/", "http://x/")), "TLS with mail server")
}

func TestSendWithoutServer(t *testing.T) {
	m, err := New(Config{})
	require.NoError(t, err)
	require.False(t, m.Configured())
	require.ErrorIs(t, m.Send(context.Background(), Message{To: "a@example.com"}), ErrNotConfigured)

	_, err = New(Config{Host: "mail.example.com", Sender: "not an address"})
	require.Error(t, err)
}
