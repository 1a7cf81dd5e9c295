package ftp_test

import (
	"context"
	"encoding/base64"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/ftp"
	"github.com/flowmill/flowmill/pkg/nodes/internal/transfertest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func node(params, creds m, cof bool) nodetest.Node {
	credType := "ftp"
	if params["protocol"] == "sftp" {
		credType = "sftp"
	}
	return nodetest.Node{
		Parameters: params, ContinueOnFail: cof,
		Credentials: m{credType: m{"id": "1", "name": "server"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return creds, nil
		},
	}
}

func login(port int) m {
	return m{"host": "127.0.0.1", "port": float64(port), "username": transfertest.User, "password": transfertest.Password}
}

// tree writes a folder with a file, a subfolder with a file, and fixed times.
func tree(t *testing.T) (string, time.Time) {
	t.Helper()
	root := t.TempDir()
	recent := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Minute)
	old := time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)
	require.NoError(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub", "deeper"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "sub", "b.bin"), []byte{1, 2, 3}, 0o600))
	require.NoError(t, os.Chtimes(filepath.Join(root, "a.txt"), recent, recent))
	require.NoError(t, os.Chtimes(filepath.Join(root, "sub", "b.bin"), old, old))
	return root, recent
}

func run(t *testing.T, n nodetest.Node, in ...map[string]any) ([]workflow.Item, error) {
	t.Helper()
	if len(in) == 0 {
		in = []map[string]any{{}}
	}
	out, err := nodetest.Run(t, ftp.Type(), n, nodetest.Items(in...))
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func byName(items []workflow.Item) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, j := range nodetest.JSONs(items) {
		out[j["path"].(string)] = j
	}
	return out
}

func TestFTPList(t *testing.T) {
	t.Parallel()
	root, recent := tree(t)
	srv := transfertest.StartFTP(t, root)
	out, err := run(t, node(m{"operation": "list", "path": "/"}, login(srv.Port), false))
	require.NoError(t, err)
	require.Len(t, out, 2)
	got := byName(out)
	require.Equal(t, m{"type": "-", "name": "a.txt", "sticky": false, "rights": m{"user": "rw", "group": "r", "other": "r"},
		"acl": false, "owner": "ftp", "group": "ftp", "size": float64(5),
		"modifyTime": recent.Format("2006-01-02T15:04:05.000Z"), "path": "/a.txt"}, got["/a.txt"])
	require.Equal(t, "d", got["/sub"]["type"])
	for _, keys := range nodetest.Keys(out) {
		require.Equal(t, []string{"type", "name", "sticky", "rights", "acl", "owner", "group", "size", "modifyTime", "path"}, keys)
	}
	require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[1].PairedItem)

	out, err = run(t, node(m{"operation": "list", "path": "/sub", "recursive": true}, login(srv.Port), false))
	require.NoError(t, err)
	got = byName(out)
	require.Len(t, got, 2)
	require.Equal(t, "2020-01-02T00:00:00.000Z", got["/sub/b.bin"]["modifyTime"])
	require.Equal(t, m{"user": "rw", "group": "", "other": ""}, got["/sub/b.bin"]["rights"])
	require.Contains(t, got, "/sub/deeper")

	out, err = run(t, node(m{"operation": "list", "path": "/", "recursive": true}, login(srv.Port), false))
	require.NoError(t, err)
	require.Len(t, out, 4, "breadth first over every folder")
	require.Equal(t, "/sub/deeper", nodetest.JSONs(out)[3]["path"])
}

