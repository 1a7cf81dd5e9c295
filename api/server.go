package main

import (
	"context"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/mail"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/prompts"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/templates"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/versioncheck"
	"github.com/flowmill/flowmill/pkg/webhook"
)

// version is the product version, set at build time with -ldflags "-X main.version=…".
var version = "0.1.0"

// server is the api process's HTTP side.
type server struct {
	cfg *config.Config
	// descriptions holds each node description as GET/POST /rest/node-types write it.
	descriptions sync.Map
	in           *infra.Infra
	log          *slog.Logger
	app          *fiber.App
	hub          *push.Hub
	web          *webApp
	promHandler  fiber.Handler
	executions   *execution.Service
	nodeTypes    *nodes.Registry
	// nodeHost is what nodes run by the api itself (expression previews, editor lookups) may
	// reach: the host runs get.
	nodeHost nodes.Host
	// workflowURLClient fetches workflow files for "Import from URL" (strict egress profile).
	workflowURLClient *http.Client
	hooks             *webhook.Runtime
	// activation is the save-with-activation use case every save of a workflow goes through:
	// PATCH and DELETE /rest/workflows/:id and the public API's update, delete, activate and
	// deactivate.
	activation *trigger.Activation
	// ev evaluates expressions for the api: webhook paths, activation checks, previews.
	ev       *expr.Evaluator
	sessions *auth.Sessions
	limiter  *auth.Limiter
	limits   accountLimits
	mailer   *mail.Mailer
	// credentials encrypts credential data at rest.
	credentials *credential.Cipher
	// clock is the time for expiring tokens; nil means time.Now.
	clock func() time.Time
	// background runs work that outlives its request (mails sent after the answer).
	background sync.WaitGroup
	// draining is set on SIGTERM: readiness answers 503 while requests are still served.
	draining atomic.Bool
	// versions asks the version endpoint for the audit; nil when version notifications are off.
	versions *versioncheck.Checker
	// templates loads the built-in template library the templates host serves, on the first
	// request for it (the catalogue is half a megabyte of heap an idle api does not need); nil
	// when templates are off.
	templates func() (*templates.Catalogue, error)
	// prompts is the built-in prompts host; nil unless prompts are on without an outside host.
	prompts *prompts.Host
}

// newServer builds the Fiber app with every route; dist is the built web app.
func newServer(in *infra.Infra, dist fs.FS) (*server, error) {
	cfg := in.Config
	web, err := newWebApp(dist, cfg.BasePath)
	if err != nil {
		return nil, err
	}
	s := &server{
		cfg: cfg, in: in, log: in.Log, web: web,
		hub:       push.NewHub(in.Redis, 0, in.Log),
		nodeTypes: in.Nodes,
		nodeHost:  infra.NodeHost(cfg, in.Files),

		workflowURLClient: newWorkflowURLClient(cfg.Egress()),
	}
	if s.mailer, err = mail.New(mail.Config{Host: cfg.SMTPHost, Port: cfg.SMTPPort, User: cfg.SMTPUser,
		Pass: cfg.SMTPPass, Sender: cfg.SMTPSender, SSL: cfg.SMTPSSL}); err != nil {
		return nil, err
	}
	if s.executions, err = execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis}); err != nil {
		return nil, err
	}
	s.sessions = auth.NewSessions(cfg.EncryptionKey, s.now)
	if s.credentials, err = credential.NewCipher(cfg.EncryptionKey); err != nil {
		return nil, err
	}
	s.limiter = auth.NewLimiter(in.Redis)
	if cfg.VersionNotificationsEnabled {
		if s.versions, err = versioncheck.New(versioncheck.Config{Client: cfg.Egress().Client(egress.Options{}),
			Endpoint: cfg.VersionNotificationsEndpoint, InstanceID: in.InstanceID()}); err != nil {
			return nil, err
		}
	}
	if cfg.TemplatesEnabled {
		s.templates = sync.OnceValues(func() (*templates.Catalogue, error) { return templates.Builtin(s.nodeTypes) })
	}
	if cfg.PromptsEnabled && cfg.PromptsHost == "" {
		if s.prompts, err = prompts.New(prompts.Config{Store: in.Store}); err != nil {
			return nil, err
		}
	}
	s.limits = defaultAccountLimits
	s.ev = in.Eval
	if s.hooks, err = newWebhooks(s); err != nil {
		return nil, err
	}
	s.activation = &trigger.Activation{Store: in.Store, Redis: in.Redis, Registry: s.nodeTypes, Evaluator: s.ev,
		Webhooks: s.hooks, Logger: s.log, Queue: in.Queue}
	s.promHandler = newPromHandler(s)
	s.app = fiber.New(fiber.Config{
		AppName:      "Flowmill",
		BodyLimit:    cfg.MaxBodySize << 20,
		ErrorHandler: errorHandler(in.Log),
		ReadTimeout:  time.Minute,
		IdleTimeout:  2 * time.Minute,
	})
	s.app.Use(newHeaderPolicy(cfg, web.indexHTML()).middleware)
	s.app.Use(s.countRequests)
	s.mount()
	return s, nil
}

// start subscribes to push messages and serves on ln until shutdown.
func (s *server) start(ctx context.Context, ln net.Listener) (<-chan error, error) {
	if err := s.hub.Start(ctx); err != nil {
		return nil, err
	}
	if err := s.hooks.Start(ctx); err != nil {
		s.hub.Stop()
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		done <- s.app.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true})
	}()
	return done, nil
}

// drain reports not ready from now on and keeps serving for d, so load balancers stop sending
// before the listener closes; it returns early when ctx ends (a second signal).
func (s *server) drain(ctx context.Context, d time.Duration) {
	s.draining.Store(true)
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// shutdown stops intake: push streams close first (they would otherwise hold the server open),
// then in-flight requests get until the timeout to finish.
func (s *server) shutdown(timeout time.Duration) error {
	defer s.hooks.Stop() // after the requests waiting for answers
	s.hub.Stop()
	err := s.app.ShutdownWithTimeout(timeout)
	s.background.Wait()
	return err
}
