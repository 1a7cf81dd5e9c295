// Package ftp is the FTP node (versions 1 and 1.1): it lists, downloads, uploads, renames and
// deletes files on an FTP server (ftp credential) or over SFTP (sftp credential: password or
// private key). Every connection, FTP data connections included, goes through the instance's
// egress policy; SFTP host keys are not verified, as n8n does not verify them either.
package ftp

import (
	"context"
	_ "embed"
	"errors"
	"io"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/binaryfile"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/nodes/internal/remote"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

// defaultTimeout is n8n's connection timeout when the Timeout option is not set.
const defaultTimeout = 10 * time.Second

// session is an open connection of either protocol.
type session interface {
	list(dir string, recursive bool) ([]*workflow.Object, error)
	remove(p string, folder, recursive bool) error
	rename(from, to string, createDirs bool) error
	download(p string) ([]byte, error)
	upload(p string, data func() io.Reader) error
	close()
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	protocol, err := ex.ParamString("protocol", 0)
	if err != nil {
		return nil, err
	}
	ms, err := ex.ParamOr("options.timeout", 0, float64(10000))
	if err != nil {
		return nil, err
	}
	timeout := defaultTimeout
	if f := jsv.ToNumber(ms); f >= 1 {
		timeout = time.Duration(f * float64(time.Millisecond))
	}
	credType := "ftp"
	if protocol == "sftp" {
		credType = "sftp"
	}
	creds, err := ex.Credentials(ctx, credType)
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	limit := ex.UnpackMaxBytes()
	var s session
	if credType == "sftp" {
		s, err = dialSFTP(ctx, ex.HTTPClient(), remote.ServerOf(creds, 22), timeout, limit)
	} else {
		s, err = dialFTPSession(ctx, ex.HTTPClient(), remote.ServerOf(creds, 21), timeout, limit)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if ex.ContinueOnFail() {
			paired := make(workflow.PairedItems, len(items))
			for i := range items {
				paired[i].Item = i
			}
			return [][]workflow.Item{{{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &paired}}}, nil
		}
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
	}
	defer s.close()

	var out []workflow.Item
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := runItem(ex, s, operation, item, i)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var ne *nodes.Error
			if !errors.As(err, &ne) {
				ne = &nodes.Error{Message: err.Error(), ItemIndex: i, Cause: err}
			}
			if !ex.ContinueOnFail() {
				return nil, ne
			}
			out = append(out, ex.ErrorItem(ne, i))
			continue
		}
		out = append(out, res...)
	}
	return [][]workflow.Item{out}, nil
}

func runItem(ex *nodes.Execution, s session, operation string, item workflow.Item, i int) ([]workflow.Item, error) {
	paired := &workflow.PairedItems{{Item: i}}
	success := func() []workflow.Item {
		return []workflow.Item{{JSON: workflow.ObjectOf("success", true), PairedItem: paired}}
	}
	switch operation {
	case "list":
		p, err := ex.ParamString("path", i)
		if err != nil {
			return nil, err
		}
		recursive, err := ex.ParamBool("recursive", i)
		if err != nil {
			return nil, err
		}
		entries, err := s.list(p, recursive)
		if err != nil {
			return nil, err
		}
		out := make([]workflow.Item, len(entries))
		for k, e := range entries {
			out[k] = workflow.Item{JSON: e, PairedItem: paired}
		}
		return out, nil
	case "delete":
		p, err := ex.ParamString("path", i)
		if err != nil {
			return nil, err
		}
		options, err := ex.ParamMap("options", i)
		if err != nil {
			return nil, err
		}
		folder := options["folder"] == true
		if err := s.remove(p, folder, folder && truthy(options["recursive"])); err != nil {
			return nil, err
		}
		return success(), nil
	case "rename":
		from, err := ex.ParamString("oldPath", i)
		if err != nil {
			return nil, err
		}
		to, err := ex.ParamString("newPath", i)
		if err != nil {
			return nil, err
		}
		options, err := ex.ParamMap("options", i)
		if err != nil {
			return nil, err
		}
		if err := s.rename(from, to, truthy(options["createDirectories"])); err != nil {
			return nil, err
		}
		return success(), nil
	case "download":
		p, err := ex.ParamString("path", i)
		if err != nil {
			return nil, err
		}
		prop, err := ex.ParamString("binaryPropertyName", i)
		if err != nil {
			return nil, err
		}
		data, err := s.download(p)
		if err != nil {
			return nil, err
		}
		newItem := binaryfile.CopyItem(item, i)
		newItem.Binary[prop] = remote.DownloadedBinary(data, path.Base(p))
		return []workflow.Item{newItem}, nil
	case "upload":
		p, err := ex.ParamString("path", i)
		if err != nil {
			return nil, err
		}
		useBinary, err := ex.ParamBool("binaryData", i)
		if err != nil {
			return nil, err
		}
		var data func() io.Reader
		if useBinary {
			prop, err := ex.ParamString("binaryPropertyName", i)
			if err != nil {
				return nil, err
			}
			bin, err := remote.BinaryInput(item, prop, i)
			if err != nil {
				return nil, err
			}
			data = func() io.Reader { return remote.BinaryReader(bin) }
		} else {
			text, err := ex.ParamString("fileContent", i)
			if err != nil {
				return nil, err
			}
			data = func() io.Reader { return strings.NewReader(text) }
		}
		if err := s.upload(p, data); err != nil {
			return nil, err
		}
		return []workflow.Item{binaryfile.CopyItem(item, i)}, nil
	}
	return nil, nodes.Errorf(i, "The operation %q is not supported!", operation)
}

// truthy is JavaScript's truthiness of an option value.
func truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case float64:
		return t != 0 && t == t
	case int:
		return t != 0
	}
	return !jsv.IsUndefined(v)
}

// TestConnection connects and logs in with credential data of type ftp or sftp through client's
// egress policy, as n8n's ftpConnectionTest and sftpConnectionTest do; the error's text is what
// the editor shows.
func TestConnection(ctx context.Context, credType string, data map[string]any, client *http.Client) error {
	var (
		s   session
		err error
	)
	if credType == "sftp" {
		s, err = dialSFTP(ctx, client, remote.ServerOf(data, 22), defaultTimeout, 0)
	} else {
		s, err = dialFTPSession(ctx, client, remote.ServerOf(data, 21), defaultTimeout, 0)
	}
	if err != nil {
		return err
	}
	s.close()
	return nil
}
