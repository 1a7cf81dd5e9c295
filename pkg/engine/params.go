package engine

import (
	"sync"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// ParamCache keeps the parameters of one parsed workflow's nodes with their defaults filled in
// (workflow.ResolveParameters), for a caller that runs the same parsed workflow over and over
// (a worker's snapshot cache): resolving walks the whole description of the node's type, while
// a run needs only a copy of the result. Each run gets its own deep copy, so what a run does to
// its parameters stays in that run. Safe for concurrent runs.
type ParamCache struct {
	wf     *workflow.Workflow
	mu     sync.Mutex
	byNode map[string]cachedParams
}

type cachedParams struct {
	t      *nodes.Type
	params map[string]any
}

// NewParamCache returns an empty cache for wf, which must not change afterwards. Options with
// it run wf (that very pointer) with cached parameters; any other workflow resolves its own.
func NewParamCache(wf *workflow.Workflow) *ParamCache {
	return &ParamCache{wf: wf, byNode: map[string]cachedParams{}}
}

// resolve returns node n's parameters (n of workflow wf, its type t) with defaults filled in.
func (c *ParamCache) resolve(wf *workflow.Workflow, n *workflow.Node, t *nodes.Type) (map[string]any, error) {
	if c == nil || c.wf != wf {
		return workflow.ResolveParameters(t.Description.Properties, n.Parameters, n.TypeVersion)
	}
	c.mu.Lock()
	p, ok := c.byNode[n.Name]
	c.mu.Unlock()
	if ok && p.t == t {
		return workflow.CopyJSON(p.params), nil
	}
	params, err := workflow.ResolveParameters(t.Description.Properties, n.Parameters, n.TypeVersion)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.byNode[n.Name] = cachedParams{t: t, params: workflow.CopyJSON(params)}
	c.mu.Unlock()
	return params, nil
}
