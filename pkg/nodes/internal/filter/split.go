package filter

import (
	"errors"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Node is how a node's type version sets the type options of its conditions.
type Node struct {
	// LooseParamSince is the first type version whose "Convert types where required"
	// (looseTypeValidation) is a top-level parameter rather than an option.
	LooseParamSince float64
	// Version gives the conditions' version for a type version.
	Version func(typeVersion float64) int
}

// IfFilter is IF 2.x and Filter 2.x: a top-level looseTypeValidation from 2.1, conditions
// version 2 from 2.2 and 3 from 2.3.
var IfFilter = Node{LooseParamSince: 2.1, Version: func(v float64) int {
	switch {
	case v >= 2.3:
		return 3
	case v >= 2.2:
		return 2
	}
	return 1
}}

// Apply sets v's case sensitivity, type validation and version for item i as the node's
// filter type options do: ignoreCase from options, loose validation from options before
// LooseParamSince and from the top-level parameter (off unless set) after.
func (n Node) Apply(ex *nodes.Execution, i int, v Value, options map[string]any) (Value, error) {
	v = v.WithNodeOptions(options)
	typeVersion := ex.TypeVersion()
	if typeVersion >= n.LooseParamSince {
		loose, err := ex.ParamOr("looseTypeValidation", i, false)
		if err != nil {
			return v, err
		}
		v.Strict = loose != true
	}
	v.Version = n.Version(typeVersion)
	return v, nil
}

// Split evaluates the node's "conditions" filter parameter for every input item, as IF 2 and
// Filter 2 do: items that pass go to pass, the others to fail. With Continue On Fail an item
// whose conditions cannot be evaluated goes to fail; otherwise that is the node's error.
func Split(ex *nodes.Execution) (pass, fail []workflow.Item, err error) {
	pass, fail = []workflow.Item{}, []workflow.Item{}
	for i, item := range ex.InputData(0) {
		ok, err := itemPasses(ex, i)
		if err != nil {
			if ex.ContinueOnFail() {
				fail = append(fail, item)
				continue
			}
			return nil, nil, err
		}
		if ok {
			pass = append(pass, item)
		} else {
			fail = append(fail, item)
		}
	}
	return pass, fail, nil
}

func itemPasses(ex *nodes.Execution, i int) (bool, error) {
	v, err := ex.Param("conditions", i)
	if err != nil {
		return false, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return false, err
	}
	value, err := IfFilter.Apply(ex, i, Parse(v), options)
	if err != nil {
		return false, err
	}
	ok, err := value.Execute(i)
	if err != nil {
		return false, NodeError(err, i, "conditions")
	}
	return ok, nil
}

// NodeError is the node error for a condition that cannot be evaluated on item i: a filter
// Error keeps its description and names the parameter.
func NodeError(err error, i int, parameter string) error {
	var fe *Error
	if errors.As(err, &fe) {
		return &nodes.Error{Message: fe.Message, Description: fe.Description, ItemIndex: i, Parameter: parameter}
	}
	return nodes.Errorf(i, "%s", err.Error())
}
