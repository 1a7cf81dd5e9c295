// Package transfertest starts real SSH/SFTP and FTP servers on 127.0.0.1 for the tests of the
// FTP and SSH nodes.
package transfertest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os/exec"
	"sync"
	"syscall"
	"testing"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// User and Password are the login the servers accept.
const (
	User     = "tester"
	Password = "secret"
)

// SSHServer is an SSH server that runs exec requests with sh -c and serves the sftp subsystem
// on the real file system.
type SSHServer struct {
	Addr string
	Port int
	// PrivateKey is an OpenSSH private key the server accepts for User.
	PrivateKey string
	key        ed25519.PrivateKey
}

// EncryptedPrivateKey is PrivateKey encrypted with passphrase.
func (s *SSHServer) EncryptedPrivateKey(t testing.TB, passphrase string) string {
	block, err := ssh.MarshalPrivateKeyWithPassphrase(s.key, "", []byte(passphrase))
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(block))
}

// Silent listens on 127.0.0.1 and accepts connections without ever answering, for timeout
// and cancellation tests; it returns the port.
func Silent(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

// StartSSH starts an SSH server on 127.0.0.1 that accepts User with Password or with the
// returned PrivateKey; it stops when the test ends.
func StartSSH(t testing.TB) *SSHServer {
	t.Helper()
	_, hostKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostSigner, err := ssh.NewSignerFromKey(hostKey)
	if err != nil {
		t.Fatal(err)
	}
	userPub, userKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(userKey, "")
	if err != nil {
		t.Fatal(err)
	}
	authorized, err := ssh.NewPublicKey(userPub)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{
		PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			if c.User() == User && string(pw) == Password {
				return nil, nil
			}
			return nil, errors.New("wrong password")
		},
		PublicKeyCallback: func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if c.User() == User && string(key.Marshal()) == string(authorized.Marshal()) {
				return nil, nil
			}
			return nil, errors.New("unknown key")
		},
	}
	cfg.AddHostKey(hostSigner)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); serveSSH(c, cfg) }()
		}
	}()
	return &SSHServer{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port, PrivateKey: string(pem.EncodeToMemory(block)), key: userKey}
}

func serveSSH(c net.Conn, cfg *ssh.ServerConfig) {
	defer c.Close()
	conn, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		return
	}
	defer conn.Close()
	go ssh.DiscardRequests(reqs)
	var wg sync.WaitGroup
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, reqs, err := nc.Accept()
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); serveSession(ch, reqs) }()
	}
	wg.Wait()
}

func serveSession(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for req := range reqs {
		switch req.Type {
		case "exec":
			var p struct{ Command string }
			if err := ssh.Unmarshal(req.Payload, &p); err != nil {
				_ = req.Reply(false, nil)
				continue
			}
			_ = req.Reply(true, nil)
			cmd := exec.Command("sh", "-c", p.Command)
			cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
			cmd.Stdin = ch
			code := 0
			if err := cmd.Run(); err != nil {
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
						sendSignal(ch, ws.Signal())
						return
					}
					code = ee.ExitCode()
				} else {
					code = 127
				}
			}
			status := make([]byte, 4)
			binary.BigEndian.PutUint32(status, uint32(code))
			_, _ = ch.SendRequest("exit-status", false, status)
			return
		case "subsystem":
			var p struct{ Name string }
			if err := ssh.Unmarshal(req.Payload, &p); err != nil || p.Name != "sftp" {
				_ = req.Reply(false, nil)
				continue
			}
			_ = req.Reply(true, nil)
			srv, err := sftp.NewServer(ch)
			if err != nil {
				return
			}
			if err := srv.Serve(); err != nil && !errors.Is(err, io.EOF) {
				return
			}
			return
		default:
			_ = req.Reply(req.Type == "env", nil)
		}
	}
}

func sendSignal(ch ssh.Channel, sig syscall.Signal) {
	names := map[syscall.Signal]string{syscall.SIGTERM: "TERM", syscall.SIGKILL: "KILL", syscall.SIGINT: "INT", syscall.SIGHUP: "HUP"}
	name := names[sig]
	if name == "" {
		name = "USR1"
	}
	_, _ = ch.SendRequest("exit-signal", false, ssh.Marshal(struct {
		Signal     string
		CoreDumped bool
		Message    string
		Lang       string
	}{Signal: name}))
}
