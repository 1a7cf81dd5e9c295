package ftp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes/internal/remote"
)

// ftpError is a reply the server refused a command with; its message is the reply's text, as
// node-ftp (the client n8n uses) reports it.
type ftpError struct {
	Code int
	Msg  string
}

func (e *ftpError) Error() string { return e.Msg }

func replyCode(err error) int {
	var fe *ftpError
	if errors.As(err, &fe) {
		return fe.Code
	}
	return 0
}

// client is a plain FTP client (RFC 959) that moves data over passive connections. Every
// connection it opens, data ones included, goes through the egress policy.
type client struct {
	ctx  context.Context
	http *http.Client
	conn net.Conn
	text *textproto.Conn
	// host is the server's address as connected: data connections go there whatever address a
	// PASV reply names, so a reply cannot point them at another machine.
	host    string
	timeout time.Duration
	stop    func()
	// loginBy is the deadline of connecting and logging in; zero after.
	loginBy time.Time
	// last is the latest reply, lastMsg its text.
	last    *ftpError
	lastMsg string
}

// idle bounds each wait for the server, at least a minute, so a slow listing or transfer is
// not cut while a dead server is still noticed.
func (c *client) idle() time.Duration { return max(c.timeout, time.Minute) }

// dialFTP connects and logs in (anonymous when the credential has no user, as node-ftp).
func dialFTP(ctx context.Context, hc *http.Client, s remote.Server, timeout time.Duration) (*client, error) {
	conn, err := remote.Dial(ctx, hc, s.Address(), timeout)
	if err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(conn.RemoteAddr().String())
	c := &client{ctx: ctx, http: hc, conn: conn, text: textproto.NewConn(conn), host: host, timeout: timeout}
	c.stop = remote.WatchContext(ctx, conn)
	if err := c.login(s); err != nil {
		c.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, errors.New("Timeout while connecting to server")
		}
		return nil, err
	}
	return c, nil
}

func (c *client) login(s remote.Server) error {
	c.loginBy = time.Now().Add(c.timeout)
	defer func() { c.loginBy = time.Time{} }()
	if _, err := c.expect(2); err != nil {
		return err
	}
	user, pass := s.Username, s.Password
	if user == "" {
		user, pass = "anonymous", "anonymous@"
	}
	code, err := c.cmd(0, "USER "+user)
	if err != nil {
		return err
	}
	if code == 331 {
		if _, err := c.cmd(2, "PASS "+pass); err != nil {
			return err
		}
	} else if code/100 != 2 {
		return c.last
	}
	_, err = c.cmd(2, "TYPE I")
	return err
}

// deadline bounds the next wait for the server.
func (c *client) deadline() {
	if !c.loginBy.IsZero() {
		_ = c.conn.SetDeadline(c.loginBy)
		return
	}
	_ = c.conn.SetDeadline(time.Now().Add(c.idle()))
}

// cmd sends a command and reads its reply; a reply whose first digit is not want (0: any) is
// an *ftpError.
func (c *client) cmd(want int, line string) (int, error) {
	if strings.ContainsAny(line, "\r\n") {
		return 0, errors.New("Invalid path: it contains a line break")
	}
	c.deadline()
	if err := c.text.PrintfLine("%s", line); err != nil {
		return 0, c.connErr(err)
	}
	return c.expect(want)
}

func (c *client) expect(want int) (int, error) {
	c.deadline()
	code, msg, err := c.text.ReadResponse(0)
	if err != nil {
		return 0, c.connErr(err)
	}
	c.last = &ftpError{Code: code, Msg: msg}
	c.lastMsg = msg
	if want > 0 && code/100 != want {
		return code, c.last
	}
	return code, nil
}

func (c *client) connErr(err error) error {
	if c.ctx.Err() != nil {
		return c.ctx.Err()
	}
	return err
}

// passive opens a data connection: EPSV first, PASV for servers without it.
func (c *client) passive() (net.Conn, error) {
	port := 0
	if code, err := c.cmd(0, "EPSV"); err != nil {
		return nil, err
	} else if code == 229 {
		msg := c.lastMsg
		start, end := strings.Index(msg, "(|||"), strings.LastIndex(msg, "|)")
		if start >= 0 && end > start+4 {
			port, _ = strconv.Atoi(msg[start+4 : end])
		}
	}
	if port == 0 {
		if _, err := c.cmd(2, "PASV"); err != nil {
			return nil, err
		}
		msg := c.lastMsg
		start, end := strings.Index(msg, "("), strings.LastIndex(msg, ")")
		if start < 0 || end < start {
			return nil, fmt.Errorf("Unable to parse PASV server response: %s", msg)
		}
		parts := strings.Split(msg[start+1:end], ",")
		if len(parts) != 6 {
			return nil, fmt.Errorf("Unable to parse PASV server response: %s", msg)
		}
		p1, err1 := strconv.Atoi(strings.TrimSpace(parts[4]))
		p2, err2 := strconv.Atoi(strings.TrimSpace(parts[5]))
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("Unable to parse PASV server response: %s", msg)
		}
		port = p1<<8 | p2
	}
	if port <= 0 || port > 65535 {
		return nil, errors.New("Unable to parse PASV server response")
	}
	conn, err := remote.Dial(c.ctx, c.http, net.JoinHostPort(c.host, strconv.Itoa(port)), c.timeout)
	if err != nil {
		return nil, err
	}
	return &idleConn{Conn: conn, idle: c.idle()}, nil
}

