// Package ssh is the SSH node (version 1): it runs commands on a remote machine over SSH and
// moves files to and from it over SFTP, logging in with a password (sshPassword) or a private
// key (sshPrivateKey). Connections go through the instance's egress policy; host keys are not
// verified, as n8n does not verify them either.
package ssh

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/binaryfile"
	"github.com/flowmill/flowmill/pkg/nodes/internal/remote"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

// connectTimeout is ssh2's default readyTimeout, which n8n keeps.
var connectTimeout = 20 * time.Second

type run struct {
	ex     *nodes.Execution
	client *ssh.Client
	sftp   *sftp.Client
	limit  int64
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	resource, err := ex.ParamString("resource", 0)
	if err != nil {
		return nil, err
	}
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	auth, err := ex.ParamString("authentication", 0)
	if err != nil {
		return nil, err
	}
	credType := "sshPassword"
	if auth == "privateKey" {
		credType = "sshPrivateKey"
	}
	creds, err := ex.Credentials(ctx, credType)
	if err != nil {
		return nil, err
	}
	server := remote.ServerOf(creds, 22)
	if credType == "sshPassword" {
		server.PrivateKey = ""
	}
	client, err := remote.SSH(ctx, ex.HTTPClient(), server, connectTimeout)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
	}
	r := &run{ex: ex, client: client, limit: ex.UnpackMaxBytes()}
	defer r.close()

	items := ex.InputData(0)
	download := resource == "file" && operation == "download"
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var res workflow.Item
		var err error
		switch {
		case resource == "command" && operation == "execute":
			res, err = r.execute(ctx, i)
		case download:
			res, err = r.download(ctx, item, i)
		case resource == "file" && operation == "upload":
			res, err = r.upload(ctx, item, i)
		default:
			err = nodes.Errorf(i, "The operation %q is not supported for the resource %q!", operation, resource)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !ex.ContinueOnFail() {
				return nil, itemError(err, i)
			}
			if download {
				// n8n puts the error in place of the item, without its pairing.
				out = append(out, workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"error": err.Error()})})
			} else {
				out = append(out, ex.ErrorItem(itemError(err, i), i))
			}
			continue
		}
		out = append(out, res)
	}
	return [][]workflow.Item{out}, nil
}

func itemError(err error, i int) error {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		return err
	}
	return &nodes.Error{Message: err.Error(), ItemIndex: i, Cause: err}
}

func (r *run) close() {
	if r.sftp != nil {
		r.sftp.Close()
	}
	r.client.Close()
}

func (r *run) sftpClient() (*sftp.Client, error) {
	if r.sftp == nil {
		c, err := sftp.NewClient(r.client)
		if err != nil {
			return nil, err
		}
		r.sftp = c
	}
	return r.sftp, nil
}

// result is what a command gave, in node-ssh's shape: output trimmed, code and signal null
// when the server sent none.
type result struct {
	code   any
	signal any
	stdout string
	stderr string
}

// command runs cmd in a new session, its output capped at the instance's limit.
func (r *run) command(ctx context.Context, cmd string) (result, error) {
	s, err := r.client.NewSession()
	if err != nil {
		return result{}, err
	}
	defer s.Close()
	stop := remote.WatchContext(ctx, s)
	defer stop()
	stdout := &capped{limit: r.limit}
	stderr := &capped{limit: r.limit}
	s.Stdout, s.Stderr = stdout, stderr
	res := result{}
	err = s.Run(cmd)
	if ctx.Err() != nil {
		return result{}, ctx.Err()
	}
	var exit *ssh.ExitError
	var missing *ssh.ExitMissingError
	switch {
	case err == nil:
		res.code = float64(0)
	case errors.As(err, &exit):
		if exit.Signal() != "" {
			res.signal = "SIG" + exit.Signal()
		} else {
			res.code = float64(exit.ExitStatus())
		}
	case errors.As(err, &missing):
	default:
		return result{}, err
	}
	if stdout.over || stderr.over {
		return result{}, fmt.Errorf("The command's output is larger than %d bytes, the limit for reading a command's output (FLOWMILL_UNPACK_MAX_SIZE)", r.limit)
	}
	res.stdout = strings.TrimSpace(stdout.buf.String())
	res.stderr = strings.TrimSpace(stderr.buf.String())
	return res, nil
}

// capped keeps at most limit bytes and notes that more came.
type capped struct {
	buf   bytes.Buffer
	limit int64
	over  bool
}

