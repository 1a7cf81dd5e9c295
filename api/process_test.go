package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds bin/api, bin/worker and bin/scheduler once per test run.
func binaries(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "flowmill-bin-")
		if buildErr != nil {
			return
		}
		for name, pkg := range map[string]string{"api": ".", "worker": "../worker", "scheduler": "../scheduler"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, name), pkg).CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("build %s: %v\n%s", name, err, out)
				return
			}
		}
	})
	require.NoError(t, buildErr)
	return binDir
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// proc is a Flowmill process started by a test; its output is kept for failure messages and
// for tests that wait on a log line.
type proc struct {
	cmd    *exec.Cmd
	output *syncBuffer
	done   chan struct{}
}

// syncBuffer is a bytes.Buffer the process writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func startProc(t *testing.T, name string, env map[string]string) *proc {
	t.Helper()
	cmd := exec.Command(filepath.Join(binaries(t), name))
	// No load balancer routes around test processes: no readiness drain unless a test sets one.
	cmd.Env = append(os.Environ(), "FLOWMILL_LOG_LEVEL=warn", "FLOWMILL_SHUTDOWN_DRAIN=0s")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	p := &proc{cmd: cmd, output: &out, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", name, out.String())
		}
	})
	return p
}

// waitReady polls readiness until it answers 200. A stack's processes all start at once and
// apply the migrations one after another, which on a loaded machine takes a while.
func waitReady(t *testing.T, base string) {
	t.Helper()
	require.Eventually(t, func() bool {
		res, err := http.Get(base + "healthz/readiness")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == 200
	}, 90*time.Second, 50*time.Millisecond, "%s never became ready", base)
	signInDefault(t, base)
}

func post(t *testing.T, url, body string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestScaledPushReachesAnotherAPI runs two api processes, a worker and a scheduler on Postgres and
// Redis: a ping enqueued through api A is executed by the worker, whose push message reaches an
// SSE client connected to api B.
func TestScaledPushReachesAnotherAPI(t *testing.T) {
	a, b, _, _ := scaledStack(t, 1)

	stream := openPush(t, b, "editor-on-b")
	code, body := post(t, a+"rest/debug/ping", `{"message":"across"}`, "sessionid", "editor-on-b")
	require.Equal(t, 200, code, body)
	var ping pingResponse
	decodeData(t, []byte(body), &ping)

	m := readEvent(t, stream)
	require.Equal(t, "sendConsoleMessage", m["type"])
	data := m["data"].(map[string]any)
	require.Contains(t, data["source"], "worker ")
	msgs := data["messages"].([]any)
	require.Len(t, msgs, 1)
	require.Contains(t, msgs[0], "pong across from ")

	// The task result is readable through either api.
	require.Eventually(t, func() bool {
		res, err := http.Get(b + "rest/debug/ping/" + ping.ID)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		return res.StatusCode == 200
	}, 5*time.Second, 20*time.Millisecond)
}

// withSettings sets extra settings, given as name, value pairs, in env and returns it.
func withSettings(env map[string]string, extra []string) map[string]string {
	for i := 0; i+1 < len(extra); i += 2 {
		env[extra[i]] = extra[i+1]
	}
	return env
}

// startEmbedded starts the embedded default (one api process with SQLite in a fresh data
// folder, its own Redis, worker and scheduler), with extra settings as name, value pairs, and
// returns it once it is ready, with its base URL.
func startEmbedded(t *testing.T, extra ...string) (*proc, string) {
	t.Helper()
	port := freePort(t)
	env := withSettings(map[string]string{
		"FLOWMILL_PORT": fmt.Sprint(port), "FLOWMILL_DATA_DIR": t.TempDir(),
		"FLOWMILL_DATABASE_URL": "", "FLOWMILL_REDIS_URL": "", "FLOWMILL_ENCRYPTION_KEY": "",
	}, extra)
	p := startProc(t, "api", env)
	base := fmt.Sprintf("http://127.0.0.1:%d/", port)
	waitReady(t, base)
	return p, base
}

func TestEmbeddedModeRunsAloneAndStopsCleanly(t *testing.T) {
	p, base := startEmbedded(t)
	stream := openPush(t, base, "embedded-editor")
	code, body := post(t, base+"rest/debug/ping", `{"message":"inside"}`, "sessionid", "embedded-editor")
	require.Equal(t, 200, code, body)
	m := readEvent(t, stream)
	require.Contains(t, m["data"].(map[string]any)["messages"].([]any)[0], "pong inside")

	start := time.Now()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
		t.Fatal("api did not exit within 15s of SIGTERM")
	}
	require.Equal(t, 0, p.cmd.ProcessState.ExitCode(), p.output.String())
	t.Logf("stopped in %v", time.Since(start))
}

