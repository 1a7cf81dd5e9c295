package main

import (
	"crypto/sha256"
	"encoding/base64"
	"net"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/config"
)

// webhookSandboxPolicy is the Content-Security-Policy every webhook answer carries. The document
// gets an opaque origin (no allow-same-origin), so it can neither read the editor's cookies and
// storage nor call /rest as the user who opened it; no script runs (no allow-scripts), so it
// cannot even send requests from the user's browser. Forms may post (approval pages that resume
// a waiting execution) and links may open new windows and downloads; both leave with Origin: null
// and without SameSite cookies, which the /rest same-origin check refuses anyway.
const webhookSandboxPolicy = "sandbox allow-forms allow-popups allow-downloads"

// machinePolicy is the Content-Security-Policy of the REST and public API answers: JSON and node
// icons, which are never meant to be opened as a page.
const machinePolicy = "default-src 'none'; frame-ancestors 'none'"

// docsPolicy is the Content-Security-Policy of the Swagger UI page at /api/v1/docs: its own
// script files only; Swagger UI sets style attributes and shows data: images.
const docsPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// headerPolicy decides the security headers of every answer by the kind of path it is for.
type headerPolicy struct {
	basePath string
	// editor and demo are the editor pages' policies: demo (the demo view) may be framed by the
	// editor itself, the templates host and the configured origins; editor by nobody.
	editor, demo string
	// unsandboxedHost, when set, is the webhook URL's host[:port]: webhook answers to requests
	// addressed to it go without the sandbox, and nothing else is served to them
	// (FLOWMILL_WEBHOOK_SANDBOX=false).
	unsandboxedHost string
}

// newHeaderPolicy builds the policies from the configuration and the inline scripts of the web
// app's index.html (allowed by their hashes, so script-src needs no 'unsafe-inline').
func newHeaderPolicy(cfg *config.Config, index []byte) *headerPolicy {
	p := &headerPolicy{basePath: cfg.BasePath}
	templates := ""
	if cfg.TemplatesHost != "" {
		if o, err := config.Origin(cfg.TemplatesHost); err == nil {
			templates = " " + o
		}
	}
	// The editor asks the version endpoint for newer versions from the browser when version
	// notifications are on.
	versions := ""
	if cfg.VersionNotificationsEnabled {
		if o, err := config.Origin(cfg.VersionNotificationsEndpoint); err == nil && o != strings.TrimSpace(templates) {
			versions = " " + o
		}
	}
	// An outside prompts host is called from the browser too.
	promptsHost := ""
	if cfg.PromptsEnabled && cfg.PromptsHost != "" {
		if o, err := config.Origin(cfg.PromptsHost); err == nil && !strings.Contains(templates+versions+" ", " "+o+" ") {
			promptsHost = " " + o
		}
	}
	scripts := "'self'"
	for _, h := range inlineScriptHashes(index) {
		scripts += " '" + h + "'"
	}
	// Mantine and @xyflow/react set style attributes and Mantine adds <style> elements, so styles
	// need 'unsafe-inline'; PDFs show in a frame from a blob: URL, images, video and audio from
	// data: URLs; the editor calls the templates host from the browser.
	common := "default-src 'self'; script-src " + scripts + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:" + templates + "; font-src 'self' data:; connect-src 'self'" + templates + versions + promptsHost + "; " +
		"media-src 'self' data: blob:; frame-src 'self' blob:; worker-src 'self' blob:; object-src 'none'; " +
		"base-uri 'self'; form-action 'self'; frame-ancestors "
	p.editor = common + "'none'"
	p.demo = common + strings.Join(append([]string{"'self'"}, cfg.DemoFrameOrigins()...), " ")
	if !cfg.WebhookSandbox {
		p.unsandboxedHost = originHost(cfg.WebhookURL)
	}
	return p
}

// inlineScriptPattern finds <script> elements without a src attribute and their text.
var inlineScriptPattern = regexp.MustCompile(`(?is)<script((?:\s[^>]*)?)>(.*?)</script>`)

// inlineScriptHashes returns the CSP hash source ('sha256-…') of every inline script in html.
func inlineScriptHashes(html []byte) []string {
	var out []string
	for _, m := range inlineScriptPattern.FindAllSubmatch(html, -1) {
		if strings.Contains(strings.ToLower(string(m[1])), "src=") || len(m[2]) == 0 {
			continue
		}
		sum := sha256.Sum256(m[2])
		out = append(out, "sha256-"+base64.StdEncoding.EncodeToString(sum[:]))
	}
	return out
}

