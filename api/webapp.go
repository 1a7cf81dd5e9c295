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
	"sync"

	"github.com/gofiber/fiber/v3"
)

// basePathPlaceholder is what the web app build writes wherever the base path belongs.
const basePathPlaceholder = "/{{BASE_PATH}}/"

// asset is one file of the web app, prepared (read, base path written in, hashed, gzipped) when
// it is first asked for: most of the editor's chunks are never loaded by a given installation,
// so neither their bytes nor their compressed copies are kept until then.
type asset struct {
	once        sync.Once
	body        []byte
	gzipped     []byte
	contentType string
	etag        string
	immutable   bool
	err         error
}

// webApp serves the built editor: files by path, index.html for every other path (the client
// router decides), with the base path written into the text files.
type webApp struct {
	dist     fs.FS
	basePath string
	// assets holds the files asked for so far (path → *asset): the build has thousands of
	// chunks, and an idle process keeps no entry for those nobody loaded.
	assets sync.Map
	index  *asset
}

// newWebApp prepares index.html of dist; other files are found and prepared when first asked
// for. A dist without index.html (the web app was not built into this binary) gives a webApp
// that answers with a clear message.
func newWebApp(dist fs.FS, basePath string) (*webApp, error) {
	w := &webApp{dist: dist, basePath: basePath}
	if a := w.lookup("index.html"); a != nil {
		if a = w.prepared("index.html", a); a.err != nil {
			return nil, a.err
		}
		w.index = a
	}
	return w, nil
}

// lookup returns the asset of the file at p, nil when dist has no such file to serve (hidden
// files and source maps are not served).
func (w *webApp) lookup(p string) *asset {
	if a, ok := w.assets.Load(p); ok {
		return a.(*asset)
	}
	if !fs.ValidPath(p) || strings.HasPrefix(path.Base(p), ".") || strings.HasSuffix(p, ".map") {
		return nil
	}
	if info, err := fs.Stat(w.dist, p); err != nil || info.IsDir() {
		return nil
	}
	// p may be a view of the request's reused buffer: the map keeps a copy.
	p = strings.Clone(p)
	a, _ := w.assets.LoadOrStore(p, &asset{})
	return a.(*asset)
}

// webTypes are the content types of the files a web app build holds, so serving them does
// not load the system's MIME table; other files fall back to it.
var webTypes = map[string]string{
	".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
	".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
	".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png",
	".ico": "image/vnd.microsoft.icon", ".woff2": "font/woff2", ".woff": "font/woff",
	".txt": "text/plain; charset=utf-8", ".webmanifest": "application/manifest+json",
}

func contentType(p string) string {
	ext := strings.ToLower(path.Ext(p))
	if t, ok := webTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// prepared returns the asset at p once it has been read and prepared.
func (w *webApp) prepared(p string, a *asset) *asset {
	a.once.Do(func() {
		b, err := fs.ReadFile(w.dist, p)
		if err != nil {
			a.err = err
			return
		}
		ctype := contentType(p)
		text := strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") || strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
		if text {
			b = bytes.ReplaceAll(b, []byte(basePathPlaceholder), []byte(w.basePath))
		}
		sum := sha256.Sum256(b)
		a.body, a.contentType, a.etag, a.immutable = b, ctype, `"`+hex.EncodeToString(sum[:8])+`"`, strings.HasPrefix(p, "assets/")
		if text && len(b) > 1024 {
			var gz bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
			_, _ = zw.Write(b)
			_ = zw.Close()
			a.gzipped = gz.Bytes()
		}
	})
	return a
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
	a := w.lookup(p)
	if a == nil {
		if path.Ext(p) != "" && strings.HasPrefix(p, "assets/") {
			return notFound("No such file: " + p)
		}
		p, a = "index.html", w.index
	}
	if a = w.prepared(p, a); a.err != nil {
		return a.err
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
