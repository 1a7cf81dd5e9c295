// Package expr evaluates n8n-style expressions and runs sandboxed JavaScript for the Code,
// Function and Function Item nodes, on goja.
//
// A parameter value is an expression when it is a string starting with "=". The rest is a
// template whose {{ }} segments are JavaScript evaluated with the n8n globals ($json, $node,
// $items(), $(), $now, DateTime, …) bound to a Context. Sandboxes have no require, process,
// timers, network or file access: goja provides none, and nothing here adds them.
//
// Runtimes are expensive to prepare (Luxon is loaded into each), so an Evaluator keeps a pool
// of them and a cache of compiled templates; one Evaluator serves the whole process.
package expr

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Options configure an Evaluator. Zero values take defaults.
type Options struct {
	// Timeout limits one Evaluate call (all segments of one template); default 1s. An endless
	// loop is interrupted when it passes.
	Timeout time.Duration
	// PoolSize is the most idle prepared runtimes kept; default runtime.GOMAXPROCS(0)*2.
	// More runtimes are created when needed and dropped when the pool is full.
	PoolSize int
	// DefaultTimezone is the IANA zone of $now and $today, and Luxon's default zone, when the
	// Context names none; default "America/New_York" (n8n's default).
	DefaultTimezone string
	// CacheSize is how many compiled templates and scripts are kept; default 4096.
	CacheSize int
	// LenientErrors makes a JavaScript error inside a {{ }} segment (a TypeError reading a
	// property of undefined, a ReferenceError, a node that has not run) give undefined for
	// that segment instead of failing, as n8n did before 1.0 (riot-tmpl's errorHandler kept
	// only errors marked failExecution). Paired-item errors, blocked $env, syntax errors and
	// timeouts still fail. Default false: every error fails. RunScript is not affected.
	LenientErrors bool
	// ScriptTimeout limits one RunScript call; default 0, no limit besides its context (n8n
	// puts none on Code nodes; the execution timeout cancels the context). A script stopped
	// by it fails with "Script ran longer than 60s".
	ScriptTimeout time.Duration
	// MemoryLimit is the memory budget, in bytes, of one Evaluate or RunScript call; default
	// DefaultMemoryLimit (256 MiB); negative means none. A built-in that would allocate more
	// in one call (Array(n), fill, repeat, typed arrays, …) is refused before it runs, and a
	// watchdog stops a run while the process's live heap has grown by more than the budget
	// since it began. Either fails with "Script used more than 256 MiB of memory" (or
	// "Expression …"), matching ErrMemory, and the runtime is discarded.
	MemoryLimit int64
}

// DefaultMemoryLimit is the default of Options.MemoryLimit: 256 MiB.
const DefaultMemoryLimit = 256 << 20

// Evaluator evaluates expressions and runs scripts. It is safe for concurrent use.
type Evaluator struct {
	opts      Options
	pool      chan *vm
	watch     *watchdog // nil without a memory limit
	templates *lru[*compiledTemplate]
	scripts   *lru[compiledScript]
}

// New validates opts and applies defaults. The first runtime (Luxon compiled and run, some
// 2 MB of heap) is made by the first evaluation, not here: a process that evaluates nothing —
// an idle worker, a scaled api no one previews on — never holds one. Luxon failing to load is
// a build error its tests catch (TestLuxon).
func New(opts Options) (*Evaluator, error) {
	opts.Timeout = cmp.Or(opts.Timeout, time.Second)
	opts.PoolSize = cmp.Or(opts.PoolSize, runtime.GOMAXPROCS(0)*2)
	opts.DefaultTimezone = cmp.Or(opts.DefaultTimezone, "America/New_York")
	opts.CacheSize = cmp.Or(opts.CacheSize, 4096)
	opts.MemoryLimit = cmp.Or(opts.MemoryLimit, DefaultMemoryLimit)
	switch {
	case opts.Timeout < 0:
		return nil, fmt.Errorf("expr: Timeout must be positive, got %s", opts.Timeout)
	case opts.PoolSize < 0:
		return nil, fmt.Errorf("expr: PoolSize must be positive, got %d", opts.PoolSize)
	case opts.ScriptTimeout < 0:
		return nil, fmt.Errorf("expr: ScriptTimeout must not be negative, got %s", opts.ScriptTimeout)
	case opts.CacheSize < 0:
		return nil, fmt.Errorf("expr: CacheSize must be positive, got %d", opts.CacheSize)
	}
	if _, err := loadLocation(opts.DefaultTimezone); err != nil {
		return nil, fmt.Errorf("expr: DefaultTimezone: %w", err)
	}
	e := &Evaluator{
		opts:      opts,
		pool:      make(chan *vm, opts.PoolSize),
		templates: newLRU[*compiledTemplate](opts.CacheSize),
		scripts:   newLRU[compiledScript](opts.CacheSize),
	}
	if opts.MemoryLimit > 0 {
		e.watch = newWatchdog(uint64(opts.MemoryLimit))
	}
	return e, nil
}

func (e *Evaluator) get() (*vm, error) {
	select {
	case v := <-e.pool:
		return v, nil
	default:
	}
	v, err := e.newVM()
	if err != nil {
		return nil, err
	}
	if e.watch != nil {
		e.watch.add(v)
	}
	return v, nil
}

