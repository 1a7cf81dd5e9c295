package nodes

import (
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// ErrBinaryNotInline is returned for binary data kept outside the item (by ID): reading it needs
// a binary data store, which a node must get from its own dependencies.
var ErrBinaryNotInline = errors.New("binary data is stored by id, not inline")

// BinaryBytes decodes an item's inline binary data.
func BinaryBytes(b workflow.BinaryData) ([]byte, error) {
	if b.Data == "" && b.ID != "" {
		return nil, ErrBinaryNotInline
	}
	out, err := base64.StdEncoding.DecodeString(b.Data)
	if err != nil {
		return nil, fmt.Errorf("binary data: %w", err)
	}
	return out, nil
}

// NewBinary prepares inline binary data as n8n's prepareBinaryData does: base64 data, the MIME
// type (from the file name or the content when empty), file extension, type and a readable size.
func NewBinary(data []byte, fileName, mimeType string) workflow.BinaryData {
	ext := strings.TrimPrefix(filepath.Ext(fileName), ".")
	if mimeType == "" && ext != "" {
		mimeType = mime.TypeByExtension("." + ext)
	}
	if mimeType == "" {
		mimeType = http.DetectContentType(data)
	}
	if i := strings.IndexByte(mimeType, ';'); i >= 0 && !strings.HasPrefix(mimeType, "text/") {
		mimeType = strings.TrimSpace(mimeType[:i])
	}
	if ext == "" {
		if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 {
			ext = strings.TrimPrefix(exts[0], ".")
		}
	}
	return workflow.BinaryData{
		Data:          base64.StdEncoding.EncodeToString(data),
		MimeType:      mimeType,
		FileName:      fileName,
		FileExtension: ext,
		FileSize:      prettyBytes(len(data)),
		FileType:      fileType(mimeType),
	}
}

func fileType(mimeType string) string {
	switch {
	case strings.HasPrefix(mimeType, "image/"):
		return "image"
	case strings.HasPrefix(mimeType, "video/"):
		return "video"
	case strings.HasPrefix(mimeType, "audio/"):
		return "audio"
	case strings.HasPrefix(mimeType, "text/"):
		return "text"
	case strings.Contains(mimeType, "json"):
		return "json"
	case mimeType == "application/pdf":
		return "pdf"
	}
	return ""
}

// prettyBytes formats a size in decimal units, like the pretty-bytes package n8n uses.
func prettyBytes(n int) string {
	if n < 1000 {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"kB", "MB", "GB", "TB"}
	f := float64(n)
	u := -1
	for f >= 1000 && u < len(units)-1 {
		f /= 1000
		u++
	}
	s := fmt.Sprintf("%.3g", f)
	return s + " " + units[u]
}
