// Package webhook is the webhook runtime: it finds the webhook a call is for (production
// webhooks of active workflows, test webhooks an editor waits on, resume webhooks of waiting
// executions), checks who is calling, starts or resumes the execution and waits for its answer.
// It speaks no HTTP framework: the api turns a request into a Call and the Answer or Error back
// into a response.
package webhook

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
)

// Methods are the methods a webhook may be called with: those a node may register, plus
// OPTIONS for CORS preflight.
var Methods = []string{http.MethodDelete, http.MethodGet, http.MethodHead, http.MethodPatch,
	http.MethodPost, http.MethodPut, http.MethodOptions}

// Config is what the runtime needs.
type Config struct {
	Store      *store.Store
	Redis      redis.UniversalClient
	Queue      *queue.Client
	Publisher  *push.Publisher
	Executions *execution.Service
	Nodes      *nodes.Registry
	Evaluator  *expr.Evaluator
	// Credentials decrypts the credentials webhook authentication checks callers against.
	Credentials *credential.Cipher
	// WebhookURL is the base of webhook URLs (with a trailing slash), for the webhookUrl the
	// Webhook node puts on its item. Default http://localhost:5678/.
	WebhookURL string
	// Log defaults to slog.Default().
	Log *slog.Logger
	// ResponseTimeout bounds how long a caller waits for the workflow's answer (response modes
	// lastNode and responseNode). Default 2m.
	ResponseTimeout time.Duration
	// TestWindow is how long test webhooks wait for their one call. Default 2m.
	TestWindow time.Duration
	// IdempotencyTTL is how long an Idempotency-Key of a production call is remembered: a
	// repeat within it gets the first call's answer instead of running again. Default 24h.
	IdempotencyTTL time.Duration
}

// withDefaults fills in the defaults and checks the rest.
func (c Config) withDefaults() (Config, error) {
	c.Log = cmp.Or(c.Log, slog.Default())
	c.WebhookURL = cmp.Or(c.WebhookURL, "http://localhost:5678/")
	if !strings.HasSuffix(c.WebhookURL, "/") {
		c.WebhookURL += "/"
	}
	c.ResponseTimeout = cmp.Or(c.ResponseTimeout, 2*time.Minute)
	c.TestWindow = cmp.Or(c.TestWindow, 2*time.Minute)
	c.IdempotencyTTL = cmp.Or(c.IdempotencyTTL, 24*time.Hour)
	switch {
	case c.Store == nil, c.Redis == nil, c.Queue == nil, c.Publisher == nil, c.Executions == nil,
		c.Nodes == nil, c.Evaluator == nil, c.Credentials == nil:
		return c, errors.New("webhook: store, Redis, queue, publisher, executions, node registry, evaluator and credentials are required")
	case c.ResponseTimeout < 0, c.TestWindow < 0, c.IdempotencyTTL < 0:
		return c, errors.New("webhook: the response timeout, the test window and the idempotency retention cannot be negative")
	}
	return c, nil
}

// Runtime serves webhook calls. Start begins its background work (the answer subscription and
// the sweep of test windows); Stop ends it.
type Runtime struct {
	cfg        Config
	production *production
	tests      *tests
	answers    *answers
}

// New builds a runtime.
func New(cfg Config) (*Runtime, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	rt := &Runtime{cfg: cfg,
		production: newProduction(cfg.Store, cfg.Nodes, cfg.Evaluator),
		tests: &tests{rdb: cfg.Redis, pub: cfg.Publisher, log: cfg.Log, window: cfg.TestWindow,
			timers: map[string]*time.Timer{}},
	}
	rt.answers = newAnswers(cfg.Redis, cfg.Log, rt.production.forget)
	return rt, nil
}

// Start subscribes to answers and activation notices (returning once the subscription is live)
// and begins the sweep that ends test windows other replicas left behind.
func (rt *Runtime) Start(ctx context.Context) error {
	if err := rt.answers.start(ctx); err != nil {
		return err
	}
	rt.tests.start(ctx)
	return nil
}

// Stop ends the answer subscription and this replica's test windows' timers. Call it after the
// calls waiting for answers are done. Safe to call twice, and before Start.
func (rt *Runtime) Stop() {
	rt.answers.stop()
	rt.tests.stop()
}

// Forget drops what the runtime cached about a workflow whose activation changed here (other
// processes hear of it through the activation notice).
func (rt *Runtime) Forget(workflowID string) { rt.production.forget(workflowID) }

// RunHere lets production webhooks run on the runner of this process (the embedded default,
// where the api holds the worker): their executions skip the queue and their answers skip
// Redis. Everything else about them is as for queued ones: stored first, leased, checkpointed,
// listed and stoppable.
func (rt *Runtime) RunHere(r *execution.Runner) {
	rt.cfg.Executions.RunWebhooksOn(r)
	r.DeliverAnswersHere(rt.answers.deliver)
}
