package ssh_test

import (
	"context"
	"encoding/base64"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/transfertest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/ssh"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// node runs the SSH node against srv with the password login unless creds says otherwise.
func node(params m, creds m, cof bool) nodetest.Node {
	credType := "sshPassword"
	if params["authentication"] == "privateKey" {
		credType = "sshPrivateKey"
	}
	return nodetest.Node{
		Parameters: params, ContinueOnFail: cof,
		Credentials: m{credType: m{"id": "1", "name": "SSH"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return creds, nil
		},
	}
}

func passwordCreds(srv *transfertest.SSHServer) m {
	return m{"host": "127.0.0.1", "port": float64(srv.Port), "username": transfertest.User, "password": transfertest.Password}
}

func TestExecute(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x"), 0o644))
	keyCreds := m{"host": "127.0.0.1", "port": float64(srv.Port), "username": transfertest.User, "privateKey": srv.PrivateKey}
	tests := []struct {
		name   string
		params m
		creds  m
		want   []m
		keys   []string
	}{
		{"password login, cwd", m{"command": "ls a.txt; echo oops >&2", "cwd": dir}, passwordCreds(srv),
			[]m{{"code": float64(0), "signal": nil, "stdout": "a.txt", "stderr": "oops"}}, []string{"code", "signal", "stdout", "stderr"}},
		{"private key login", m{"authentication": "privateKey", "command": "echo hi; exit 3"}, keyCreds,
			[]m{{"code": float64(3), "signal": nil, "stdout": "hi", "stderr": ""}}, nil},
		{"cwd with a quote", m{"command": "pwd", "cwd": dir + "/it's"}, passwordCreds(srv),
			[]m{{"code": float64(0), "signal": nil, "stdout": dir + "/it's", "stderr": ""}}, nil},
		{"killed by a signal", m{"command": "kill -TERM $$"}, passwordCreds(srv),
			[]m{{"code": nil, "signal": "SIGTERM", "stdout": "", "stderr": ""}}, nil},
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "it's"), 0o755))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, ssh.Type(), node(tc.params, tc.creds, false), nodetest.Items(m{}))
			require.NoError(t, err)
			require.Equal(t, tc.want, nodetest.JSONs(out[0]))
			if tc.keys != nil {
				require.Equal(t, [][]string{tc.keys}, nodetest.Keys(out[0]))
			}
			require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[0][0].PairedItem)
		})
	}
}

func TestHomeDirectory(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	home, err := os.UserHomeDir()
	require.NoError(t, err)
	out, err := nodetest.Run(t, ssh.Type(), node(m{"command": "pwd", "cwd": "~/"}, passwordCreds(srv), false), nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, filepath.Clean(home), filepath.Clean(nodetest.JSONs(out[0])[0]["stdout"].(string)))

	_, err = nodetest.Run(t, ssh.Type(), node(m{"command": "pwd", "cwd": "~root"}, passwordCreds(srv), false), nodetest.Items(m{}))
	require.Equal(t, `Invalid path. Replace "~" with home directory or "~/"`, nodetest.NodeError(t, err).Message)
}

func TestFiles(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	dir := t.TempDir()
	content := []byte("hello over sftp\n")
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"n": 1}), Binary: map[string]workflow.BinaryData{
		"data": nodes.NewBinary(content, "notes.txt", "text/plain")}}}

	out, err := nodetest.Run(t, ssh.Type(), node(m{"resource": "file", "operation": "upload", "path": dir}, passwordCreds(srv), false), in)
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out[0]))
	got, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	require.NoError(t, err)
	require.Equal(t, content, got)

	out, err = nodetest.Run(t, ssh.Type(), node(m{"resource": "file", "operation": "upload", "path": dir + "/",
		"options": m{"fileName": "../renamed.txt"}}, passwordCreds(srv), false), in)
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(dir, "..renamed.txt"), "the name cannot leave the directory")
	require.Len(t, out[0], 1)

	out, err = nodetest.Run(t, ssh.Type(), node(m{"resource": "file", "operation": "download", "path": dir + "/notes.txt",
		"binaryPropertyName": "file"}, passwordCreds(srv), false), in)
	require.NoError(t, err)
	require.Equal(t, []m{{"n": 1}}, nodetest.JSONs(out[0]))
	b := out[0][0].Binary["file"]
	require.Equal(t, base64.StdEncoding.EncodeToString(content), b.Data)
	require.Equal(t, dir+"/notes.txt", b.FileName)
	require.Equal(t, "text/plain", b.MimeType)
	require.Contains(t, out[0][0].Binary, "data", "the input's binary data stays")

	out, err = nodetest.Run(t, ssh.Type(), node(m{"resource": "file", "operation": "download", "path": dir + "/notes.txt",
		"options": m{"fileName": "other.txt"}}, passwordCreds(srv), false), nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, "other.txt", out[0][0].Binary["data"].FileName)

	// A missing file fails the node, or becomes the item's error with Continue On Fail.
	params := m{"resource": "file", "operation": "download", "path": dir + "/nope.txt"}
	_, err = nodetest.Run(t, ssh.Type(), node(params, passwordCreds(srv), false), nodetest.Items(m{}))
	require.Equal(t, "No such file", nodetest.NodeError(t, err).Message)
	out, err = nodetest.Run(t, ssh.Type(), node(params, passwordCreds(srv), true), nodetest.Items(m{"a": 1}, m{"b": 2}))
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "No such file"}, {"error": "No such file"}}, nodetest.JSONs(out[0]))

	// Upload without the binary property.
	_, err = nodetest.Run(t, ssh.Type(), node(m{"resource": "file", "operation": "upload", "path": dir, "binaryPropertyName": "nope"},
		passwordCreds(srv), false), in)
	require.Equal(t, "The item has no binary field 'nope' [item 0]", nodetest.NodeError(t, err).Message)
}

