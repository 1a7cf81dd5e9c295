package main

import (
	"embed"
	"html/template"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// swaggerDist holds Swagger UI's static files, copied from the swagger-ui-dist npm package by
// `make build` (api/swaggerui); a fresh clone has only .gitkeep and the page says how to build.
//
//go:embed all:swaggerui/dist
var swaggerDist embed.FS

// swaggerAssets are the files of swaggerui/dist the docs page may load.
var swaggerAssets = map[string]bool{"swagger-ui-bundle.js": true, "swagger-ui.css": true, "favicon-32x32.png": true}

var docsPage = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Flowmill Public API</title>
<link rel="icon" type="image/png" href="{{.Base}}api/v1/docs/favicon-32x32.png">
<link rel="stylesheet" href="{{.Base}}api/v1/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{{.Base}}api/v1/docs/swagger-ui-bundle.js"></script>
<script src="{{.Base}}api/v1/docs/init.js"></script>
</body>
</html>
`))

// apiDocs serves the Swagger UI page for the public API document.
func (s *server) apiDocs(c fiber.Ctx) error {
	if s.cfg.PublicAPIDisabled {
		return notFound("Not found")
	}
	if _, err := fs.Stat(swaggerDist, "swaggerui/dist/swagger-ui-bundle.js"); err != nil {
		return &apiError{Status: fiber.StatusServiceUnavailable, Message: "Swagger UI is not built into this binary: run make build"}
	}
	var b strings.Builder
	if err := docsPage.Execute(&b, struct{ Base string }{s.cfg.BasePath}); err != nil {
		return err
	}
	c.Set("Content-Type", "text/html; charset=utf-8")
	c.Set("Cache-Control", "no-cache")
	return c.SendString(b.String())
}

// apiDocsAsset serves Swagger UI's files and the script that points it at the document.
func (s *server) apiDocsAsset(c fiber.Ctx) error {
	if s.cfg.PublicAPIDisabled {
		return notFound("Not found")
	}
	name := c.Params("*")
	if name == "init.js" {
		c.Set("Content-Type", "text/javascript; charset=utf-8")
		c.Set("Cache-Control", "no-cache")
		return c.SendString(`window.ui = SwaggerUIBundle({url: ` + jsString(s.cfg.BasePath+"api/v1/openapi.yml") +
			`, dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false});`)
	}
	if !swaggerAssets[name] {
		return notFound("Not found")
	}
	b, err := swaggerDist.ReadFile("swaggerui/dist/" + name)
	if err != nil {
		return notFound("Not found")
	}
	c.Set("Content-Type", mime.TypeByExtension(path.Ext(name)))
	c.Set("Cache-Control", "public, max-age=86400")
	return c.Send(b)
}

// apiSpecDocument serves the OpenAPI document the public API validates against.
func (s *server) apiSpecDocument(c fiber.Ctx) error {
	if s.cfg.PublicAPIDisabled {
		return notFound("Not found")
	}
	c.Set("Content-Type", "application/yaml; charset=utf-8")
	return c.Send(publicAPIDoc)
}

// jsString quotes s as a JavaScript string literal that is safe inside a script.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "<", `\x3c`, ">", `\x3e`, "\n", `\n`, "\r", `\r`)
	return "'" + r.Replace(s) + "'"
}
