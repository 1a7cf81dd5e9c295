package remote

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFormatPrivateKey(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("A", 70) + strings.Repeat("B", 10)
	want := "-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.Repeat("A", 64) + "\n" + strings.Repeat("A", 6) +
		strings.Repeat("B", 10) + "\n-----END OPENSSH PRIVATE KEY-----\n"
	require.Equal(t, want, FormatPrivateKey("-----BEGIN OPENSSH PRIVATE KEY----- "+body+" -----END OPENSSH PRIVATE KEY-----"))
	require.Equal(t, want, FormatPrivateKey("  -----BEGIN OPENSSH PRIVATE KEY-----"+body[:40]+" "+body[40:]+"-----END OPENSSH PRIVATE KEY-----\n"))
	require.Equal(t, strings.TrimSpace(want), FormatPrivateKey(want), "keys with their line breaks stay as they are")
	require.Equal(t, strings.TrimSpace(want), FormatPrivateKey(strings.ReplaceAll(want, "\n", `\n`)), "escaped line breaks")
	require.Equal(t, "not a key", FormatPrivateKey("not a key"))
}

func TestDownloadedBinary(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	b := DownloadedBinary(png, "/remote/pic")
	require.Equal(t, "image/png", b.MimeType)
	require.Equal(t, "png", b.FileExtension)
	require.Equal(t, "/remote/pic", b.FileName)
	b = DownloadedBinary([]byte("a,b\n1,2\n"), "x.csv")
	require.Equal(t, "text/plain", b.MimeType, "the file name does not decide, as in n8n's copyBinaryFile")
	require.Equal(t, "", b.FileExtension)
}

func TestReadAll(t *testing.T) {
	t.Parallel()
	data, err := ReadAll(strings.NewReader("abc"), 3)
	require.NoError(t, err)
	require.Equal(t, "abc", string(data))
	_, err = ReadAll(strings.NewReader("abcd"), 3)
	var tooLarge *TooLargeError
	require.True(t, errors.As(err, &tooLarge))
}