func TestFTPFiles(t *testing.T) {
	t.Parallel()
	root, _ := tree(t)
	srv := transfertest.StartFTP(t, root)
	srv.NoEPSV = true // PASV only
	creds := login(srv.Port)

	// Download keeps the item and adds the file.
	out, err := run(t, node(m{"operation": "download", "path": "/a.txt", "binaryPropertyName": "file"}, creds, false), m{"k": "v"})
	require.NoError(t, err)
	require.Equal(t, []m{{"k": "v"}}, nodetest.JSONs(out))
	b := out[0].Binary["file"]
	require.Equal(t, base64.StdEncoding.EncodeToString([]byte("hello")), b.Data)
	require.Equal(t, "a.txt", b.FileName)
	require.Equal(t, "text/plain", b.MimeType)

	// Upload of binary data into folders that do not exist yet (553, then created).
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"n": 1}), Binary: map[string]workflow.BinaryData{
		"data": nodes.NewBinary([]byte("uploaded"), "u.txt", "")}}}
	up, err := nodetest.Run(t, ftp.Type(), node(m{"operation": "upload", "path": "/new/dir/u.txt"}, creds, false), in)
	require.NoError(t, err)
	require.Equal(t, []m{{"n": 1}}, nodetest.JSONs(up[0]))
	require.Contains(t, up[0][0].Binary, "data")
	requireFile(t, filepath.Join(root, "new", "dir", "u.txt"), "uploaded")

	// Upload of text.
	_, err = run(t, node(m{"operation": "upload", "path": "/t.txt", "binaryData": false, "fileContent": "text ✓"}, creds, false))
	require.NoError(t, err)
	requireFile(t, filepath.Join(root, "t.txt"), "text ✓")

	// Rename, creating the target's folders on request.
	out, err = run(t, node(m{"operation": "rename", "oldPath": "/t.txt", "newPath": "/moved/here/t.txt"}, creds, false))
	require.Error(t, err)
	require.Equal(t, "Rename failed.", nodetest.NodeError(t, err).Message)
	out, err = run(t, node(m{"operation": "rename", "oldPath": "/t.txt", "newPath": "/moved/here/t.txt",
		"options": m{"createDirectories": true}}, creds, false))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out))
	requireFile(t, filepath.Join(root, "moved", "here", "t.txt"), "text ✓")

	// Delete a file, a folder that is not empty, then recursively.
	out, err = run(t, node(m{"operation": "delete", "path": "/a.txt"}, creds, false))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out))
	require.NoFileExists(t, filepath.Join(root, "a.txt"))
	_, err = run(t, node(m{"operation": "delete", "path": "/sub", "options": m{"folder": true}}, creds, false))
	require.Equal(t, "Remove directory operation failed.", nodetest.NodeError(t, err).Message)
	_, err = run(t, node(m{"operation": "delete", "path": "/sub", "options": m{"folder": true, "recursive": true}}, creds, false))
	require.NoError(t, err)
	require.NoDirExists(t, filepath.Join(root, "sub"))
}

func requireFile(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, want, string(got))
}

func TestFTPErrors(t *testing.T) {
	t.Parallel()
	root, _ := tree(t)
	srv := transfertest.StartFTP(t, root)

	_, err := run(t, node(m{"operation": "download", "path": "/nope.txt"}, login(srv.Port), false))
	require.Equal(t, "Failed to open file.", nodetest.NodeError(t, err).Message)

	// With Continue On Fail each item gets its own error, and the connection stays usable.
	out, err := run(t, node(m{"operation": "download", "path": "={{ $json.p }}"}, login(srv.Port), true), m{"p": "/nope"}, m{"p": "/a.txt"})
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "Failed to open file."}, {"p": "/a.txt"}}, nodetest.JSONs(out))
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[1].PairedItem)

	wrong := login(srv.Port)
	wrong["password"] = "nope"
	_, err = run(t, node(m{"operation": "list"}, wrong, false))
	require.Equal(t, "Login incorrect.", nodetest.NodeError(t, err).Message)
	out, err = run(t, node(m{"operation": "list"}, wrong, true), m{"a": 1}, m{"b": 2})
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "Login incorrect."}}, nodetest.JSONs(out))
	require.Equal(t, workflow.PairedItems{{Item: 0}, {Item: 1}}, *out[0].PairedItem)

	port := closedPort(t)
	_, err = run(t, node(m{"operation": "list"}, login(port), false))
	require.Equal(t, "connect ECONNREFUSED 127.0.0.1:"+strconv.Itoa(port), nodetest.NodeError(t, err).Message)

	before := len(srv.Commands())
	denied := node(m{"operation": "list"}, login(srv.Port), false)
	denied.Host = denyLoopback()
	_, err = run(t, denied)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", nodetest.NodeError(t, err).Message)
	require.Len(t, srv.Commands(), before, "nothing reached the server while the address was denied")
}

func closedPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

func denyLoopback() nodes.Host {
	return nodes.Host{HTTP: egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}).Client(egress.Options{})}
}