func (c *capped) Write(p []byte) (int, error) {
	if left := c.limit - int64(c.buf.Len()); int64(len(p)) > left {
		c.over = true
		c.buf.Write(p[:max(left, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}

// resolveHome expands a leading "~/" to the remote user's home directory, as n8n does.
func (r *run) resolveHome(ctx context.Context, path string, i int) (string, error) {
	if strings.HasPrefix(path, "~/") {
		res, err := r.command(ctx, "echo $HOME")
		if err != nil {
			return "", err
		}
		home := res.stdout
		if !strings.HasSuffix(home, "/") {
			home += "/"
		}
		return strings.Replace(path, "~/", home, 1), nil
	}
	if strings.HasPrefix(path, "~") {
		return "", nodes.Errorf(i, `Invalid path. Replace "~" with home directory or "~/"`)
	}
	return path, nil
}

func (r *run) execute(ctx context.Context, i int) (workflow.Item, error) {
	cmd, err := r.ex.ParamString("command", i)
	if err != nil {
		return workflow.Item{}, err
	}
	cwd, err := r.ex.ParamString("cwd", i)
	if err != nil {
		return workflow.Item{}, err
	}
	if cwd, err = r.resolveHome(ctx, cwd, i); err != nil {
		return workflow.Item{}, err
	}
	if cwd != "" {
		cmd = "cd " + shellQuote(cwd) + " ; " + cmd
	}
	res, err := r.command(ctx, cmd)
	if err != nil {
		return workflow.Item{}, err
	}
	json := workflow.NewObject(4)
	json.Set("code", res.code)
	json.Set("signal", res.signal)
	json.Set("stdout", res.stdout)
	json.Set("stderr", res.stderr)
	return workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}}, nil
}

// shellQuote quotes s for a POSIX shell unless it is made of characters that need none, as
// the shell-escape package node-ssh uses does.
func shellQuote(s string) string {
	safe := s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_/:=-.,+@%", r))
	}) < 0
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (r *run) download(ctx context.Context, item workflow.Item, i int) (workflow.Item, error) {
	prop, err := r.ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	path, err := r.ex.ParamString("path", i)
	if err != nil {
		return workflow.Item{}, err
	}
	if path, err = r.resolveHome(ctx, path, i); err != nil {
		return workflow.Item{}, err
	}
	fileName, err := optionString(r.ex, "options.fileName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	c, err := r.sftpClient()
	if err != nil {
		return workflow.Item{}, err
	}
	f, err := c.Open(path)
	if err != nil {
		return workflow.Item{}, errors.New(remote.SFTPMessage(err))
	}
	defer f.Close()
	stop := remote.WatchContext(ctx, f)
	defer stop()
	data, err := remote.ReadAll(f, r.limit)
	if err != nil {
		var tooLarge *remote.TooLargeError
		if errors.As(err, &tooLarge) {
			return workflow.Item{}, err
		}
		return workflow.Item{}, errors.New(remote.SFTPMessage(err))
	}
	newItem := binaryfile.CopyItem(item, i)
	if fileName == "" {
		fileName = path
	}
	newItem.Binary[prop] = remote.DownloadedBinary(data, fileName)
	return newItem, nil
}

func optionString(ex *nodes.Execution, path string, i int) (string, error) {
	v, err := ex.ParamOr(path, i, "")
	if err != nil {
		return "", err
	}
	s, _ := v.(string)
	return s, nil
}

func (r *run) upload(ctx context.Context, item workflow.Item, i int) (workflow.Item, error) {
	path, err := r.ex.ParamString("path", i)
	if err != nil {
		return workflow.Item{}, err
	}
	if path, err = r.resolveHome(ctx, path, i); err != nil {
		return workflow.Item{}, err
	}
	fileName, err := optionString(r.ex, "options.fileName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	prop, err := r.ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	bin, err := remote.BinaryInput(item, prop, i)
	if err != nil {
		return workflow.Item{}, err
	}
	if fileName == "" {
		fileName = bin.FileName
	}
	target := path
	if !strings.HasSuffix(target, "/") {
		target += "/"
	}
	target += sanitizeFilename(fileName)
	c, err := r.sftpClient()
	if err != nil {
		return workflow.Item{}, err
	}
	f, err := c.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return workflow.Item{}, errors.New(remote.SFTPMessage(err))
	}
	stop := remote.WatchContext(ctx, f)
	_, err = io.Copy(f, remote.BinaryReader(bin))
	stop()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return workflow.Item{}, errors.New(remote.SFTPMessage(err))
	}
	json := workflow.NewObject(1)
	json.Set("success", true)
	return workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}}, nil
}

// sanitizeFilename keeps a file name from leaving the target directory or holding characters
// file systems refuse, as n8n's sanitizeFilename does; an empty result becomes "untitled".
func sanitizeFilename(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`/\?<>:*|"`, r) {
			continue
		}
		b.WriteRune(r)
	}
	s := strings.TrimRight(strings.TrimSpace(b.String()), ". ")
	if s == "" || s == "." || s == ".." {
		return "untitled"
	}
	return s
}

// TestConnection logs in with sshPassword or sshPrivateKey credential data through client's
// egress policy, as n8n's sshConnectionTest does; the error's text is what the editor shows.
func TestConnection(ctx context.Context, data map[string]any, client *http.Client) error {
	c, err := remote.SSH(ctx, client, remote.ServerOf(data, 22), connectTimeout)
	if err != nil {
		return fmt.Errorf("SSH connection failed: %v", err)
	}
	return c.Close()
}