// originHost is the host[:port] of an http(s) URL as a Host header names it: the port only when
// it is not the scheme's default.
func originHost(raw string) string {
	o, err := config.Origin(raw)
	if err != nil {
		return ""
	}
	_, host, _ := strings.Cut(o, "://")
	return host
}

// requestHost is the request's Host header in originHost's form.
func requestHost(c fiber.Ctx) string {
	host := strings.ToLower(c.Host())
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		return host
	}
	if (port == "80" && c.Scheme() == "http") || (port == "443" && c.Scheme() == "https") {
		if strings.Contains(h, ":") {
			return "[" + h + "]"
		}
		return h
	}
	return host
}

// pathKind is what a path serves, for its headers.
type pathKind int

const (
	editorPage pathKind = iota
	demoPage
	apiDocsPage
	machinePath
	webhookAnswer
	// oauthCallbackPage is the page an OAuth callback answers in the editor's popup.
	oauthCallbackPage
)

// kindOf classifies p, a path relative to the base path without the leading slash.
func kindOf(p string) pathKind {
	p = strings.TrimSuffix(p, "/")
	switch {
	case p == "webhook" || p == "webhook-test" || p == "webhook-waiting" ||
		strings.HasPrefix(p, "webhook/") || strings.HasPrefix(p, "webhook-test/") || strings.HasPrefix(p, "webhook-waiting/"):
		return webhookAnswer
	case p == "api/v1/docs" || strings.HasPrefix(p, "api/v1/docs/"):
		return apiDocsPage
	case p == "rest/oauth1-credential/callback" || p == "rest/oauth2-credential/callback":
		return oauthCallbackPage
	case isAPIPath(p):
		return machinePath
	case p == "workflows/demo":
		return demoPage
	}
	return editorPage
}

// middleware sets the headers once the handler (and any error it returned) has decided the
// answer, so a workflow's own headers cannot drop them; the error handler that writes a failed
// answer's body keeps them.
//
// Requests addressed to the unsandboxed webhook host get webhooks only: the editor and /rest
// served there would share that origin with the workflows' pages.
func (hp *headerPolicy) middleware(c fiber.Ctx) error {
	p, under := strings.CutPrefix(c.Path(), hp.basePath)
	if !under {
		p = strings.TrimPrefix(c.Path(), "/")
	}
	kind := kindOf(p)
	onWebhookHost := hp.unsandboxedHost != "" && requestHost(c) == hp.unsandboxedHost
	var err error
	if onWebhookHost && kind != webhookAnswer {
		err = notFound("Only webhooks are served at the webhook URL's host " + hp.unsandboxedHost)
	} else {
		err = c.Next()
	}
	h := &c.Response().Header
	h.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	switch kind {
	case webhookAnswer:
		// Added beside any policy the workflow set: browsers enforce every policy sent.
		if !onWebhookHost {
			h.Add(fiber.HeaderContentSecurityPolicy, webhookSandboxPolicy)
		}
	case machinePath:
		h.Set(fiber.HeaderContentSecurityPolicy, machinePolicy)
		h.Set(fiber.HeaderReferrerPolicy, "same-origin")
		// REST and public API answers hold account data: no browser or proxy keeps them,
		// unless the handler chose otherwise (node icons).
		if len(h.Peek(fiber.HeaderCacheControl)) == 0 {
			h.Set(fiber.HeaderCacheControl, "no-store")
		}
	case oauthCallbackPage:
		h.Set(fiber.HeaderContentSecurityPolicy, oauthPagePolicy)
		h.Set(fiber.HeaderXFrameOptions, "DENY")
		h.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		h.Set(fiber.HeaderCacheControl, "no-store")
	case apiDocsPage:
		h.Set(fiber.HeaderContentSecurityPolicy, docsPolicy)
		h.Set(fiber.HeaderXFrameOptions, "DENY")
		h.Set(fiber.HeaderReferrerPolicy, "same-origin")
	case demoPage:
		// frame-ancestors lists who may frame it; X-Frame-Options cannot name several origins.
		h.Set(fiber.HeaderContentSecurityPolicy, hp.demo)
		h.Set(fiber.HeaderReferrerPolicy, "same-origin")
	case editorPage:
		h.Set(fiber.HeaderContentSecurityPolicy, hp.editor)
		h.Set(fiber.HeaderXFrameOptions, "DENY")
		h.Set(fiber.HeaderReferrerPolicy, "same-origin")
	}
	return err
}
