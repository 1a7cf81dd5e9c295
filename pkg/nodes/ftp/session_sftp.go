package ftp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes/internal/remote"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// sftpSession runs the node's operations as n8n does with ssh2-sftp-client, whose error
// messages it keeps ("list: No such file /missing").
type sftpSession struct {
	ssh   *ssh.Client
	c     *sftp.Client
	limit int64
	now   time.Time
}

func dialSFTP(ctx context.Context, hc *http.Client, s remote.Server, timeout time.Duration, limit int64) (session, error) {
	client, err := remote.SSH(ctx, hc, s, timeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, connectError(err)
	}
	c, err := sftp.NewClient(client)
	if err != nil {
		client.Close()
		return nil, fmt.Errorf("getSftpChannel: %v", err)
	}
	return &sftpSession{ssh: client, c: c, limit: limit, now: time.Now()}, nil
}

// connectError words a failed connection as ssh2-sftp-client does.
func connectError(err error) error {
	if _, ok := egress.Refusal(err); ok {
		return err
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "connect ECONNREFUSED"):
		return errors.New("connect: Remote host refused connection")
	case strings.HasPrefix(msg, "getaddrinfo ENOTFOUND"):
		return errors.New("connect: Address lookup failed for host")
	case strings.HasPrefix(msg, "Cannot parse privateKey"):
		return err
	}
	return fmt.Errorf("connect: getConnection: %s", msg)
}

func (s *sftpSession) close() {
	s.c.Close()
	s.ssh.Close()
}

// list lists dir, or everything under it breadth first.
func (s *sftpSession) list(dir string, recursive bool) ([]*workflow.Object, error) {
	if !recursive {
		infos, err := s.c.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("list: %s %s", remote.SFTPMessage(err), dir)
		}
		out := make([]*workflow.Object, len(infos))
		for i, fi := range infos {
			out[i] = s.object(fi, join(dir, fi.Name()))
		}
		return out, nil
	}
	var out []*workflow.Object
	queue := []string{dir}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		infos, err := s.c.ReadDir(cur)
		if err != nil {
			return nil, fmt.Errorf("list: %s %s", remote.SFTPMessage(err), cur)
		}
		for _, fi := range infos {
			p := join(cur, fi.Name())
			if fi.IsDir() {
				queue = append(queue, p)
			}
			out = append(out, s.object(fi, p))
		}
	}
	return out, nil
}

// object is a directory entry in ssh2-sftp-client's shape. The server's long name is not
// passed on by the SFTP library, so it is rebuilt in OpenSSH's form.
func (s *sftpSession) object(fi os.FileInfo, p string) *workflow.Object {
	perm := permString(fi.Mode())
	var uid, gid uint32
	mtime, atime := fi.ModTime(), fi.ModTime()
	if st, ok := fi.Sys().(*sftp.FileStat); ok {
		uid, gid = st.UID, st.GID
		atime = time.Unix(int64(st.Atime), 0)
	}
	o := workflow.NewObject(10)
	o.Set("type", perm[:1])
	o.Set("name", fi.Name())
	o.Set("size", float64(fi.Size()))
	o.Set("modifyTime", isoTime(&mtime))
	o.Set("accessTime", isoTime(&atime))
	rights := workflow.NewObject(3)
	rights.Set("user", strings.ReplaceAll(perm[1:4], "-", ""))
	rights.Set("group", strings.ReplaceAll(perm[4:7], "-", ""))
	rights.Set("other", strings.ReplaceAll(perm[7:10], "-", ""))
	o.Set("rights", rights)
	o.Set("owner", float64(uid))
	o.Set("group", float64(gid))
	o.Set("longname", longName(perm, uid, gid, fi.Size(), mtime, fi.Name(), s.now))
	o.Set("path", p)
	return o
}

