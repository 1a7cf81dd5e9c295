// Package connpool keeps the connections (or connection pools) that integration nodes open to
// databases and brokers, one per credential and settings, shared by every run of the process:
// a workflow that queries Postgres once per item reuses one pool instead of dialing each time.
// An entry nobody used for the idle time is closed, and the cache holds at most a fixed number of
// entries (the least recently used goes first), so credentials that change or stop being used
// do not keep sockets open. An entry is closed only once the last caller holding it released it.
package connpool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Defaults of a Cache made with zero Options.
const (
	DefaultIdle       = 5 * time.Minute
	DefaultMaxEntries = 64
)

// Options bound a cache.
type Options struct {
	// Idle is how long an entry may go unused before it is closed; 0 means DefaultIdle.
	Idle time.Duration
	// MaxEntries is the most entries kept; 0 means DefaultMaxEntries.
	MaxEntries int
}

// Cache holds entries of type T by key. The zero value is not usable; call New.
type Cache[T io.Closer] struct {
	opts    Options
	mu      sync.Mutex
	entries map[string]*entry[T]
	now     func() time.Time
}

type entry[T io.Closer] struct {
	value    T
	lastUsed time.Time
	// refs counts the callers holding the entry; gone is set once the cache let go of it, and
	// the entry closes when both say so.
	refs int
	gone bool
	// ready is closed once the entry's open has returned; err is its error.
	ready chan struct{}
	err   error
}

// New returns an empty cache.
func New[T io.Closer](o Options) *Cache[T] {
	if o.Idle <= 0 {
		o.Idle = DefaultIdle
	}
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultMaxEntries
	}
	return &Cache[T]{opts: o, entries: map[string]*entry[T]{}, now: time.Now}
}

// Key is a stable key for settings (a credential's data and the node's connection options): a
// hash, so no secret is kept as a map key or shows in a dump.
func Key(settings any) string {
	b, _ := json.Marshal(settings)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Get returns the entry for key, opening it with open when there is none (or the last open
// failed), and a release the caller calls once done with it. Concurrent callers of one key share
// a single open. Entries idle past the idle time are let go of on the way.
func (c *Cache[T]) Get(key string, open func() (T, error)) (T, func(), error) {
	c.mu.Lock()
	c.evictLocked()
	e, ok := c.entries[key]
	if !ok {
		e = &entry[T]{ready: make(chan struct{})}
		c.entries[key] = e
	}
	e.lastUsed = c.now()
	e.refs++
	c.mu.Unlock()
	if !ok {
		e.value, e.err = open()
		close(e.ready)
	}
	<-e.ready
	if e.err != nil {
		c.mu.Lock()
		e.refs--
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		c.mu.Unlock()
		var zero T
		return zero, nil, e.err
	}
	var once sync.Once
	return e.value, func() { once.Do(func() { c.release(e) }) }, nil
}

// release is a caller's end of use of e; e closes if the cache let go of it meanwhile.
func (c *Cache[T]) release(e *entry[T]) {
	c.mu.Lock()
	e.refs--
	closing := e.gone && e.refs == 0
	c.mu.Unlock()
	if closing {
		_ = e.value.Close()
	}
}

// letGoLocked removes e from the cache; it closes now if nobody holds it, else at its last
// release.
func (c *Cache[T]) letGoLocked(key string, e *entry[T]) {
	delete(c.entries, key)
	e.gone = true
	if e.refs == 0 {
		go closeWhenReady(e)
	}
}

// Drop forgets the entry for key, for a caller that found it broken: the next Get opens a new
// one, and this one closes once released.
func (c *Cache[T]) Drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.letGoLocked(key, e)
	}
}

// Close lets go of every entry (each closes once released).
func (c *Cache[T]) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, e := range c.entries {
		c.letGoLocked(k, e)
	}
}

// Len is the number of entries held.
func (c *Cache[T]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// evictLocked closes entries idle past the idle time, then the least recently used ones while
// the cache is full.
func (c *Cache[T]) evictLocked() {
	now := c.now()
	for k, e := range c.entries {
		if e.refs == 0 && now.Sub(e.lastUsed) > c.opts.Idle {
			c.letGoLocked(k, e)
		}
	}
	for len(c.entries) >= c.opts.MaxEntries {
		oldest := ""
		for k, e := range c.entries {
			if oldest == "" || e.lastUsed.Before(c.entries[oldest].lastUsed) {
				oldest = k
			}
		}
		c.letGoLocked(oldest, c.entries[oldest])
	}
}

func closeWhenReady[T io.Closer](e *entry[T]) {
	<-e.ready
	if e.err == nil {
		_ = e.value.Close()
	}
}
