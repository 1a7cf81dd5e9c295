package transfertest

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// FTPServer is a small but real FTP server (RFC 959 with passive mode, RFC 2428's EPSV) over a
// folder, with vsftpd's replies.
type FTPServer struct {
	Addr string
	Port int
	// Root is the folder the server's "/" is.
	Root string
	// NoEPSV makes the server refuse EPSV, so clients fall back to PASV.
	NoEPSV bool
	// Commands records every command received, for tests of what a client sent.
	mu       sync.Mutex
	commands []string
}

// Commands returns the commands received so far (PASS with its argument hidden).
func (s *FTPServer) Commands() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.commands...)
}

// StartFTP starts an FTP server on 127.0.0.1 over root that accepts User with Password; it
// stops when the test ends.
func StartFTP(t testing.TB, root string) *FTPServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &FTPServer{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port, Root: root}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); s.serve(c) }()
		}
	}()
	return s
}

type ftpSession struct {
	s       *FTPServer
	conn    net.Conn
	w       *bufio.Writer
	user    string
	authed  bool
	cwd     string
	pasv    net.Listener
	renFrom string
}

func (s *FTPServer) serve(c net.Conn) {
	defer c.Close()
	sess := &ftpSession{s: s, conn: c, w: bufio.NewWriter(c), cwd: "/"}
	defer func() {
		if sess.pasv != nil {
			sess.pasv.Close()
		}
	}()
	sess.reply(220, "(test FTP server)")
	r := bufio.NewReader(c)
	for {
		_ = c.SetReadDeadline(time.Now().Add(time.Minute))
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd, arg, _ := strings.Cut(line, " ")
		cmd = strings.ToUpper(cmd)
		logged := line
		if cmd == "PASS" {
			logged = "PASS ****"
		}
		s.mu.Lock()
		s.commands = append(s.commands, logged)
		s.mu.Unlock()
		if !sess.handle(cmd, arg) {
			return
		}
	}
}

func (f *ftpSession) reply(code int, msg string) {
	fmt.Fprintf(f.w, "%d %s\r\n", code, msg)
	f.w.Flush()
}

// local maps a client path to the file under the root; paths cannot leave it.
func (f *ftpSession) local(p string) (string, string) {
	if !path.IsAbs(p) {
		p = path.Join(f.cwd, p)
	}
	p = path.Clean("/" + p)
	return p, filepath.Join(f.s.Root, filepath.FromSlash(p))
}

func (f *ftpSession) handle(cmd, arg string) bool {
	switch cmd {
	case "USER":
		f.user = arg
		f.reply(331, "Please specify the password.")
		return true
	case "PASS":
		if f.user == User && arg == Password {
			f.authed = true
			f.reply(230, "Login successful.")
		} else {
			f.reply(530, "Login incorrect.")
		}
		return true
	case "QUIT":
		f.reply(221, "Goodbye.")
		return false
	}
	if !f.authed {
		f.reply(530, "Please login with USER and PASS.")
		return true
	}
	switch cmd {
	case "SYST":
		f.reply(215, "UNIX Type: L8")
	case "NOOP", "OPTS":
		f.reply(200, "OK.")
	case "TYPE":
		f.reply(200, "Switching to Binary mode.")
	case "PWD":
		f.reply(257, `"`+strings.ReplaceAll(f.cwd, `"`, `""`)+`" is the current directory`)
	case "CWD":
		p, l := f.local(arg)
		if fi, err := os.Stat(l); err != nil || !fi.IsDir() {
			f.reply(550, "Failed to change directory.")
		} else {
			f.cwd = p
			f.reply(250, "Directory successfully changed.")
		}
	case "EPSV", "PASV":
		if cmd == "EPSV" && f.s.NoEPSV {
			f.reply(500, "Unknown command.")
			return true
		}
		if f.pasv != nil {
			f.pasv.Close()
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			f.reply(425, "Can't open passive connection.")
			return true
		}
		f.pasv = ln
		port := ln.Addr().(*net.TCPAddr).Port
		if cmd == "EPSV" {
			f.reply(229, fmt.Sprintf("Entering Extended Passive Mode (|||%d|)", port))
		} else {
			f.reply(227, fmt.Sprintf("Entering Passive Mode (127,0,0,1,%d,%d).", port>>8, port&0xff))
		}
	case "LIST":
		if strings.HasPrefix(arg, "-") {
			arg = ""
		}
		_, l := f.local(arg)
		fi, err := os.Lstat(l)
		if err != nil {
			// vsftpd sends an empty listing for a missing path.
			f.data("Here comes the directory listing.", "Directory send OK.", func(io.Writer) error { return nil })
			return true
		}
		entries := []fs.FileInfo{fi}
		if fi.IsDir() {
			des, _ := os.ReadDir(l)
			entries = entries[:0]
			for _, de := range des {
				if info, err := de.Info(); err == nil {
					entries = append(entries, info)
				}
			}
		}
		f.data("Here comes the directory listing.", "Directory send OK.", func(w io.Writer) error {
			for _, e := range entries {
				if _, err := fmt.Fprintf(w, "%s\r\n", listLine(l, fi.IsDir(), e)); err != nil {
					return err
				}
			}
			return nil
		})
	case "RETR":
		_, l := f.local(arg)
		file, err := os.Open(l)
		if err != nil {
			f.reply(550, "Failed to open file.")
			return true
		}
		defer file.Close()
		if fi, err := file.Stat(); err != nil || fi.IsDir() {
			f.reply(550, "Failed to open file.")
			return true
		}
		f.data("Opening BINARY mode data connection.", "Transfer complete.", func(w io.Writer) error {
			_, err := io.Copy(w, file)
			return err
		})
	case "STOR":
		_, l := f.local(arg)
		file, err := os.Create(l)
		if err != nil {
			f.reply(553, "Could not create file.")
			return true
		}
		defer file.Close()
		f.dataIn("Ok to send data.", "Transfer complete.", file)
	case "DELE":
		_, l := f.local(arg)
		if fi, err := os.Lstat(l); err != nil || fi.IsDir() || os.Remove(l) != nil {
			f.reply(550, "Delete operation failed.")
		} else {
			f.reply(250, "Delete operation successful.")
		}
	case "MKD":
		p, l := f.local(arg)
		if os.Mkdir(l, 0o755) != nil {
			f.reply(550, "Create directory operation failed.")
		} else {
			f.reply(257, `"`+p+`" created`)
		}
	case "RMD":
		_, l := f.local(arg)
		if fi, err := os.Lstat(l); err != nil || !fi.IsDir() || os.Remove(l) != nil {
			f.reply(550, "Remove directory operation failed.")
		} else {
			f.reply(250, "Remove directory operation successful.")
		}
	case "RNFR":
		_, l := f.local(arg)
		if _, err := os.Lstat(l); err != nil {
			f.reply(550, "RNFR command failed.")
		} else {
			f.renFrom = l
			f.reply(350, "Ready for RNTO.")
		}
	case "RNTO":
		_, l := f.local(arg)
		if f.renFrom == "" {
			f.reply(503, "RNFR required first.")
		} else if err := os.Rename(f.renFrom, l); err != nil {
			f.reply(550, "Rename failed.")
		} else {
			f.reply(250, "Rename successful.")
		}
		f.renFrom = ""
	default:
		f.reply(502, "Command not implemented.")
	}
	return true
}

