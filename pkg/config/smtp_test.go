package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSMTPSettings(t *testing.T) {
	c, err := Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir()}))
	require.NoError(t, err)
	require.False(t, c.SMTPSetUp())
	require.Equal(t, 465, c.SMTPPort)
	require.True(t, c.SMTPSSL)

	c, err = Load(nil, env(map[string]string{
		"FLOWMILL_DATA_DIR": t.TempDir(), "FLOWMILL_SMTP_HOST": "mail.example.com", "FLOWMILL_SMTP_PORT": "587",
		"FLOWMILL_SMTP_USER": "bot", "FLOWMILL_SMTP_PASS": "hunter2", "FLOWMILL_SMTP_SENDER": "Flowmill <bot@example.com>",
		"FLOWMILL_SMTP_SSL": "false",
	}))
	require.NoError(t, err)
	require.True(t, c.SMTPSetUp())
	require.Equal(t, 587, c.SMTPPort)
	require.False(t, c.SMTPSSL)
	dump := strings.Join(c.Redacted(), "\n")
	require.NotContains(t, dump, "hunter2")
	require.Contains(t, dump, "FLOWMILL_SMTP_PASS=(set)")

	_, err = Load(nil, env(map[string]string{"FLOWMILL_DATA_DIR": t.TempDir(), "FLOWMILL_SMTP_HOST": "mail.example.com",
		"FLOWMILL_SMTP_PORT": "0"}))
	require.ErrorContains(t, err, "FLOWMILL_SMTP_PORT: 0 is not a port")
	require.ErrorContains(t, err, "FLOWMILL_SMTP_SENDER")
}
