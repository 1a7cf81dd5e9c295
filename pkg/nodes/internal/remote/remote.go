// Package remote holds what the FTP and SSH nodes share: connecting through the egress policy,
// SSH sessions with n8n's authentication, reading credentials, and moving binary data with
// the instance's size limit.
package remote

import (
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filetype"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Server is where a credential connects to.
type Server struct {
	Host     string
	Port     int
	Username string
	Password string
	// PrivateKey and Passphrase are SSH keys; empty for password logins.
	PrivateKey string
	Passphrase string
}

// ServerOf reads the connection fields of a credential (host, port, username, password,
// privateKey, passphrase); port is defaultPort when the credential has none.
func ServerOf(creds map[string]any, defaultPort int) Server {
	s := Server{
		Host:       strings.TrimSpace(str(creds["host"])),
		Username:   str(creds["username"]),
		Password:   str(creds["password"]),
		PrivateKey: str(creds["privateKey"]),
		Passphrase: str(creds["passphrase"]),
		Port:       defaultPort,
	}
	if f := jsv.ToNumber(creds["port"]); f > 0 && f < 65536 {
		s.Port = int(f)
	}
	return s
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return jsv.ToString(v)
}

// Address is host:port for dialing.
func (s Server) Address() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// Dial opens a TCP connection to address through the egress policy of client (a run's
// Execution.HTTPClient), bounded by timeout and ctx. Errors read as Node's socket errors do
// ("connect ECONNREFUSED 127.0.0.1:21").
func Dial(ctx context.Context, client *http.Client, address string, timeout time.Duration) (net.Conn, error) {
	c, err := egress.PolicyOf(client).Dialer(cmp.Or(timeout, 30*time.Second)).DialContext(ctx, "tcp", address)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, DialError(err, address)
	}
	return c, nil
}

// DialError words a failed dial as Node does; policy refusals keep their own message.
func DialError(err error, address string) error {
	if re, ok := egress.Refusal(err); ok {
		return re
	}
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		host, _, _ := net.SplitHostPort(address)
		return fmt.Errorf("getaddrinfo ENOTFOUND %s", host)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("connect ECONNREFUSED %s", address)
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return errors.New("Timed out while waiting for handshake")
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return fmt.Errorf("connect EHOSTUNREACH %s", address)
	}
	return err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// WatchContext closes c when ctx ends before the returned stop is called, so blocking reads
// and writes on it return.
func WatchContext(ctx context.Context, c io.Closer) (stop func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			c.Close()
		case <-done:
		}
	}()
	return func() { close(done) }
}

// SSH opens an SSH connection with the server's password or private key, as n8n's ssh2 client
// does: host keys are not verified (n8n does not either), timeout bounds connecting and the
// handshake. Close the client when done; it is also closed when ctx ends.
func SSH(ctx context.Context, client *http.Client, s Server, timeout time.Duration) (*ssh.Client, error) {
	cfg := &ssh.ClientConfig{
		User:            s.Username,
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), //nolint:gosec // n8n accepts any host key
		Timeout:         timeout,
	}
	// As ssh2: the key when there is one, and the password too when there is one (or when
	// there is no key).
	if s.PrivateKey != "" {
		signer, err := ParsePrivateKey(s.PrivateKey, s.Passphrase)
		if err != nil {
			return nil, err
		}
		cfg.Auth = []ssh.AuthMethod{ssh.PublicKeys(signer)}
	}
	if pw := s.Password; pw != "" || s.PrivateKey == "" {
		cfg.Auth = append(cfg.Auth, ssh.Password(pw), ssh.KeyboardInteractive(
			func(_, _ string, questions []string, _ []bool) ([]string, error) {
				answers := make([]string, len(questions))
				for i := range questions {
					answers[i] = pw
				}
				return answers, nil
			}))
	}
	conn, err := Dial(ctx, client, s.Address(), timeout)
	if err != nil {
		return nil, err
	}
	// The handshake gets the same bound as the dial, and ctx.
	_ = conn.SetDeadline(time.Now().Add(timeout))
	stop := WatchContext(ctx, conn)
	sc, chans, reqs, err := ssh.NewClientConn(conn, s.Address(), cfg)
	if err != nil {
		stop()
		conn.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, sshError(err)
	}
	_ = conn.SetDeadline(time.Time{})
	c := ssh.NewClient(sc, chans, reqs)
	stop()
	go func() {
		select {
		case <-ctx.Done():
			c.Close()
		case <-closed(c):
		}
	}()
	return c, nil
}

func closed(c *ssh.Client) <-chan struct{} {
	ch := make(chan struct{})
	go func() { _ = c.Wait(); close(ch) }()
	return ch
}

// sshError words handshake failures as ssh2 does.
func sshError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "unable to authenticate"):
		return errors.New("All configured authentication methods failed")
	case isTimeout(err):
		return errors.New("Timed out while waiting for handshake")
	}
	return err
}

