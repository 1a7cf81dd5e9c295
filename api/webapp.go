package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// basePathPlaceholder is what the web app build writes wherever the base path belongs.
const basePathPlaceholder = "/{{BASE_PATH}}/"

// asset is one file of the web app, prepared once at start.
type asset struct {
	body        []byte
	gzipped     []byte
	contentType string
	etag        string
	immutable   bool
}

// webApp serves the built editor: files by path, index.html for every other path (the client
// router decides), with the base path written into the text files.
type webApp struct {
	assets map[string]*asset
	index  *asset
}

// newWebApp reads every file of dist into memory. A dist without index.html (the web app was not
// built into this binary) gives a webApp that answers with a clear message.
func newWebApp(dist fs.FS, basePath string) (*webApp, error) {
	w := &webApp{assets: map[string]*asset{}}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(p, ".map") {
			return err
		}
		b, err := fs.ReadFile(dist, p)
		if err != nil {
			return err
		}
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		text := strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") || strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
		if text {
			b = bytes.ReplaceAll(b, []byte(basePathPlaceholder), []byte(basePath))
		}
		sum := sha256.Sum256(b)
		a := &asset{body: b, contentType: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`,
			immutable: strings.HasPrefix(p, "assets/")}
		if text && len(b) > 1024 {
			var gz bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
			_, _ = zw.Write(b)
			_ = zw.Close()
			a.gzipped = gz.Bytes()
		}
		w.assets[p] = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	w.index = w.assets["index.html"]
	return w, nil
}

// indexHTML is index.html as served; nil when the web app is not built in.
func (w *webApp) indexHTML() []byte {
	if w.index == nil {
		return nil
	}
	return w.index.body
}

// serve answers GET/HEAD for path p (relative to the base path, without a leading slash).
func (w *webApp) serve(c fiber.Ctx, p string) error {
	if w.index == nil {
		return c.Status(fiber.StatusServiceUnavailable).Type("txt").
			SendString("The web app is not built into this binary. Run `make build` (or `make run`).")
	}
	a, ok := w.assets[p]
	if !ok {
		if path.Ext(p) != "" && strings.HasPrefix(p, "assets/") {
			return notFound("No such file: " + p)
		}
		a = w.index
	}
	c.Set(fiber.HeaderContentType, a.contentType)
	c.Set(fiber.HeaderETag, a.etag)
	c.Set(fiber.HeaderVary, fiber.HeaderAcceptEncoding)
	if a.immutable {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	} else {
		c.Set(fiber.HeaderCacheControl, "no-cache")
	}
	if c.Get(fiber.HeaderIfNoneMatch) == a.etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	if a.gzipped != nil && strings.Contains(c.Get(fiber.HeaderAcceptEncoding), "gzip") {
		c.Set(fiber.HeaderContentEncoding, "gzip")
		return c.Send(a.gzipped)
	}
	return c.Send(a.body)
}
