package execution

import (
	"crypto/sha256"
	"sync"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// snapshotCacheSize bounds how many parsed workflow snapshots a worker keeps.
const snapshotCacheSize = 256

// snapshots caches parsed workflow snapshots by content: a workflow triggered over and over
// stores the same snapshot with every execution, and parsing it again each time is a good part
// of a short run's cost. Parsed workflows are only read by the engine, never changed. Each
// cached workflow has its engine.ParamCache, so its node parameters are resolved once too.
type snapshots struct {
	mu     sync.Mutex
	byKey  map[[32]byte]*workflow.Workflow
	params map[*workflow.Workflow]*engine.ParamCache
	order  [][32]byte
}

// paramsOf is the parameter cache of wf, a workflow parse returned; nil once wf left the cache.
func (c *snapshots) paramsOf(wf *workflow.Workflow) *engine.ParamCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.params[wf]
}

func (c *snapshots) parse(doc []byte) (*workflow.Workflow, error) {
	key := sha256.Sum256(doc)
	c.mu.Lock()
	wf, ok := c.byKey[key]
	c.mu.Unlock()
	if ok {
		return wf, nil
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[[32]byte]*workflow.Workflow{}
		c.params = map[*workflow.Workflow]*engine.ParamCache{}
	}
	if _, ok := c.byKey[key]; !ok {
		if len(c.order) >= snapshotCacheSize {
			delete(c.params, c.byKey[c.order[0]])
			delete(c.byKey, c.order[0])
			c.order = c.order[1:]
		}
		c.byKey[key] = wf
		c.params[wf] = engine.NewParamCache(wf)
		c.order = append(c.order, key)
	}
	return wf, nil
}