func TestBadConfigurationStopsWithOneLine(t *testing.T) {
	cases := []struct {
		bin  string
		env  map[string]string
		want string
	}{
		{"api", map[string]string{"FLOWMILL_DATABASE_URL": "mysql://db/x"}, "FLOWMILL_DATABASE_URL: scheme must be postgres or postgresql"},
		{"api", map[string]string{"FLOWMILL_DATABASE_URL": "postgres://user:pw@[::1"}, "FLOWMILL_DATABASE_URL: not a valid URL"},
		{"api", map[string]string{"FLOWMILL_PORT": "seventy"}, `FLOWMILL_PORT: "seventy" is not a whole number`},
		{"worker", map[string]string{"FLOWMILL_REDIS_URL": ""}, "FLOWMILL_REDIS_URL is not set"},
		{"scheduler", map[string]string{"FLOWMILL_REDIS_URL": "redis://127.0.0.1:6379", "FLOWMILL_DATABASE_URL": ""}, "FLOWMILL_DATABASE_URL is not set"},
	}
	for _, tc := range cases {
		cmd := exec.Command(filepath.Join(binaries(t), tc.bin))
		cmd.Env = append(os.Environ(), "FLOWMILL_DATA_DIR="+t.TempDir())
		for k, v := range tc.env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		require.Error(t, err, tc.bin)
		require.Equal(t, 1, cmd.ProcessState.ExitCode())
		text := strings.TrimRight(stderr.String(), "\n")
		require.NotContains(t, text, "\n", "one line: %q", text)
		require.Contains(t, text, tc.want)
		require.NotContains(t, text, "pw@", "the password must not be printed")
	}
}

// TestEveryBinaryAnswersHelpAndVersion: --help lists the commands and every setting, --version
// the release, on each binary, without opening anything; a stray argument names --help.
func TestEveryBinaryAnswersHelpAndVersion(t *testing.T) {
	for _, bin := range []string{"api", "worker", "scheduler"} {
		out, err := exec.Command(filepath.Join(binaries(t), bin), "--version").Output()
		require.NoError(t, err, bin)
		require.Regexp(t, `^flowmill `+bin+` \S+\n$`, string(out))

		out, err = exec.Command(filepath.Join(binaries(t), bin), "--help").Output()
		require.NoError(t, err, bin)
		for _, want := range []string{"import:workflow", "export:workflow", "import:credentials", "export:credentials",
			"update:workflow", "FLOWMILL_DATABASE_URL", "--health-port"} {
			require.Contains(t, string(out), want, bin)
		}
		require.Equal(t, bin == "worker", strings.Contains(string(out), "\n  execute "), "%s: execute is bin/worker's", bin)

		cmd := exec.Command(filepath.Join(binaries(t), bin), "-h")
		require.NoError(t, cmd.Run(), "%s -h", bin)

		var stderr bytes.Buffer
		cmd = exec.Command(filepath.Join(binaries(t), bin), "stray")
		cmd.Stderr = &stderr
		require.Error(t, cmd.Run())
		require.Contains(t, stderr.String(), `unexpected argument "stray"`)
		require.Contains(t, stderr.String(), "see --help")
	}
}