// permString is a mode as ls -l writes it ("drwxr-xr-x").
func permString(m fs.FileMode) string {
	b := []byte("----------")
	switch {
	case m.IsDir():
		b[0] = 'd'
	case m&fs.ModeSymlink != 0:
		b[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		b[0] = 'p'
	case m&fs.ModeSocket != 0:
		b[0] = 's'
	case m&fs.ModeCharDevice != 0:
		b[0] = 'c'
	case m&fs.ModeDevice != 0:
		b[0] = 'b'
	}
	const rwx = "rwxrwxrwx"
	for i := range 9 {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	special := func(pos int, set bool, lower, upper byte) {
		if !set {
			return
		}
		if b[pos] == 'x' {
			b[pos] = lower
		} else {
			b[pos] = upper
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's', 'S')
	special(6, m&fs.ModeSetgid != 0, 's', 'S')
	special(9, m&fs.ModeSticky != 0, 't', 'T')
	return string(b)
}

// longName is an entry's line in OpenSSH's listing form.
func longName(perm string, uid, gid uint32, size int64, mtime time.Time, name string, now time.Time) string {
	date := mtime.UTC().Format("Jan _2 15:04")
	if now.Sub(mtime) > 182*24*time.Hour || mtime.Sub(now) > 182*24*time.Hour {
		date = mtime.UTC().Format("Jan _2  2006")
	}
	return fmt.Sprintf("%s %3d %-8d %-8d %8d %s %s", perm, 1, uid, gid, size, date, name)
}

func (s *sftpSession) remove(p string, folder, recursive bool) error {
	if !folder {
		if err := s.c.Remove(p); err != nil {
			return fmt.Errorf("delete: %s %s", remote.SFTPMessage(err), p)
		}
		return nil
	}
	fi, err := s.c.Stat(p)
	if err != nil {
		return fmt.Errorf("rmdir: Bad path: %s No such file", p)
	}
	if !fi.IsDir() {
		return fmt.Errorf("rmdir: Bad path: %s not a directory", p)
	}
	return s.rmdir(p, recursive)
}

// rmdir removes a folder, first its folders and then its files when recursive.
func (s *sftpSession) rmdir(p string, recursive bool) error {
	if recursive {
		infos, err := s.c.ReadDir(p)
		if err != nil {
			return fmt.Errorf("list: %s %s", remote.SFTPMessage(err), p)
		}
		for _, fi := range infos {
			if fi.IsDir() {
				if err := s.rmdir(p+"/"+fi.Name(), true); err != nil {
					return err
				}
			}
		}
		for _, fi := range infos {
			if !fi.IsDir() {
				if err := s.c.Remove(p + "/" + fi.Name()); err != nil {
					return fmt.Errorf("delete: %s %s", remote.SFTPMessage(err), p+"/"+fi.Name())
				}
			}
		}
	}
	if err := s.c.RemoveDirectory(p); err != nil {
		return fmt.Errorf("rmdir: %s %s", remote.SFTPMessage(err), p)
	}
	return nil
}

// mkdirFor creates the folder p goes in when it is missing.
func (s *sftpSession) mkdirFor(p string) error {
	dir := path.Dir(p)
	if _, err := s.c.Stat(dir); err == nil {
		return nil
	}
	if err := s.c.MkdirAll(dir); err != nil {
		return fmt.Errorf("mkdir: %s %s", remote.SFTPMessage(err), dir)
	}
	return nil
}

// rename uses the atomic POSIX rename where the server has it (it replaces an existing
// target), else the plain one.
func (s *sftpSession) rename(from, to string, createDirs bool) error {
	if createDirs {
		if err := s.mkdirFor(to); err != nil {
			return err
		}
	}
	err := s.c.PosixRename(from, to)
	var st *sftp.StatusError
	if errors.As(err, &st) && st.FxCode() == sftp.ErrSSHFxOpUnsupported {
		err = s.c.Rename(from, to)
	}
	if err != nil {
		return fmt.Errorf("_rename: %s From: %s To: %s", remote.SFTPMessage(err), from, to)
	}
	return nil
}

func (s *sftpSession) download(p string) ([]byte, error) {
	f, err := s.c.Open(p)
	if err != nil {
		return nil, fmt.Errorf("_get: %s %s", remote.SFTPMessage(err), p)
	}
	defer f.Close()
	data, err := remote.ReadAll(f, s.limit)
	if err != nil {
		var tooLarge *remote.TooLargeError
		if errors.As(err, &tooLarge) {
			return nil, err
		}
		return nil, fmt.Errorf("_get: %s %s", remote.SFTPMessage(err), p)
	}
	return data, nil
}

// upload creates the file's folder when missing, then streams the data into it.
func (s *sftpSession) upload(p string, data func() io.Reader) error {
	if err := s.mkdirFor(p); err != nil {
		return err
	}
	f, err := s.c.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return fmt.Errorf("put: %s %s", remote.SFTPMessage(err), p)
	}
	_, err = io.Copy(f, data())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("put: %s %s", remote.SFTPMessage(err), p)
	}
	return nil
}
