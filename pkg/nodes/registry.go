package nodes

import (
	"context"
	"fmt"
	"slices"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Node executes one node run. It gets the input items per input through ex and returns the
// items per output index; a nil output means "no data on that output", an empty non-nil one
// means "ran and produced nothing there". Returning (nil, nil) ends the branch without a run
// record. Implementations must not modify input items: copy before changing (CopyItem).
type Node interface {
	Execute(ctx context.Context, ex *Execution) ([][]workflow.Item, error)
}

// NodeFunc adapts a function to Node.
type NodeFunc func(ctx context.Context, ex *Execution) ([][]workflow.Item, error)

// Execute calls f.
func (f NodeFunc) Execute(ctx context.Context, ex *Execution) ([][]workflow.Item, error) {
	return f(ctx, ex)
}

// Kind says how the engine runs a node type, as n8n tells execute, trigger, poll and webhook
// node types apart.
type Kind int

const (
	// KindAction nodes run on their input; the engine skips them when input 0 has no items.
	KindAction Kind = iota
	// KindTrigger nodes start workflows. In manual mode the engine calls Execute for the
	// trigger's test output; in other modes the start input passes through.
	KindTrigger
	// KindPoll nodes are polled triggers; they run like KindTrigger.
	KindPoll
	// KindWebhook nodes start workflows from a request; their input (the request) passes through.
	KindWebhook
)

// Type is a registered node type version: its description, how it runs, and its code.
type Type struct {
	Description *Description
	Kind        Kind
	Node        Node
	// LoadOptions are the methods named by typeOptions.loadOptionsMethod in the properties,
	// answered by GET /rest/node-parameter-options; nil when the node has none.
	LoadOptions map[string]LoadOptionsFunc
	// ListSearch are the methods named by a resourceLocator mode's typeOptions.searchListMethod,
	// answered by GET /rest/nodes-list-search; nil when the node has none.
	ListSearch map[string]ListSearchFunc
	// ResourceMapping are the methods named by a resourceMapper's typeOptions
	// resourceMapper.resourceMapperMethod, answered by GET /rest/get-mapping-fields; nil when
	// the node has none.
	ResourceMapping map[string]ResourceMappingFunc
	// IconSVG is the file behind a "file:" icon, served by GET /rest/node-icon/{type}.
	IconSVG []byte
	// EffectFree marks a node whose run only computes items from its input: running it again
	// changes nothing outside the run, so a run no editor follows needs no checkpoint after it.
	// Default false (every node is checkpointed).
	EffectFree bool
	// StartPriority makes a node a starting node of n8n's STARTING_NODE_TYPES: when no trigger
	// starts a full run, the engine starts at the enabled starting node of the lowest priority
	// (1 first), the first in the workflow on a tie. Default 0: not a starting node.
	StartPriority int
	// RequiredInputs is n8n's requiredInputs: in the v1 execution order, a node with several
	// inputs that is still waiting when nothing else is left to run starts with the inputs that
	// got data, when these meet the requirement its parameters give. Nil: any input with data
	// will do.
	RequiredInputs func(params map[string]any) InputRequirement
	// PollEach makes each item a poll node returns start an execution of its own, as n8n's
	// trigger nodes that emit once per event do (Local File Trigger). Default false: one
	// execution with every item of the poll.
	PollEach bool
	// ShapesStartInput makes a trigger run on the input it starts with in every mode, not only
	// by hand: Execute Workflow Trigger trims the caller's items to its input schema.
	ShapesStartInput bool
	// SubWorkflowStart marks the node a sub-workflow run starts at when the workflow has one
	// (n8n's Execute Workflow Trigger).
	SubWorkflowStart bool
	// Listen makes a trigger a long-lived listener (MQTT, Redis, RabbitMQ subscriptions): once
	// its workflow is active, exactly one scheduler across the installation calls it and keeps
	// it running; it blocks while subscribed and calls emit once per message, each call starting
	// one execution. It returns when ctx ends (nil) or the subscription fails (the error, after
	// which it is called again). emit fails when the message could not be stored or the
	// listener lost its lease; a listener that acknowledges messages must not acknowledge then.
	// See Emit for a listener that acknowledges only once the execution is over, and
	// ErrStopping for the cause of ctx's end that allows finishing the work in flight.
	Listen ListenFunc
}

// InputRequirement is what a waiting multi-input node needs before it may run with inputs
// missing: every input listed in Inputs, and at least Count inputs with data (an input counts
// once its parent ran, even with no items). The zero value needs nothing.
type InputRequirement struct {
	Inputs []int
	Count  int
}

// MetBy reports whether the inputs that got data (their indexes) meet the requirement.
func (q InputRequirement) MetBy(withData []int) bool {
	for _, in := range q.Inputs {
		if !slices.Contains(withData, in) {
			return false
		}
	}
	return len(withData) >= q.Count
}

// RestartsWebhook reports whether a webhook of a node description only resumes a waiting
// execution (Wait's restartWebhook) instead of starting one.
func RestartsWebhook(webhook map[string]any) bool {
	restart, _ := webhook["restartWebhook"].(bool)
	return restart
}

// StartsFromWebhook reports whether the node has a webhook that starts executions, as opposed
// to only the resume webhook of a Wait node.
func (d *Description) StartsFromWebhook() bool {
	for _, w := range d.Webhooks {
		if !RestartsWebhook(w) {
			return true
		}
	}
	return false
}

// Define returns the type of a node from its embedded description JSON (parsed with
// MustParseDescription, so a bad file panics at registration and in the node's tests), its kind
// and its execute function. Set LoadOptions or IconSVG on the result where the node has them.
func Define(descriptionJSON []byte, kind Kind, execute NodeFunc) Type {
	return Type{Description: MustParseDescription(descriptionJSON), Kind: kind, Node: execute}
}

// PassThrough is the execute function of nodes that hand their first input on unchanged (No
// Operation, Start, Sticky Note).
func PassThrough(_ context.Context, ex *Execution) ([][]workflow.Item, error) {
	return [][]workflow.Item{ex.InputData(0)}, nil
}

// Registry holds the node types the engine and the editor know. Build it once at start and share
// it; it is not safe to register while other goroutines read.
type Registry struct {
	byName map[string][]*Type
	order  []string
	// disabled maps the types left out by the instance's settings to how to turn them on.
	disabled map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string][]*Type{}} }