func (e *Evaluator) put(v *vm) {
	select {
	case e.pool <- v:
	default:
		e.discard(v)
	}
}

// release returns v to the pool, or drops it when it must not be reused (interrupted, or a
// Go panic went through it), so whatever its last run held is freed.
func (e *Evaluator) release(v *vm, reusable bool) {
	if reusable {
		e.put(v)
		return
	}
	e.discard(v)
}

func (e *Evaluator) discard(v *vm) {
	v.timer.Stop()
	v.timed.Store(nil)
	if e.watch != nil {
		e.watch.remove(v)
	}
}

// IsExpression reports whether a parameter value is an expression (a string starting with "=").
func IsExpression(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, "=")
}

// Evaluate evaluates one parameter value. A string beginning with "=" is a template whose
// {{ }} segments are JavaScript; a lone segment (the whole template is one {{ }} with only
// whitespace around it) keeps its JavaScript type, converted to Go as map[string]any, []any,
// string, float64 or int64, bool or nil (Dates and Luxon values become ISO strings); the
// result shares no map or slice with the Context (={{ $json }} is a copy). Mixed
// text gives a string, with objects and arrays written as JSON and null/undefined as "". A
// template without {{ }} is its text. Non-expression values are returned unchanged.
//
// c may be nil, leaving the data globals ($json, $node, …) undefined. Expressions read the
// Context's data in place, without copies (an expression assigning to $json.x changes the
// item, as in n8n); Evaluate may run concurrently on one Context as long as its expressions
// only read. Errors are *Error.
func (e *Evaluator) Evaluate(value any, c *Context) (any, error) {
	s, ok := value.(string)
	if !ok || !strings.HasPrefix(s, "=") {
		return value, nil
	}
	t := e.template(s[1:])
	if t.static {
		return t.text, nil
	}
	v, err := e.get()
	if err != nil {
		return nil, &Error{Message: err.Error(), Expression: s}
	}
	out, err, reusable := v.evaluateTop(t, s, c, e.opts.Timeout)
	e.release(v, reusable)
	return out, err
}

// Resolve returns a deep copy of value in which every expression string, at any depth of
// maps and slices, is replaced by its value. The input is not changed. An error names the
// failing parameter by its path ("options.headers[0].value").
func (e *Evaluator) Resolve(value any, c *Context) (any, error) {
	return e.resolve(value, c, "")
}

func (e *Evaluator) resolve(value any, c *Context, path string) (any, error) {
	switch x := value.(type) {
	case string:
		if !IsExpression(x) {
			return x, nil
		}
		out, err := e.Evaluate(x, c)
		if err != nil {
			var ee *Error
			if errors.As(err, &ee) && ee.Parameter == "" {
				ee.Parameter = path
			}
			return nil, err
		}
		return out, nil
	case map[string]any:
		if x == nil {
			return x, nil
		}
		out := make(map[string]any, len(x))
		for k, el := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			r, err := e.resolve(el, c, p)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		if x == nil {
			return x, nil
		}
		out := make([]any, len(x))
		for i, el := range x {
			r, err := e.resolve(el, c, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	default:
		return value, nil
	}
}

// compiledTemplate is a parsed template with its code segments compiled.
type compiledTemplate struct {
	static bool   // no code: the value is text
	text   string // the value of a static template
	lone   bool
	parts  []compiledPart
}

type compiledPart struct {
	text string
	prg  *goja.Program // nil for text, and for an empty {{ }}
	code bool
	err  error // the compile error of a code segment
}

// template returns src (an expression without its "=") parsed and compiled, from the cache.
func (e *Evaluator) template(src string) *compiledTemplate {
	return e.templates.get(src, compileTemplate)
}

func compileTemplate(src string) *compiledTemplate {
	t := parseTemplate(src)
	ct := &compiledTemplate{lone: t.lone, parts: make([]compiledPart, len(t.segments))}
	static := true
	for i, s := range t.segments {
		if !s.isCode {
			ct.parts[i] = compiledPart{text: s.text}
			continue
		}
		static = false
		p := compiledPart{code: true, text: s.text}
		if strings.TrimSpace(s.text) != "" {
			p.prg, p.err = compileSegment(s.text)
		}
		ct.parts[i] = p
	}
	if static {
		ct.static = true
		for _, p := range ct.parts {
			ct.text += p.text
		}
	}
	return ct
}

// compileSegment compiles the code of one {{ }} as an expression whose value is the
// segment's value. Code that is not an expression (statements such as "const a = 1; a + 1")
// runs through eval inside a function, which yields its completion value and keeps its
// declarations local; that path compiles the code on every run, and n8n does not accept
// such code at all, so it only has to work, not be fast.
func compileSegment(code string) (*goja.Program, error) {
	prg, err := goja.Compile("expression", "("+code+"\n)", false)
	if err == nil {
		return prg, nil
	}
	if _, err2 := goja.Compile("expression", "{"+code+"\n}", false); err2 != nil {
		return nil, err
	}
	quoted, _ := json.Marshal(code)
	return goja.Compile("expression", "(function () { return eval("+string(quoted)+") })()", false)
}
