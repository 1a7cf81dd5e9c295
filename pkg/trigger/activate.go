package trigger

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/recurrence"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// ErrNoTrigger is n8n's refusal to activate a workflow that nothing could start.
var ErrNoTrigger = errors.New("Workflow cannot be activated because it does not contain any nodes which could start the workflow. Only workflows which have trigger or webhook nodes can be activated.")

// NodeIssueError says why a node keeps its workflow from being activated.
type NodeIssueError struct {
	Node  string
	Issue string
}

func (e *NodeIssueError) Error() string { return fmt.Sprintf("Node %q: %s", e.Node, e.Issue) }

// manualOnly are trigger types that only start runs from the editor or a calling workflow.
var manualOnly = map[string]bool{"n8n-nodes-base.manualTrigger": true, "n8n-nodes-base.executeWorkflowTrigger": true}

// IsStarter reports whether a node type starts its workflow once activated: a trigger, poll or
// webhook node (not the manual trigger).
func IsStarter(t *nodes.Type) bool {
	if manualOnly[t.Description.Name] {
		return false
	}
	switch t.Kind {
	case nodes.KindTrigger, nodes.KindPoll:
		return true
	case nodes.KindWebhook:
		return t.Description.StartsFromWebhook()
	}
	return false
}

// Check tells whether wf may be active and returns the production webhooks to register (not the
// Wait nodes' resume webhooks). It refuses a workflow without an enabled starter node
// (ErrNoTrigger), and one whose enabled nodes have issues (*NodeIssueError): an unknown or
// disabled type, a required parameter or credential left empty, schedule rules that cannot be
// read, or two webhooks with the same method and path.
func Check(wf *workflow.Workflow, reg *nodes.Registry, ev *expr.Evaluator) ([]Webhook, error) {
	starters := 0
	for i := range wf.Nodes {
		n := &wf.Nodes[i]
		if n.Disabled {
			continue
		}
		t, err := reg.Lookup(n.Type, n.TypeVersion)
		if err != nil {
			return nil, &NodeIssueError{n.Name, err.Error()}
		}
		if err := parameterIssues(n, t); err != nil {
			return nil, err
		}
		if IsStarter(t) {
			starters++
		}
		if _, err := Rules(n, t); err != nil {
			return nil, &NodeIssueError{n.Name, err.Error()}
		}
	}
	if starters == 0 {
		return nil, ErrNoTrigger
	}
	all, err := Webhooks(wf, reg, ev)
	if err != nil {
		return nil, err
	}
	var out []Webhook
	seen := map[string]string{}
	for _, h := range all {
		if h.Restart {
			continue
		}
		key := h.Method + " " + h.Path
		if other, dup := seen[key]; dup {
			return nil, &NodeIssueError{h.Node, fmt.Sprintf("The webhook %s %q is also used by the node %q", h.Method, h.Path, other)}
		}
		seen[key] = h.Node
		out = append(out, h)
	}
	return out, nil
}

// Rules returns the schedule of a trigger node the scheduler fires: the rules of Cron,
// Interval and Schedule Trigger nodes, and the pollTimes of poll nodes. Other nodes have none.
func Rules(n *workflow.Node, t *nodes.Type) ([]recurrence.Rule, error) {
	switch {
	case t.Kind == nodes.KindPoll:
		return recurrence.PollRules(n)
	case t.Kind == nodes.KindTrigger:
		rules, err := recurrence.FromNode(n)
		if errors.Is(err, recurrence.ErrNotSchedule) {
			return nil, nil
		}
		return rules, err
	}
	return nil, nil
}

// parameterIssues finds required parameters and credentials the node shows but leaves empty,
// as the editor's parameter and credential issues do.
func parameterIssues(n *workflow.Node, t *nodes.Type) error {
	params, err := workflow.ResolveParameters(t.Description.Properties, n.Parameters, n.TypeVersion)
	if err != nil {
		return &NodeIssueError{n.Name, err.Error()}
	}
	for i := range t.Description.Properties {
		p := &t.Description.Properties[i]
		if !p.Required {
			continue
		}
		v, shown := params[p.Name]
		if !shown {
			continue
		}
		if s, ok := v.(string); v == nil || ok && strings.TrimSpace(s) == "" {
			name := p.DisplayName
			if name == "" {
				name = p.Name
			}
			return &NodeIssueError{n.Name, fmt.Sprintf("Parameter %q is required.", name)}
		}
	}
	for _, c := range t.Description.Credentials {
		required, _ := c["required"].(bool)
		name, _ := c["name"].(string)
		if !required || name == "" || n.Credentials[name] != nil {
			continue
		}
		if raw, ok := c["displayOptions"]; ok {
			var p workflow.Property
			if err := remarshal(map[string]any{"name": name, "displayOptions": raw}, &p); err != nil {
				return &NodeIssueError{n.Name, err.Error()}
			}
			if !workflow.DisplayParameter(params, &p, n.TypeVersion, params) {
				continue
			}
		}
		return &NodeIssueError{n.Name, fmt.Sprintf("Credentials for %q are not set.", name)}
	}
	return nil
}

func remarshal(in any, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
