package jsv

import "github.com/flowmill/flowmill/pkg/workflow"

// Undefined, Number and Truthy live in pkg/workflow, where displayOptions rules need them too.
// These names remain only for pkg/nodes/wait, which still calls them; new code calls workflow.

// Undefined is workflow.Undefined.
//
// Deprecated: use workflow.Undefined.
type Undefined = workflow.Undefined

// Number is workflow.Number.
//
// Deprecated: use workflow.Number.
func Number(v any) (float64, bool) { return workflow.Number(v) }

// Truthy is workflow.Truthy.
//
// Deprecated: use workflow.Truthy.
func Truthy(v any) bool { return workflow.Truthy(v) }
