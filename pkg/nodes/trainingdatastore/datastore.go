// Package trainingdatastore is the Customer Datastore (n8n training) node: a fixed list of five
// sample customers for tutorials, answered without any outside service.
package trainingdatastore

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

// people are the sample customers, in n8n's order; country may be null.
func people() []*workflow.Object {
	return []*workflow.Object{
		workflow.ObjectOf("id", "23423532", "name", "Jay Gatsby", "email", "gatsby@west-egg.com", "notes", "Keeps asking about a green light??", "country", "US", "created", "1925-04-10"),
		workflow.ObjectOf("id", "23423533", "name", "José Arcadio Buendía", "email", "jab@macondo.co", "notes", "Lots of people named after him. Very confusing", "country", "CO", "created", "1967-05-05"),
		workflow.ObjectOf("id", "23423534", "name", "Max Sendak", "email", "info@in-and-out-of-weeks.org", "notes", "Keeps rolling his terrible eyes", "country", "US", "created", "1963-04-09"),
		workflow.ObjectOf("id", "23423535", "name", "Zaphod Beeblebrox", "email", "captain@heartofgold.com", "notes", "Felt like I was talking to more than one person", "country", nil, "created", "1979-10-12"),
		workflow.ObjectOf("id", "23423536", "name", "Edmund Pevensie", "email", "edmund@narnia.gov", "notes", "Passionate sailor", "country", "UK", "created", "1950-10-16"),
	}
}

// execute answers once per input item: the first customer, or all (up to limit) customers.
func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	out := []workflow.Item{}
	for i := range ex.InputData(0) {
		var found []*workflow.Object
		switch operation {
		case "getOnePerson":
			found = people()[:1]
		case "getAllPeople":
			all, err := ex.ParamBool("returnAll", i)
			if err != nil {
				return nil, err
			}
			found = people()
			if !all {
				limit, err := ex.ParamFloat("limit", i)
				if err != nil {
					return nil, err
				}
				found = found[:clamp(int(limit), 0, len(found))]
			}
		default:
			return nil, nodes.Errorf(-1, "The operation %q is not known", operation)
		}
		for _, p := range found {
			out = append(out, workflow.Item{JSON: p})
		}
	}
	return [][]workflow.Item{out}, nil
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
