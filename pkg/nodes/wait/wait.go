// Package wait is the Wait node (version 1): it pauses the execution for a time interval, until
// a date and time, or until its resume webhook is called. Waits shorter than 65 seconds happen
// in-process, as n8n does (its wait tracker only polls the database every 60 seconds); longer
// waits and webhook waits put the execution to wait, to be resumed by the scheduler or by the
// /webhook-waiting call. The node passes its input through.
package wait

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// InProcessLimit is the longest wait done by sleeping in the running process.
const InProcessLimit = 65 * time.Second

// Unlimited is the time a webhook wait without a limit waits until (n8n's WAIT_TIME_UNLIMITED).
var Unlimited = time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Type{
		Description: nodes.MustParseDescription(descriptionJSON),
		Kind:        nodes.KindAction,
		Node:        nodes.NodeFunc(execute),
	}
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	input := ex.InputData(0)
	resume, err := ex.ParamString("resume", 0)
	if err != nil {
		return nil, err
	}
	if resume == "webhook" {
		till, err := webhookLimit(ex)
		if err != nil {
			return nil, err
		}
		if err := ex.PutExecutionToWait(till); err != nil {
			return nil, err
		}
		return [][]workflow.Item{input}, nil
	}

	var till time.Time
	if resume == "timeInterval" {
		d, err := interval(ex, "amount", "unit")
		if err != nil {
			return nil, err
		}
		till = ex.Now().Add(d)
	} else {
		s, err := ex.ParamString("dateTime", 0)
		if err != nil {
			return nil, err
		}
		t, ok := jsv.ParseDate(s)
		if !ok {
			return nil, nodes.Errorf(-1, "Cannot put execution to wait because `dateTime` parameter is not a valid date. Please pick a specific date and time to wait until.")
		}
		till = t
	}

	d := max(till.Sub(ex.Now()), 0)
	if d < InProcessLimit {
		if err := ex.Sleep(ctx, d); err != nil {
			return nil, err
		}
		return [][]workflow.Item{input}, nil
	}
	if err := ex.PutExecutionToWait(till); err != nil {
		return nil, err
	}
	return [][]workflow.Item{input}, nil
}

// webhookLimit is the time a webhook wait ends without a call: unlimited unless limitWaitTime.
func webhookLimit(ex *nodes.Execution) (time.Time, error) {
	limit, err := ex.ParamBool("limitWaitTime", 0)
	if err != nil || !limit {
		return Unlimited, err
	}
	limitType, err := ex.ParamString("limitType", 0)
	if err != nil {
		return time.Time{}, err
	}
	if limitType == "afterTimeInterval" {
		d, err := interval(ex, "resumeAmount", "resumeUnit")
		if err != nil {
			return time.Time{}, err
		}
		return ex.Now().Add(d), nil
	}
	s, err := ex.ParamString("maxDateAndTime", 0)
	if err != nil {
		return time.Time{}, err
	}
	t, ok := jsv.ParseDate(s)
	if !ok {
		return time.Time{}, &nodes.Error{Message: fmt.Sprintf("Invalid max date and time %q", s), ItemIndex: -1, Parameter: "maxDateAndTime"}
	}
	return t, nil
}

// interval reads an amount and its unit (seconds, minutes, hours or days) as a duration.
func interval(ex *nodes.Execution, amountParam, unitParam string) (time.Duration, error) {
	v, err := ex.Param(amountParam, 0)
	if err != nil {
		return 0, err
	}
	amount, ok := jsv.Number(v)
	if !ok {
		amount = jsv.ToNumber(v)
	}
	if amount != amount || amount < 0 {
		return 0, &nodes.Error{Message: "Invalid wait amount. Please enter a number that is 0 or greater.", ItemIndex: -1, Parameter: amountParam}
	}
	unit, err := ex.ParamString(unitParam, 0)
	if err != nil {
		return 0, err
	}
	seconds := amount
	switch unit {
	case "minutes":
		seconds *= 60
	case "hours":
		seconds *= 60 * 60
	case "days":
		seconds *= 60 * 60 * 24
	}
	return time.Duration(seconds * float64(time.Second)), nil
}
