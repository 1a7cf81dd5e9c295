// Package filetype tells the MIME type of file data as n8n's prepareBinaryData does: by the file
// name's extension, else by content for the kinds of files content sniffing recognizes, else
// text/plain.
package filetype

import (
	"mime"
	"net/http"
	"path/filepath"
	"strings"
)

// sniffed are the content types trusted from sniffing; text formats are not told apart by
// n8n's detector and fall back to text/plain.
var sniffed = []string{"image/", "audio/", "video/", "font/", "application/pdf", "application/zip", "application/x-gzip", "application/wasm", "application/ogg"}

// Detect returns the MIME type for a file name and its data, without parameters.
func Detect(name string, data []byte) string {
	if t := ByName(name); t != "" {
		return t
	}
	t := http.DetectContentType(data)
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	for _, p := range sniffed {
		if strings.HasPrefix(t, p) {
			return t
		}
	}
	return "text/plain"
}

// ByName looks a MIME type up by file extension, without parameters; empty when unknown.
func ByName(name string) string {
	ext := filepath.Ext(name)
	if ext == "" {
		return ""
	}
	t := mime.TypeByExtension(strings.ToLower(ext))
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	return t
}

// Extensions lists the file extensions of a MIME type, without dots; empty when unknown.
func Extensions(mimeType string) []string {
	exts, _ := mime.ExtensionsByType(mimeType)
	out := make([]string, 0, len(exts))
	for _, e := range exts {
		out = append(out, strings.TrimPrefix(e, "."))
	}
	return out
}