// accept takes the client's connection to the passive listener.
func (f *ftpSession) accept() (net.Conn, bool) {
	if f.pasv == nil {
		f.reply(425, "Use PORT or PASV first.")
		return nil, false
	}
	_ = f.pasv.(*net.TCPListener).SetDeadline(time.Now().Add(10 * time.Second))
	c, err := f.pasv.Accept()
	f.pasv.Close()
	f.pasv = nil
	if err != nil {
		f.reply(425, "Failed to establish connection.")
		return nil, false
	}
	return c, true
}

// data sends what write writes over the data connection.
func (f *ftpSession) data(start, done string, write func(io.Writer) error) {
	c, ok := f.accept()
	if !ok {
		return
	}
	f.reply(150, start)
	err := write(c)
	c.Close()
	if err != nil {
		f.reply(426, "Failure writing network stream.")
		return
	}
	f.reply(226, done)
}

// dataIn receives the data connection's bytes into w.
func (f *ftpSession) dataIn(start, done string, w io.Writer) {
	c, ok := f.accept()
	if !ok {
		return
	}
	f.reply(150, start)
	_, err := io.Copy(w, c)
	c.Close()
	if err != nil {
		f.reply(426, "Failure reading network stream.")
		return
	}
	f.reply(226, done)
}

// listLine is an entry as ls -l writes it, with fixed owner and group.
func listLine(dir string, inDir bool, fi fs.FileInfo) string {
	mode := fi.Mode()
	perm := []byte("----------")
	switch {
	case mode.IsDir():
		perm[0] = 'd'
	case mode&fs.ModeSymlink != 0:
		perm[0] = 'l'
	}
	for i := range 9 {
		if mode&(1<<uint(8-i)) != 0 {
			perm[i+1] = "rwxrwxrwx"[i]
		}
	}
	if mode&fs.ModeSticky != 0 {
		if perm[9] == 'x' {
			perm[9] = 't'
		} else {
			perm[9] = 'T'
		}
	}
	date := fi.ModTime().UTC().Format("Jan _2 15:04")
	if time.Since(fi.ModTime()) > 180*24*time.Hour {
		date = fi.ModTime().UTC().Format("Jan _2  2006")
	}
	name := fi.Name()
	if mode&fs.ModeSymlink != 0 {
		p := dir
		if inDir {
			p = filepath.Join(dir, name)
		}
		if target, err := os.Readlink(p); err == nil {
			name += " -> " + target
		}
	}
	return fmt.Sprintf("%s    1 ftp      ftp  %10d %s %s", perm, fi.Size(), date, name)
}
