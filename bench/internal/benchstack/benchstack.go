// Package benchstack starts the scaled Flowmill stack (bin/stack) for a benchmark and stops it.
package benchstack

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
)

// Stack is a running stack.
type Stack struct {
	URLs        []string `json:"urls"`
	RedisURL    string   `json:"redisUrl"`
	DatabaseURL string   `json:"databaseUrl"`
	Logs        string   `json:"logs"`
	cmd         *exec.Cmd
}

// Start runs bin/stack with args (e.g. -workers 2 -apis 2 -env K=V) and waits for its ready line.
func Start(bin string, args ...string) (*Stack, error) {
	cmd := exec.Command(filepath.Join(bin, "stack"), append([]string{"-bin", bin}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("the stack did not start: %w", err)
	}
	s := &Stack{cmd: cmd}
	if err := json.Unmarshal([]byte(line), s); err != nil {
		_ = cmd.Process.Kill()
		return nil, err
	}
	return s, nil
}

// Stop ends the stack and waits until it has cleaned up.
func (s *Stack) Stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	_ = s.cmd.Wait()
}

// SignIn returns a cookie jar signed in as the default owner (the stack has no owner set up),
// valid on every api of the stack: they share one database and one encryption key.
func (s *Stack) SignIn() (http.CookieJar, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	res, err := (&http.Client{Jar: jar}).Get(s.URLs[0] + "rest/login")
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("sign in: status %d", res.StatusCode)
	}
	return jar, nil
}
