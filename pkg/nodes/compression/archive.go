package compression

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// budget is what is left of the decompression cap of one node run.
type budget struct {
	left, limit int64
}

// errTooBig is n8n's message for output past the cap.
func (b *budget) errTooBig() error {
	return fmt.Errorf("The decompressed output exceeds the maximum allowed size of %d MB", (b.limit+(1<<19))>>20)
}

// read reads r to its end, failing once more than the budget's remainder comes out; r is never
// read further than one byte past it.
func (b *budget) read(r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(r, b.left+1))
	if err != nil {
		return nil, err
	}
	if n > b.left {
		return nil, b.errTooBig()
	}
	b.left -= n
	return buf.Bytes(), nil
}

type zipEntry struct {
	name  string
	data  []byte
	store bool
}

// unzip reads every file of a zip archive (directories are left out), in archive order.
func unzip(ctx context.Context, data []byte, b *budget) ([]zipEntry, error) {
	r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, errors.New("invalid zip data")
	}
	var out []zipEntry
	for _, f := range r.File {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.FileInfo().IsDir() {
			continue
		}
		// The sizes the archive declares are checked first, then the bytes really inflated.
		if f.UncompressedSize64 > uint64(b.left) {
			return nil, b.errTooBig()
		}
		rc, err := f.Open()
		if errors.Is(err, zip.ErrAlgorithm) {
			return nil, fmt.Errorf("unknown compression type %d", f.Method)
		}
		if err != nil {
			return nil, errors.New("invalid zip data")
		}
		content, err := b.read(rc)
		rc.Close()
		if err != nil {
			if errors.Is(err, zip.ErrChecksum) || errors.Is(err, zip.ErrFormat) || errors.Is(err, io.ErrUnexpectedEOF) ||
				isFlateError(err) {
				return nil, errors.New("invalid zip data")
			}
			return nil, err
		}
		out = append(out, zipEntry{name: f.Name, data: content})
	}
	return out, nil
}

func isFlateError(err error) bool {
	var corrupt flate.CorruptInputError
	var internal flate.InternalError
	return errors.As(err, &corrupt) || errors.As(err, &internal)
}

// gunzip inflates the first member of gzip data.
func gunzip(data []byte, b *budget) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errors.New("invalid gzip data")
	}
	zr.Multistream(false)
	out, err := b.read(zr)
	if err != nil {
		if errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.Is(err, io.ErrUnexpectedEOF) || isFlateError(err) {
			return nil, errors.New("invalid gzip data")
		}
		return nil, err
	}
	return out, nil
}

func gzipData(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, 6)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// zipData writes the files into one archive: deflated at level 6, or stored when the file is
// already compressed.
func zipData(files []zipEntry) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, 6) })
	now := time.Now()
	for _, f := range files {
		method := zip.Deflate
		if f.store {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.name, Method: method, Modified: now})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