// transfer opens a data connection and sends cmd over it (LIST, RETR, STOR); the caller reads
// or writes the connection, closes it and calls done.
func (c *client) transfer(cmd string) (net.Conn, error) {
	data, err := c.passive()
	if err != nil {
		return nil, err
	}
	if _, err := c.cmd(1, cmd); err != nil {
		data.Close()
		return nil, err
	}
	stop := remote.WatchContext(c.ctx, data)
	return &watchedConn{Conn: data, stop: stop}, nil
}

// done reads the reply that ends a transfer.
func (c *client) done() error {
	_, err := c.expect(2)
	return err
}

// retr streams the file at path into w.
func (c *client) retr(path string, w io.Writer) error {
	data, err := c.transfer("RETR " + path)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, data)
	data.Close()
	if err != nil {
		// The server ends the aborted transfer with a reply of its own; read it so the next
		// command gets its own.
		_, _ = c.expect(0)
		return c.connErr(err)
	}
	return c.done()
}

// stor streams r into the file at path.
func (c *client) stor(path string, r io.Reader) error {
	data, err := c.transfer("STOR " + path)
	if err != nil {
		return err
	}
	_, err = io.Copy(data, r)
	if cerr := data.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_, _ = c.expect(0)
		return c.connErr(err)
	}
	return c.done()
}

// list reads the directory listing of path (LIST), parsed as node-ftp does; lines it cannot
// parse are left out.
func (c *client) list(path string, limit int64) ([]entry, error) {
	cmd := "LIST"
	if path != "" {
		cmd += " " + path
	}
	data, err := c.transfer(cmd)
	if err != nil {
		return nil, err
	}
	raw, err := remote.ReadAll(data, limit)
	data.Close()
	if err != nil {
		return nil, c.connErr(err)
	}
	if err := c.done(); err != nil {
		return nil, err
	}
	var out []entry
	for _, line := range strings.Split(string(raw), "\n") {
		if e, ok := parseListLine(strings.TrimRight(line, "\r"), time.Now()); ok {
			out = append(out, e)
		}
	}
	return out, nil
}

func (c *client) delete(path string) error {
	_, err := c.cmd(2, "DELE "+path)
	return err
}

func (c *client) rename(from, to string) error {
	if _, err := c.cmd(3, "RNFR "+from); err != nil {
		return err
	}
	_, err := c.cmd(2, "RNTO "+to)
	return err
}

// rmdir removes a directory; recursive first removes what it holds, as node-ftp does.
func (c *client) rmdir(path string, recursive bool, limit int64) error {
	if recursive {
		entries, err := c.list(path, limit)
		if err != nil {
			return err
		}
		for _, e := range entries {
			sub := path + "/" + e.name
			if strings.HasSuffix(path, "/") {
				sub = path + e.name
			}
			if strings.HasPrefix(e.name, "/") {
				sub = e.name
			}
			if e.typ == "d" {
				if e.name == "." || e.name == ".." {
					continue
				}
				err = c.rmdir(sub, true, limit)
			} else {
				err = c.delete(sub)
			}
			if err != nil {
				return err
			}
		}
	}
	_, err := c.cmd(2, "RMD "+path)
	return err
}

// mkdir creates a directory; recursive creates each missing parent by changing into it, as
// node-ftp does, and returns to the directory it started in.
func (c *client) mkdir(path string, recursive bool) error {
	if !recursive {
		_, err := c.cmd(2, "MKD "+path)
		return err
	}
	if _, err := c.cmd(2, "PWD"); err != nil {
		return err
	}
	owd := quoted(c.lastMsg)
	if strings.HasPrefix(path, "/") {
		if _, err := c.cmd(2, "CWD /"); err != nil {
			return err
		}
	}
	for _, dir := range strings.Split(path, "/") {
		if dir == "" {
			continue
		}
		if _, err := c.cmd(2, "CWD "+dir); err != nil {
			if _, err := c.cmd(2, "MKD "+dir); err != nil {
				return err
			}
			if _, err := c.cmd(2, "CWD "+dir); err != nil {
				return err
			}
		}
	}
	if owd != "" {
		_, err := c.cmd(2, "CWD "+owd)
		return err
	}
	return nil
}

// quoted is the path in a PWD reply (`257 "/a ""b""" is the current directory`).
func quoted(msg string) string {
	start := strings.IndexByte(msg, '"')
	if start < 0 {
		return ""
	}
	var b strings.Builder
	for i := start + 1; i < len(msg); i++ {
		if msg[i] == '"' {
			if i+1 < len(msg) && msg[i+1] == '"' {
				b.WriteByte('"')
				i++
				continue
			}
			break
		}
		b.WriteByte(msg[i])
	}
	return b.String()
}

// close says goodbye and closes the connection.
func (c *client) close() {
	if c.ctx.Err() == nil {
		_ = c.conn.SetDeadline(time.Now().Add(time.Second))
		if c.text.PrintfLine("QUIT") == nil {
			_, _, _ = c.text.ReadResponse(0)
		}
	}
	c.stop()
	c.conn.Close()
}

// idleConn fails a read or write that waits longer than idle.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleConn) Read(p []byte) (int, error) {
	_ = c.SetDeadline(time.Now().Add(c.idle))
	return c.Conn.Read(p)
}

func (c *idleConn) Write(p []byte) (int, error) {
	_ = c.SetDeadline(time.Now().Add(c.idle))
	return c.Conn.Write(p)
}

// watchedConn is a data connection closed when the run's context ends.
type watchedConn struct {
	net.Conn
	stop func()
}

func (c *watchedConn) Close() error {
	c.stop()
	return c.Conn.Close()
}