func TestSFTP(t *testing.T) {
	t.Parallel()
	root, recent := tree(t)
	srv := transfertest.StartSSH(t)
	creds := login(srv.Port)
	sftp := func(p m) m { p["protocol"] = "sftp"; return p }

	out, err := run(t, node(sftp(m{"operation": "list", "path": root}), creds, false))
	require.NoError(t, err)
	got := byName(out)
	a := got[root+"/a.txt"]
	require.Equal(t, "-", a["type"])
	require.Equal(t, float64(5), a["size"])
	require.Equal(t, recent.Format("2006-01-02T15:04:05.000Z"), a["modifyTime"])
	require.Equal(t, m{"user": "rw", "group": "r", "other": "r"}, a["rights"])
	require.Regexp(t, `^-rw-r--r-- +1 \d+ +\d+ +5 \w{3} [ \d]\d \d\d:\d\d a\.txt$`, a["longname"])
	require.Equal(t, float64(os.Getuid()), a["owner"])
	require.Equal(t, "d", got[root+"/sub"]["type"])
	require.Equal(t, []string{"type", "name", "size", "modifyTime", "accessTime", "rights", "owner", "group", "longname", "path"}, nodetest.Keys(out)[0])

	out, err = run(t, node(sftp(m{"operation": "list", "path": root + "/", "recursive": true}), creds, false))
	require.NoError(t, err)
	require.Contains(t, byName(out), root+"/sub/deeper")
	require.Len(t, out, 4)

	// Private key login; download.
	keyCreds := m{"host": "127.0.0.1", "port": float64(srv.Port), "username": transfertest.User, "privateKey": srv.PrivateKey}
	out, err = run(t, node(sftp(m{"operation": "download", "path": root + "/sub/b.bin"}), keyCreds, false))
	require.NoError(t, err)
	require.Equal(t, base64.StdEncoding.EncodeToString([]byte{1, 2, 3}), out[0].Binary["data"].Data)
	require.Equal(t, "b.bin", out[0].Binary["data"].FileName)

	// Upload creates the folders; rename with and without them; delete.
	_, err = run(t, node(sftp(m{"operation": "upload", "path": root + "/x/y/z.txt", "binaryData": false, "fileContent": "zz"}), creds, false))
	require.NoError(t, err)
	requireFile(t, filepath.Join(root, "x", "y", "z.txt"), "zz")
	_, err = run(t, node(sftp(m{"operation": "rename", "oldPath": root + "/x/y/z.txt", "newPath": root + "/q/z.txt"}), creds, false))
	require.Equal(t, "_rename: No such file From: "+root+"/x/y/z.txt To: "+root+"/q/z.txt", nodetest.NodeError(t, err).Message)
	_, err = run(t, node(sftp(m{"operation": "rename", "oldPath": root + "/x/y/z.txt", "newPath": root + "/q/z.txt",
		"options": m{"createDirectories": true}}), creds, false))
	require.NoError(t, err)
	requireFile(t, filepath.Join(root, "q", "z.txt"), "zz")

	out, err = run(t, node(sftp(m{"operation": "delete", "path": root + "/q/z.txt"}), creds, false))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out))
	_, err = run(t, node(sftp(m{"operation": "delete", "path": root + "/x", "options": m{"folder": true}}), creds, false))
	require.Equal(t, "rmdir: Failure "+root+"/x", nodetest.NodeError(t, err).Message)
	_, err = run(t, node(sftp(m{"operation": "delete", "path": root + "/x", "options": m{"folder": true, "recursive": true}}), creds, false))
	require.NoError(t, err)
	require.NoDirExists(t, filepath.Join(root, "x"))
	_, err = run(t, node(sftp(m{"operation": "delete", "path": root + "/x", "options": m{"folder": true}}), creds, false))
	require.Equal(t, "rmdir: Bad path: "+root+"/x No such file", nodetest.NodeError(t, err).Message)
}

func TestSFTPErrors(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	dir := t.TempDir()
	sftp := func(p m) m { p["protocol"] = "sftp"; return p }

	_, err := run(t, node(sftp(m{"operation": "download", "path": dir + "/nope"}), login(srv.Port), false))
	require.Equal(t, "_get: No such file "+dir+"/nope", nodetest.NodeError(t, err).Message)
	_, err = run(t, node(sftp(m{"operation": "list", "path": dir + "/nope"}), login(srv.Port), false))
	require.Equal(t, "list: No such file "+dir+"/nope", nodetest.NodeError(t, err).Message)

	wrong := login(srv.Port)
	wrong["password"] = "nope"
	_, err = run(t, node(sftp(m{"operation": "list", "path": dir}), wrong, false))
	require.Equal(t, "connect: getConnection: All configured authentication methods failed", nodetest.NodeError(t, err).Message)

	_, err = run(t, node(sftp(m{"operation": "list", "path": dir}), login(closedPort(t)), false))
	require.Equal(t, "connect: Remote host refused connection", nodetest.NodeError(t, err).Message)

	denied := node(sftp(m{"operation": "list", "path": dir}), login(srv.Port), false)
	denied.Host = denyLoopback()
	_, err = run(t, denied)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", nodetest.NodeError(t, err).Message)
}

