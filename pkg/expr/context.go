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
	Mode      string
	ResumeURL string
}
