package expr

import (
	"fmt"
	"strconv"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// maxTraceSteps bounds paired-item tracing over malformed run data that loops.
const maxTraceSteps = 10000

const (
	msgCantGetData = "Can’t get data for expression"
	msgInvalid     = "Invalid expression"
)

// itemAt locates one item in the run data: output src.PreviousNodeOutput of run
// src.PreviousNodeRun of node src.PreviousNode, position index.
type itemAt struct {
	src   workflow.SourceData
	index int
}

// pairedItem finds the item of node dest that the current node's input item index was
// derived from, following pairedItem links back through the run data ($("Node").item and
// itemMatching(i)). Errors follow n8n's wording.
func (s *scope) pairedItem(dest string, index int) (itemAt, error) {
	c := s.c
	if index < 0 || index >= len(c.Items) {
		return itemAt{}, newDataError("", "No data found for item-index: %q", strconv.Itoa(index))
	}
	in := c.Items[index]
	if in.PairedItem == nil || len(*in.PairedItem) == 0 {
		return itemAt{}, newDataError(
			fmt.Sprintf("To fetch the data from other nodes that this expression needs, more information is needed from the node ‘%s’ (missing pairedItem data)", c.NodeName),
			msgCantGetData)
	}
	if len(c.Source) == 0 {
		return itemAt{}, newDataError("Apologies, this is an internal error: the node's source data is missing", msgCantGetData)
	}
	if c.ParentOutput != nil {
		if _, ok := c.ParentOutput(dest); !ok {
			return itemAt{}, errNoPath(dest)
		}
	}
	pi := (*in.PairedItem)[0]
	if pi.Input < 0 || pi.Input >= len(c.Source) {
		return itemAt{}, newDataError(fmt.Sprintf("Item %d points to input %d of node ‘%s’, which does not exist", index, pi.Input, c.NodeName), msgCantGetData)
	}
	steps := 0
	return s.trace(dest, c.Source[pi.Input], pi, &steps)
}

func errNoPath(dest string) error {
	return newDataError(fmt.Sprintf("The expression uses data in the node ‘%s’ but there is no path back to it. Please check this node is connected to it (there can be other nodes in between).", dest), msgInvalid)
}

// trace walks from output item pi of src back to node dest.
func (s *scope) trace(dest string, src *workflow.SourceData, pi workflow.PairedItem, steps *int) (itemAt, error) {
	for src != nil && src.PreviousNode != dest {
		if *steps++; *steps > maxTraceSteps {
			return itemAt{}, newDataError("The paired item links loop", msgCantGetData)
		}
		items, td, err := s.sourceItems(src)
		if err != nil {
			return itemAt{}, err
		}
		if len(td.Source) == 0 {
			// A trigger was reached without passing dest.
			return itemAt{}, errNoPath(dest)
		}
		if pi.Item < 0 || pi.Item >= len(items) {
			return itemAt{}, errBadPairing(src, pi)
		}
		it := &items[pi.Item]
		if it.PairedItem == nil || len(*it.PairedItem) == 0 {
			return itemAt{}, newDataError(fmt.Sprintf(
				"To fetch the data from other nodes that this expression needs, more information is needed from the node ‘%s’ (missing pairedItem data: the node probably didn’t supply it)",
				src.PreviousNode), msgCantGetData)
		}
		if len(*it.PairedItem) > 1 {
			// The item was derived from several items: it resolves only if they all lead
			// back to one item of dest.
			var found *itemAt
			for _, p := range *it.PairedItem {
				if p.Input < 0 || p.Input >= len(td.Source) {
					continue
				}
				r, err := s.trace(dest, td.Source[p.Input], p, steps)
				if err != nil || (found != nil && *found == r) {
					continue
				}
				if found != nil {
					return itemAt{}, newDataError(fmt.Sprintf("The expression uses data in the node ‘%s’ but there is more than one matching item in that node", dest), msgInvalid)
				}
				found = &r
			}
			if found == nil {
				return itemAt{}, newDataError(fmt.Sprintf("Could not resolve the item of node ‘%s’: no pairedItem leads back to it", dest), msgCantGetData)
			}
			return *found, nil
		}
		pi = (*it.PairedItem)[0]
		if pi.Input < 0 || pi.Input >= len(td.Source) {
			return itemAt{}, newDataError(fmt.Sprintf("In node ‘%s’, an output item points to input %d, which doesn’t exist", src.PreviousNode, pi.Input), msgCantGetData)
		}
		src = td.Source[pi.Input]
	}
	if src == nil {
		return itemAt{}, newDataError("Could not resolve, probably no pairedItem exists", msgCantGetData)
	}
	items, _, err := s.sourceItems(src)
	if err != nil {
		return itemAt{}, err
	}
	if pi.Item < 0 || pi.Item >= len(items) {
		return itemAt{}, errBadPairing(src, pi)
	}
	return itemAt{src: *src, index: pi.Item}, nil
}

// sourceItems returns the output items a SourceData points at, and the run that produced them.
func (s *scope) sourceItems(src *workflow.SourceData) ([]workflow.Item, *workflow.TaskData, error) {
	runs, ok := s.c.RunData[src.PreviousNode]
	if !ok {
		return nil, nil, errUnexecuted(src.PreviousNode)
	}
	if src.PreviousNodeRun < 0 || src.PreviousNodeRun >= len(runs) {
		return nil, nil, newDataError(fmt.Sprintf("Run %d of node ‘%s’ does not exist", src.PreviousNodeRun, src.PreviousNode), msgCantGetData)
	}
	td := &runs[src.PreviousNodeRun]
	if td.Data == nil || src.PreviousNodeOutput < 0 || src.PreviousNodeOutput >= len(td.Data.Main) {
		return nil, nil, newDataError(fmt.Sprintf("Item points to output %d of node ‘%s’, which does not exist", src.PreviousNodeOutput, src.PreviousNode), msgCantGetData)
	}
	return td.Data.Main[src.PreviousNodeOutput], td, nil
}

func errBadPairing(src *workflow.SourceData, pi workflow.PairedItem) error {
	return newDataError(fmt.Sprintf("An item points to input item %d of node ‘%s’ (run %d), which doesn’t exist", pi.Item, src.PreviousNode, src.PreviousNodeRun), msgCantGetData)
}