// Register adds a node type. Several types may share a name when their versions differ (Merge v1
// and v2); a version registered twice is an error.
func (r *Registry) Register(t Type) error {
	if t.Description == nil || t.Node == nil {
		return fmt.Errorf("nodes: register: description and node are required")
	}
	name := t.Description.Name
	for _, have := range r.byName[name] {
		for _, v := range t.Description.Version {
			if have.Description.Version.Has(v) {
				return fmt.Errorf("nodes: %s version %g is registered twice", name, v)
			}
		}
	}
	if _, ok := r.byName[name]; !ok {
		r.order = append(r.order, name)
	}
	tc := t
	r.byName[name] = append(r.byName[name], &tc)
	return nil
}

// MustRegister is Register for the built-in registration list, where an error is a programming
// error.
func (r *Registry) MustRegister(t Type) {
	if err := r.Register(t); err != nil {
		panic(err)
	}
}

// Get returns the type for a node's type name and typeVersion, when the type lists that version
// (see Lookup); false for an unknown type or version, never another version's code.
func (r *Registry) Get(name string, version float64) (*Type, bool) {
	t, err := r.Lookup(name, version)
	return t, err == nil
}

// Lookup returns the type whose description lists version. A node without a typeVersion (0)
// asks for version 1, as n8n's node types start at 1. The error says why there is none: a
// *DisabledError when the instance left the type out, an *UnknownTypeError for a name nothing
// registered, an *UnknownVersionError naming the versions the type does implement. A newer
// version never falls back to older code: its parameters and results differ.
func (r *Registry) Lookup(name string, version float64) (*Type, error) {
	if version == 0 {
		version = 1
	}
	types := r.byName[name]
	for _, t := range types {
		if t.Description.Version.Has(version) {
			return t, nil
		}
	}
	if err := r.Disabled(name); err != nil {
		return nil, err
	}
	if len(types) == 0 {
		return nil, &UnknownTypeError{Type: name}
	}
	return nil, &UnknownVersionError{Type: name, Version: version, Known: r.Versions(name)}
}

// Versions returns every version registered for a type name, ascending; nil for an unknown name.
func (r *Registry) Versions(name string) []float64 {
	var out []float64
	for _, t := range r.byName[name] {
		out = append(out, t.Description.Version...)
	}
	slices.Sort(out)
	return out
}

// Types returns every registered type version in registration order.
func (r *Registry) Types() []*Type {
	var out []*Type
	for _, name := range r.order {
		out = append(out, r.byName[name]...)
	}
	return out
}

// Latest returns, per node type name, the type holding the highest version.
func (r *Registry) Latest() []*Type {
	out := make([]*Type, 0, len(r.order))
	for _, name := range r.order {
		out = append(out, slices.MaxFunc(r.byName[name], func(a, b *Type) int {
			x, y := a.Description.Version.Latest(), b.Description.Version.Latest()
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}))
	}
	return out
}