// ParsePrivateKey reads an OpenSSH, PKCS#1 or PKCS#8 key, encrypted when passphrase is set.
// A key pasted on one line (its line breaks lost) is put back into PEM shape first, as n8n's
// formatPrivateKey does.
func ParsePrivateKey(key, passphrase string) (ssh.Signer, error) {
	pem := []byte(FormatPrivateKey(key))
	var (
		signer ssh.Signer
		err    error
	)
	if passphrase != "" {
		signer, err = ssh.ParsePrivateKeyWithPassphrase(pem, []byte(passphrase))
	} else {
		signer, err = ssh.ParsePrivateKey(pem)
	}
	if err != nil {
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, errors.New("Cannot parse privateKey: Encrypted private OpenSSH key detected, but no passphrase given")
		}
		return nil, fmt.Errorf("Cannot parse privateKey: %v", err)
	}
	return signer, nil
}

// FormatPrivateKey restores the line breaks of a PEM block whose body was pasted on one line.
func FormatPrivateKey(key string) string {
	key = strings.TrimSpace(key)
	if !strings.Contains(key, "\n") && strings.Contains(key, `\n`) {
		// Line breaks written out as \n, as in an environment variable.
		key = strings.TrimSpace(strings.ReplaceAll(key, `\n`, "\n"))
	}
	if key == "" || strings.Count(key, "\n") > 1 {
		return key
	}
	begin := strings.Index(key, "-----BEGIN ")
	if begin < 0 {
		return key
	}
	headEnd := strings.Index(key[begin+11:], "-----")
	if headEnd < 0 {
		return key
	}
	headEnd += begin + 11 + 5
	end := strings.Index(key[headEnd:], "-----END ")
	if end < 0 {
		return key
	}
	end += headEnd
	body := strings.Join(strings.Fields(key[headEnd:end]), "")
	var b strings.Builder
	b.WriteString(key[begin:headEnd])
	b.WriteByte('\n')
	for len(body) > 64 {
		b.WriteString(body[:64] + "\n")
		body = body[64:]
	}
	if body != "" {
		b.WriteString(body + "\n")
	}
	b.WriteString(strings.TrimSpace(key[end:]))
	b.WriteByte('\n')
	return b.String()
}

// BinaryInput finds an item's binary property as n8n's assertBinaryData does.
func BinaryInput(item workflow.Item, name string, i int) (workflow.BinaryData, error) {
	if item.Binary == nil {
		return workflow.BinaryData{}, nodes.Errorf(i, "No binary data exists on item!")
	}
	bin, ok := item.Binary[name]
	if !ok {
		return workflow.BinaryData{}, &nodes.Error{
			Message:     "The item has no binary field '" + name + "' [item " + strconv.Itoa(i) + "]",
			Description: "Check that the parameter where you specified the input binary field name is correct, and that it matches a field in the binary input",
			ItemIndex:   i,
		}
	}
	if bin.Data == "" && bin.ID != "" {
		return workflow.BinaryData{}, nodes.Errorf(i, "%v", nodes.ErrBinaryNotInline)
	}
	return bin, nil
}

// BinaryReader streams the decoded bytes of inline binary data, so an upload does not hold a
// second copy of the file.
func BinaryReader(b workflow.BinaryData) io.Reader {
	return base64.NewDecoder(base64.StdEncoding, strings.NewReader(b.Data))
}

// TooLargeError is a download over the instance's size limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("The file is larger than %d bytes, the limit for downloading a file (FLOWMILL_UNPACK_MAX_SIZE)", e.Limit)
}

// ReadAll reads r to its end, failing with a *TooLargeError past limit bytes.
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Limit: limit}
	}
	return data, nil
}

// SFTPMessage words an SFTP status as ssh2 does ("No such file", "Permission denied",
// "Failure"); other errors keep their text.
func SFTPMessage(err error) string {
	var st *sftp.StatusError
	if errors.As(err, &st) {
		switch st.FxCode() {
		case sftp.ErrSSHFxNoSuchFile:
			return "No such file"
		case sftp.ErrSSHFxPermissionDenied:
			return "Permission denied"
		case sftp.ErrSSHFxFailure:
			return "Failure"
		case sftp.ErrSSHFxOpUnsupported:
			return "Operation unsupported"
		}
		return st.Error()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	}
	return err.Error()
}

// DownloadedBinary is a downloaded file as n8n's copyBinaryFile makes it: typed by its content
// (text/plain when that tells nothing), named as given.
func DownloadedBinary(data []byte, fileName string) workflow.BinaryData {
	mimeType := filetype.Detect("", data)
	b := nodes.NewBinary(data, fileName, mimeType)
	b.FileName = fileName
	if mimeType == "text/plain" {
		b.FileExtension = ""
	} else if exts := filetype.Extensions(mimeType); len(exts) > 0 {
		b.FileExtension = strings.TrimPrefix(exts[0], ".")
	}
	return b
}
