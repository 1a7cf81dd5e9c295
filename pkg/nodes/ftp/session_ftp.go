package ftp

import (
	"context"
	"io"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes/internal/remote"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// ftpSession runs the node's operations as n8n does with node-ftp.
type ftpSession struct {
	c     *client
	limit int64
}

func dialFTPSession(ctx context.Context, hc *http.Client, s remote.Server, timeout time.Duration, limit int64) (session, error) {
	c, err := dialFTP(ctx, hc, s, timeout)
	if err != nil {
		return nil, err
	}
	return &ftpSession{c: c, limit: limit}, nil
}

func (f *ftpSession) close() { f.c.close() }

// list lists dir, or everything under it breadth first, each entry with its path.
func (f *ftpSession) list(dir string, recursive bool) ([]*workflow.Object, error) {
	if !recursive {
		entries, err := f.c.list(dir, f.limit)
		if err != nil {
			return nil, err
		}
		out := make([]*workflow.Object, len(entries))
		for i, e := range entries {
			out[i] = e.object(join(dir, e.name))
		}
		return out, nil
	}
	var out []*workflow.Object
	queue := []string{dir}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		entries, err := f.c.list(cur, f.limit)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			p := join(cur, e.name)
			if e.typ == "d" {
				if e.name == "." || e.name == ".." {
					continue
				}
				queue = append(queue, p)
			}
			out = append(out, e.object(p))
		}
	}
	return out, nil
}

// join appends name to dir with one slash between, as the node builds entry paths.
func join(dir, name string) string {
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

func (f *ftpSession) remove(p string, folder, recursive bool) error {
	if folder {
		return f.c.rmdir(p, recursive, f.limit)
	}
	return f.c.delete(p)
}

// rename moves from to to; when the target's folder is missing (451 or 550) and createDirs is
// set, it creates the folder and tries again.
func (f *ftpSession) rename(from, to string, createDirs bool) error {
	err := f.c.rename(from, to)
	if err != nil && createDirs && (replyCode(err) == 451 || replyCode(err) == 550) {
		if err := f.c.mkdir(dirOf(to), true); err != nil {
			return err
		}
		err = f.c.rename(from, to)
	}
	return err
}

// dirOf is the path with its last element removed, keeping the trailing slash, as the node's
// replacing the base name with nothing leaves it.
func dirOf(p string) string {
	base := path.Base(p)
	if i := strings.LastIndex(p, base); i >= 0 && base != "/" && base != "." {
		return p[:i]
	}
	return p
}

func (f *ftpSession) download(p string) ([]byte, error) {
	w := &limitedBuffer{limit: f.limit}
	if err := f.c.retr(p, w); err != nil {
		if w.over {
			return nil, &remote.TooLargeError{Limit: f.limit}
		}
		return nil, err
	}
	return w.buf, nil
}

// upload stores the data; when the server refuses the path (553, its folder missing) it creates
// the folder and tries again, as n8n does.
func (f *ftpSession) upload(p string, data func() io.Reader) error {
	err := f.c.stor(p, data())
	if err != nil && replyCode(err) == 553 {
		if err := f.c.mkdir(dirOf(p), true); err != nil {
			return err
		}
		err = f.c.stor(p, data())
	}
	return err
}

// limitedBuffer collects a download and stops it one byte past limit.
type limitedBuffer struct {
	buf   []byte
	limit int64
	over  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if int64(len(b.buf)+len(p)) > b.limit {
		b.over = true
		return 0, io.ErrShortWrite
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}