func TestTimeoutsAndCancel(t *testing.T) {
	t.Parallel()
	port := transfertest.Silent(t)
	for _, tc := range []struct{ protocol, want string }{
		{"ftp", "Timeout while connecting to server"},
		{"sftp", "connect: getConnection: Timed out while waiting for handshake"},
	} {
		start := time.Now()
		_, err := run(t, node(m{"protocol": tc.protocol, "operation": "list", "options": m{"timeout": 300}}, login(port), false))
		require.Equal(t, tc.want, nodetest.NodeError(t, err).Message, tc.protocol)
		require.Less(t, time.Since(start), 5*time.Second)

		ctx, cancel := context.WithCancel(context.Background())
		n := node(m{"protocol": tc.protocol, "operation": "list"}, login(port), false)
		n.Context = ctx
		time.AfterFunc(100*time.Millisecond, cancel)
		start = time.Now()
		_, err = run(t, n)
		require.ErrorIs(t, err, context.Canceled, tc.protocol)
		require.Less(t, time.Since(start), 5*time.Second)
	}
}

func TestDownloadLimit(t *testing.T) {
	t.Parallel()
	root, _ := tree(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, "small"), []byte("ab"), 0o644))
	ftpSrv := transfertest.StartFTP(t, root)
	sshSrv := transfertest.StartSSH(t)
	const msg = "The file is larger than 3 bytes, the limit for downloading a file (FLOWMILL_UNPACK_MAX_SIZE)"
	for _, tc := range []struct {
		protocol, dir string
		port          int
	}{{"ftp", "", ftpSrv.Port}, {"sftp", root, sshSrv.Port}} {
		n := node(m{"protocol": tc.protocol, "operation": "download", "path": "={{ $json.p }}"}, login(tc.port), true)
		n.Host = nodes.Host{UnpackMaxBytes: 3}
		out, err := run(t, n, m{"p": tc.dir + "/a.txt"}, m{"p": tc.dir + "/small"})
		require.NoError(t, err, tc.protocol)
		require.Equal(t, m{"error": msg}, nodetest.JSONs(out)[0], tc.protocol)
		require.Equal(t, base64.StdEncoding.EncodeToString([]byte("ab")), out[1].Binary["data"].Data,
			"%s: the connection is still usable after the aborted transfer", tc.protocol)
	}
}

// An SFTP credential with both a key and a password tries both, as ssh2 does.
func TestSFTPKeyAndPassword(t *testing.T) {
	t.Parallel()
	srv := transfertest.StartSSH(t)
	dir := t.TempDir()
	other := transfertest.StartSSH(t).PrivateKey // a key this server does not know
	creds := login(srv.Port)
	creds["privateKey"] = other
	out, err := run(t, node(m{"protocol": "sftp", "operation": "list", "path": dir}, creds, false))
	require.NoError(t, err)
	require.Empty(t, out)

	creds["password"] = ""
	_, err = run(t, node(m{"protocol": "sftp", "operation": "list", "path": dir}, creds, false))
	require.Equal(t, "connect: getConnection: All configured authentication methods failed", nodetest.NodeError(t, err).Message)
}

// The ftp and sftp credential types are tested by logging in, through the test's egress client.
func TestCredentialTest(t *testing.T) {
	t.Parallel()
	ftpSrv := transfertest.StartFTP(t, t.TempDir())
	sshSrv := transfertest.StartSSH(t)
	allowLoopback := egress.New([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, nil).Strict().Client(egress.Options{})
	strict := egress.New(nil, nil).Strict().Client(egress.Options{})
	test := func(credType string, data m, client *http.Client) credential.TestResult {
		typ, ok := credential.Lookup(credType)
		require.True(t, ok)
		return typ.TestCredential(context.Background(), data, credential.TestInput{Client: client})
	}
	okResult := credential.TestResult{Status: "OK", Message: "Connection successful!"}
	require.Equal(t, okResult, test("ftp", login(ftpSrv.Port), allowLoopback))
	require.Equal(t, okResult, test("sftp", login(sshSrv.Port), allowLoopback))
	wrong := login(ftpSrv.Port)
	wrong["password"] = "nope"
	require.Equal(t, credential.TestResult{Status: "Error", Message: "Login incorrect."}, test("ftp", wrong, allowLoopback))
	wrong["port"] = float64(sshSrv.Port)
	require.Equal(t, credential.TestResult{Status: "Error", Message: "connect: getConnection: All configured authentication methods failed"},
		test("sftp", wrong, allowLoopback))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "The address 127.0.0.1 is not allowed (built-in refusal of loopback and " +
		"private addresses for fetches any member can make; FLOWMILL_EGRESS_ALLOW can open it)."}, test("ftp", login(ftpSrv.Port), strict))
}
