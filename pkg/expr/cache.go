package expr

import (
	"container/list"
	"sync"
)

// lru is a bounded least-recently-used map, safe for concurrent use. Evaluators keep their
// compiled templates and scripts in one, so a workflow run over many items compiles each
// expression once.
type lru[V any] struct {
	mu    sync.Mutex
	max   int
	order *list.List // front = most recently used; values are *lruEntry[V]
	byKey map[string]*list.Element
}

type lruEntry[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, order: list.New(), byKey: make(map[string]*list.Element)}
}

// get returns the value for key, computing it with make on a miss. make runs outside the
// lock, so two goroutines missing the same key at once may both compute it.
func (c *lru[V]) get(key string, make func(string) V) V {
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		v := el.Value.(*lruEntry[V]).val
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()

	v := make(key)

	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*lruEntry[V]).val
	}
	c.byKey[key] = c.order.PushFront(&lruEntry[V]{key: key, val: v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*lruEntry[V]).key)
	}
	return v
}

func (c *lru[V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