func TestConnectionErrors(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	run := func(n nodetest.Node) *nodes.Error {
		_, err := nodetest.Run(t, ssh.Type(), n, nodetest.Items(m{}))
		return nodetest.NodeError(t, err)
	}
	params := m{"command": "true"}

	wrong := passwordCreds(srv)
	wrong["password"] = "nope"
	require.Equal(t, "All configured authentication methods failed", run(node(params, wrong, false)).Message)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	closed := passwordCreds(srv)
	closed["port"] = float64(port)
	require.Equal(t, "connect ECONNREFUSED "+net.JoinHostPort("127.0.0.1", itoa(port)), run(node(params, closed, false)).Message)

	badKey := m{"host": "127.0.0.1", "port": float64(srv.Port), "username": transfertest.User, "privateKey": "not a key"}
	require.Contains(t, run(node(m{"authentication": "privateKey", "command": "true"}, badKey, false)).Message, "Cannot parse privateKey")

	denied := node(params, passwordCreds(srv), false)
	denied.Host = nodes.Host{HTTP: egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}).Client(egress.Options{})}
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", run(denied).Message)
}

func TestCanceled(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	ctx, cancel := context.WithCancel(context.Background())
	n := node(m{"command": "sleep 3"}, passwordCreds(srv), false)
	n.Context = ctx
	done := make(chan error, 1)
	go func() {
		_, err := nodetest.Run(t, ssh.Type(), n, nodetest.Items(m{}))
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

func itoa(n int) string { return strconv.Itoa(n) }

// Not parallel: it shortens the package's connection timeout while it runs.
func TestHandshakeTimeout(t *testing.T) {
	defer ssh.SetConnectTimeout(300 * time.Millisecond)()
	port := transfertest.Silent(t)
	creds := m{"host": "127.0.0.1", "port": float64(port), "username": "u", "password": "p"}
	start := time.Now()
	_, err := nodetest.Run(t, ssh.Type(), node(m{"command": "true"}, creds, false), nodetest.Items(m{}))
	require.Equal(t, "Timed out while waiting for handshake", nodetest.NodeError(t, err).Message)
	require.Less(t, time.Since(start), 5*time.Second)
}

func TestPrivateKeyForms(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	creds := func(key, passphrase string) m {
		return m{"host": "127.0.0.1", "port": float64(srv.Port), "username": transfertest.User, "privateKey": key, "passphrase": passphrase}
	}
	params := m{"authentication": "privateKey", "command": "echo ok"}
	encrypted := srv.EncryptedPrivateKey(t, "pw") // slow on purpose (bcrypt): made once
	for name, c := range map[string]m{
		"pasted on one line": creds(strings.ReplaceAll(srv.PrivateKey, "\n", " "), ""),
		"encrypted":          creds(encrypted, "pw"),
	} {
		out, err := nodetest.Run(t, ssh.Type(), node(params, c, false), nodetest.Items(m{}))
		require.NoError(t, err, name)
		require.Equal(t, "ok", nodetest.JSONs(out[0])[0]["stdout"], name)
	}
	_, err := nodetest.Run(t, ssh.Type(), node(params, creds(encrypted, ""), false), nodetest.Items(m{}))
	require.Equal(t, "Cannot parse privateKey: Encrypted private OpenSSH key detected, but no passphrase given", nodetest.NodeError(t, err).Message)
	_, err = nodetest.Run(t, ssh.Type(), node(params, creds(encrypted, "wrong"), false), nodetest.Items(m{}))
	require.Contains(t, nodetest.NodeError(t, err).Message, "Cannot parse privateKey")
}

func TestSizeLimit(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big"), []byte("12345"), 0o644))
	n := node(m{"resource": "file", "operation": "download", "path": dir + "/big"}, passwordCreds(srv), false)
	n.Host = nodes.Host{UnpackMaxBytes: 3}
	_, err := nodetest.Run(t, ssh.Type(), n, nodetest.Items(m{}))
	require.Equal(t, "The file is larger than 3 bytes, the limit for downloading a file (FLOWMILL_UNPACK_MAX_SIZE)", nodetest.NodeError(t, err).Message)

	n = node(m{"command": "echo 12345"}, passwordCreds(srv), false)
	n.Host = nodes.Host{UnpackMaxBytes: 3}
	_, err = nodetest.Run(t, ssh.Type(), n, nodetest.Items(m{}))
	require.Equal(t, "The command's output is larger than 3 bytes, the limit for reading a command's output (FLOWMILL_UNPACK_MAX_SIZE)",
		nodetest.NodeError(t, err).Message)
}

// The SSH credential types are tested by logging in, with n8n's message on failure.
func TestCredentialTest(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	client := egress.New([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, nil).Strict().Client(egress.Options{})
	test := func(credType string, data m) credential.TestResult {
		typ, ok := credential.Lookup(credType)
		require.True(t, ok)
		return typ.TestCredential(context.Background(), data, credential.TestInput{Client: client})
	}
	require.Equal(t, "OK", test("sshPassword", passwordCreds(srv)).Status)
	keyCreds := m{"host": "127.0.0.1", "port": float64(srv.Port), "username": transfertest.User, "privateKey": srv.PrivateKey}
	require.Equal(t, "OK", test("sshPrivateKey", keyCreds).Status)
	wrong := passwordCreds(srv)
	wrong["password"] = "nope"
	require.Equal(t, credential.TestResult{Status: "Error", Message: "SSH connection failed: All configured authentication methods failed"},
		test("sshPassword", wrong))
}
