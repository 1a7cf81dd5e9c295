package custom

import (
	"encoding/json"
	"fmt"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// prop is the part of an n8n property the declarative engine reads: its routing, and the
// nested properties or options that carry routing of their own (options and multiOptions
// choices, collection children, fixedCollection groups).
type prop struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Value   any      `json:"value"`
	Routing *routing `json:"routing"`
	Options []prop   `json:"options"`
	Values  []prop   `json:"values"`
}

// routing is n8n's INodePropertyRouting.
type routing struct {
	Request    map[string]any `json:"request"`
	Send       *send          `json:"send"`
	Output     *output        `json:"output"`
	Operations *operations    `json:"operations"`
}

// send is n8n's INodeRequestSend: where the property's value goes.
type send struct {
	Type                  string `json:"type"`
	Property              any    `json:"property"`
	Value                 any    `json:"value"`
	Paginate              any    `json:"paginate"`
	PropertyInDotNotation *bool  `json:"propertyInDotNotation"`
	PreSend               any    `json:"preSend"`
}

// output is n8n's INodeRequestOutput.
type output struct {
	PostReceive []action `json:"postReceive"`
	MaxResults  any      `json:"maxResults"`
}

// action is one postReceive action (IPostReceive*).
type action struct {
	Type       string         `json:"type"`
	Enabled    any            `json:"enabled"`
	Properties map[string]any `json:"properties"`
	// keys are Properties' keys in file order: setKeyValue writes them in that order.
	keys []string
	// value is the value of the parameter whose routing holds the action: $value in it.
	value any
}

func (a *action) UnmarshalJSON(b []byte) error {
	type plain action
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var raw struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(b, &raw); err == nil && len(raw.Properties) > 0 {
		if v, err := workflow.DecodeJSONValue(raw.Properties); err == nil {
			if o, ok := workflow.AsObject(v); ok {
				p.keys = o.Keys()
			}
		}
	}
	*a = action(p)
	return nil
}

// operations is n8n's IN8nRequestOperations: pagination only.
type operations struct {
	Pagination *pagination `json:"pagination"`
}

// pagination is n8n's IN8nRequestOperationPaginationGeneric or …Offset.
type pagination struct {
	Type       string         `json:"type"`
	Properties map[string]any `json:"properties"`
}

// actionTypes are the postReceive actions the engine runs.
var actionTypes = map[string]bool{"rootProperty": true, "set": true, "setKeyValue": true, "filter": true,
	"limit": true, "sort": true, "binaryData": true}

// spec is what a node's description holds for the engine.
type spec struct {
	Properties        []prop          `json:"properties"`
	RequestDefaults   map[string]any  `json:"requestDefaults"`
	RequestOperations *operations     `json:"requestOperations"`
	Credentials       []credentialUse `json:"credentials"`
}

// check refuses what the engine cannot run, naming the property path.
func (s *spec) check() error {
	if err := checkOperations(s.RequestOperations, "requestOperations"); err != nil {
		return err
	}
	return checkProps(s.Properties, "properties")
}

func checkProps(ps []prop, path string) error {
	for _, p := range ps {
		here := fmt.Sprintf("%s.%s", path, p.Name)
		if p.Value != nil {
			here = fmt.Sprintf("%s[%v]", path, p.Value)
		}
		if r := p.Routing; r != nil {
			if r.Send != nil && r.Send.PreSend != nil {
				return fmt.Errorf("%s.routing.send.preSend: not supported (functions cannot be loaded from JSON)", here)
			}
			if r.Send != nil && r.Send.Type != "" && r.Send.Type != "body" && r.Send.Type != "query" {
				return fmt.Errorf("%s.routing.send.type: %q is not body or query", here, r.Send.Type)
			}
			if r.Output != nil {
				for n, a := range r.Output.PostReceive {
					if !actionTypes[a.Type] {
						return fmt.Errorf("%s.routing.output.postReceive[%d].type: %q is not supported (rootProperty, set, setKeyValue, filter, limit, sort, binaryData)", here, n, a.Type)
					}
				}
			}
			if err := checkOperations(r.Operations, here+".routing.operations"); err != nil {
				return err
			}
		}
		if err := checkProps(p.Options, here+".options"); err != nil {
			return err
		}
		if err := checkProps(p.Values, here+".values"); err != nil {
			return err
		}
	}
	return nil
}

func checkOperations(o *operations, path string) error {
	if o == nil || o.Pagination == nil {
		return nil
	}
	switch o.Pagination.Type {
	case "generic", "offset":
		return nil
	}
	return fmt.Errorf("%s.pagination.type: %q is not supported (generic, offset)", path, o.Pagination.Type)
}

// credentialUse is an entry of the description's credentials (INodeCredentialDescription).
type credentialUse struct {
	Name           string `json:"name"`
	Required       bool   `json:"required"`
	DisplayOptions struct {
		Show struct {
			Authentication []any `json:"authentication"`
		} `json:"show"`
	} `json:"displayOptions"`
}
