package expr

import "github.com/flowmill/flowmill/pkg/workflow"

// Context is everything an expression can see while one node runs for one item.
type Context struct {
	// NodeName and NodeType identify the node being executed.
	NodeName string
	NodeType string
	// NodeParameters are the node's parameters with defaults resolved, for $parameter.
	NodeParameters map[string]any
	// Items is the node's input on main input 0; $json and $binary read Items[ItemIndex].
	Items     []workflow.Item
	ItemIndex int
	RunIndex  int
	// Source says which node output fed each input of this run, as in TaskData.Source; it is
	// where paired-item tracing ($("Node").item) starts.
	Source []*workflow.SourceData
	// RunData is the run data of the execution so far, for $node, $items() and $().
	RunData   workflow.RunData
	Workflow  WorkflowInfo
	Execution ExecutionInfo
	// Timezone is the IANA zone for $now and $today; empty means the instance default.
	Timezone string
	// Env is what $env shows; when EnvBlocked is true, reading $env is an error.
	Env        map[string]string
	EnvBlocked bool

	// Nodes describes the workflow's nodes by name, for $node[name].parameter, $(name).params
	// and to tell a node that does not exist from one that has not run yet. When nil, a node
	// absent from RunData counts as not run yet and other nodes' parameters are undefined.
	Nodes map[string]NodeInfo
	// ParentOutput answers, for an ancestor of the current node, the output index through which
	// the current node is reached (n8n's getNodeConnectionIndexes), and false for a node that is
	// no ancestor; for $node[name].json (which reads that output, for instance the false branch
	// of an IF) and for the "no path back" check of $(name).item. It is a function so that a
	// node run in a long workflow does not pay for a map of all its ancestors. When nil, output
	// 0 is read and nothing is checked.
	ParentOutput func(name string) (output int, ok bool)
	// NodeContext holds each node's context data by node name (n8n's
	// contextData["node:<name>"]), for $node[name].context, $(name).context and
	// $input.context; SplitInBatches keeps noItemsLeft there.
	NodeContext map[string]map[string]any

	// Additional holds globals a node adds for one evaluation (n8n's additionalKeys), by name
	// among AdditionalNames: the HTTP Request node's $response, $request and $pageCount while
	// it paginates; declarative custom nodes' $value, $credentials, $responseItem, $parent and
	// $index. A name not set is undefined.
	Additional map[string]any
	// Lenient makes a JavaScript error inside a {{ }} segment give undefined for this
	// evaluation, as Options.LenientErrors does for all: n8n's request helpers resolve their
	// pagination expressions this way, so $response.body.next is undefined before the first
	// response instead of an error.
	Lenient bool
}

// AdditionalNames are the globals Context.Additional may set.
var AdditionalNames = []string{"$request", "$response", "$pageCount", "$version", "$value", "$credentials", "$responseItem", "$parent", "$index"}

// NodeInfo is what expressions may read about a node other than the current one.
type NodeInfo struct {
	Type string
	// Parameters are the node's parameters, as $node[name].parameter and $(name).params show them.
	Parameters map[string]any
}

// WorkflowInfo is what $workflow shows.
type WorkflowInfo struct {
	ID     string
	Name   string
	Active bool
}

// ExecutionInfo is what $execution shows. Mode is manual, trigger, webhook, retry, error,
// integrated or cli; ResumeURL is the /webhook-waiting URL of this execution.
type ExecutionInfo struct {
	ID        string
	Mode      workflow.Mode
	ResumeURL string
}

// ParentOutputsOf is a Context.ParentOutput that looks names up in a map.
func ParentOutputsOf(m map[string]int) func(string) (int, bool) {
	return func(name string) (int, bool) {
		o, ok := m[name]
		return o, ok
	}
}
