package filter

import (
	"errors"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

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
	ok, err := Parse(v).WithNodeOptions(options).Execute(i)
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
