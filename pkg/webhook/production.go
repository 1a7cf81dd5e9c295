package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	webhooknode "github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// production finds the webhooks of active workflows, as stored with their activation, keeping
// two caches: the stored rows found for "method path", and each active workflow parsed for its
// webhooks. Both are emptied by activation notices (forget) and expire after cacheAge in case
// a notice was lost.
type production struct {
	store *store.Store
	nodes *nodes.Registry
	ev    *expr.Evaluator

	mu     sync.Mutex
	cache  map[string]cachedWorkflow
	routes map[string]cachedRoute
}

// cachedWorkflow is an active workflow parsed for its webhooks. It keeps what every call would
// otherwise compute again: the snapshot an execution stores and each webhook node's options.
type cachedWorkflow struct {
	wf       *workflow.Workflow
	hooks    []trigger.Webhook
	snapshot []byte
	options  map[string]webhooknode.Options
	loaded   time.Time
}

// cachedRoute is the result of a webhook lookup.
type cachedRoute struct {
	rows   []store.Webhook
	loaded time.Time
}

// routeCacheSize bounds the route cache; past it the cache starts over.
const routeCacheSize = 4096

// cacheAge is how long cached lookups and workflows are trusted without a notice.
const cacheAge = 5 * time.Second

func newProduction(s *store.Store, reg *nodes.Registry, ev *expr.Evaluator) *production {
	return &production{store: s, nodes: reg, ev: ev, cache: map[string]cachedWorkflow{}, routes: map[string]cachedRoute{}}
}

// find returns the active workflow's webhook for a request: the exact path, or the dynamic path
// with the most matching static segments; errNoWebhook when there is none.
func (p *production) find(ctx context.Context, method, path string) (*hit, error) {
	rows, err := p.rows(ctx, method, path)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errNoWebhook
	}
	row, params := rows[0], map[string]string{}
	if row.Path != path {
		patterns := make([]string, len(rows))
		for i, r := range rows {
			patterns[i] = r.Path
		}
		pattern, got, ok := bestMatch(path, patterns)
		if !ok {
			return nil, errNoWebhook
		}
		row, params = rows[slices.Index(patterns, pattern)], got
	}
	cw, err := p.workflow(ctx, row.WorkflowID)
	if err != nil {
		return nil, err
	}
	for _, h := range cw.hooks {
		if h.Node == row.Node && h.Method == row.Method && h.Path == row.Path {
			found := &hit{hook: h, wf: cw.wf, params: params, snapshot: cw.snapshot}
			if opts, ok := cw.options[h.Node]; ok {
				found.options = &opts
			}
			return found, nil
		}
	}
	return nil, errNoWebhook
}

// rows looks up the stored webhooks for a request, from the cache when fresh.
func (p *production) rows(ctx context.Context, method, path string) ([]store.Webhook, error) {
	key := method + " " + path
	p.mu.Lock()
	r, ok := p.routes[key]
	p.mu.Unlock()
	if ok && time.Since(r.loaded) < cacheAge {
		return r.rows, nil
	}
	rows, err := p.store.FindWebhooks(ctx, method, path)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if len(p.routes) >= routeCacheSize {
		clear(p.routes)
	}
	p.routes[key] = cachedRoute{rows: rows, loaded: time.Now()}
	p.mu.Unlock()
	return rows, nil
}

// methods lists the methods registered for a path, for a preflight answer.
func (p *production) methods(ctx context.Context, path string) []string {
	rows, err := p.store.WebhookMethods(ctx, path)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rows {
		if !slices.Contains(out, r.Method) {
			out = append(out, r.Method)
		}
	}
	return out
}

// workflow returns an active workflow parsed with its webhooks, from the cache when fresh.
func (p *production) workflow(ctx context.Context, id string) (cachedWorkflow, error) {
	p.mu.Lock()
	cw, ok := p.cache[id]
	p.mu.Unlock()
	if ok && time.Since(cw.loaded) < cacheAge {
		return cw, nil
	}
	doc, err := p.store.WorkflowDocument(ctx, id)
	if err != nil {
		return cw, err
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return cw, err
	}
	hooks, err := trigger.Webhooks(wf, p.nodes, p.ev)
	if err != nil {
		return cw, err
	}
	snapshot, err := json.Marshal(wf)
	if err != nil {
		return cw, fmt.Errorf("encode workflow snapshot: %w", err)
	}
	options := map[string]webhooknode.Options{}
	for _, h := range hooks {
		if node, ok := wf.Node(h.Node); ok {
			if o, err := nodeOptions(p.nodes, node); err == nil {
				options[h.Node] = o
			}
		}
	}
	cw = cachedWorkflow{wf: wf, hooks: hooks, snapshot: snapshot, options: options, loaded: time.Now()}
	p.mu.Lock()
	p.cache[id] = cw
	p.mu.Unlock()
	return cw, nil
}

// forget drops a workflow from the cache (its activation changed), and every cached route,
// since its webhooks may have moved.
func (p *production) forget(id string) {
	p.mu.Lock()
	delete(p.cache, id)
	clear(p.routes)
	p.mu.Unlock()
}

// nodeOptions reads a webhook node's options, its defaults applied.
func nodeOptions(reg *nodes.Registry, node *workflow.Node) (webhooknode.Options, error) {
	t, err := reg.Lookup(node.Type, node.TypeVersion)
	if err != nil {
		return webhooknode.Options{}, err
	}
	params, err := workflow.ResolveParameters(t.Description.Properties, node.Parameters, node.TypeVersion)
	if err != nil {
		return webhooknode.Options{}, err
	}
	opts, _ := params["options"].(map[string]any)
	o := webhooknode.OptionsFrom(opts)
	o.UnparsedAsBinary = node.Type == webhooknode.TypeName && node.TypeVersion > 1
	return o, nil
}
