package nodes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Evaluator evaluates expressions and scripts; *expr.Evaluator implements it.
type Evaluator interface {
	// Evaluate resolves one parameter value ("=…" templates; anything else is returned as is).
	Evaluate(value any, c *expr.Context) (any, error)
	// Resolve is Evaluate applied deep over maps and slices.
	Resolve(value any, c *expr.Context) (any, error)
	// RunScript runs the code of a Code or Function node.
	RunScript(ctx context.Context, code string, c *expr.Context, globals map[string]any,
		onConsole expr.ConsoleFunc) (any, error)
}

// ExecutionConfig is what the engine gives a node run.
type ExecutionConfig struct {
	// Node is the node being run, with its parameters' defaults resolved.
	Node *workflow.Node
	Type *Type
	// Inputs holds the items per input index; a nil input received nothing.
	Inputs [][]workflow.Item
	// MainInput is the input whose items expressions see ($json, $input, item index): 0, or
	// in the v1 execution order the first input with items when input 0 has none.
	MainInput int
	// Mode is the execution mode: manual, trigger, webhook, retry, error or integrated.
	Mode     workflow.Mode
	RunIndex int
	// Evaluator resolves expressions; nil makes any parameter holding an expression fail.
	Evaluator Evaluator
	// Expr is the expression context shared by all items; Items, ItemIndex and NodeParameters
	// are filled in per item.
	Expr expr.Context
	// StaticData is the node's persistent static data; nil gives the node a fresh map.
	StaticData map[string]any
	// GlobalStaticData is the workflow's global static data (n8n's staticData.global), shared
	// by its nodes; nil gives the node a fresh map.
	GlobalStaticData map[string]any
	// Context is the node's context data for this execution (n8n's contextData
	// "node:<name>"), kept in the resumable state; nil gives the node a fresh map.
	Context map[string]any
	// Console receives console output of scripts (push sendConsoleMessage); may be nil.
	Console func(level string, args []any)
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Credentials looks up decrypted credential data; nil makes Execution.Credentials fail with
	// ErrCredentialsNotAvailable.
	Credentials CredentialsFunc
	// Flow is what a node may ask of the engine beyond its inputs (see FlowConfig).
	Flow FlowConfig
	// Host is what the node may reach outside the workflow: files and the network.
	Host Host
}

// Execution is the context of one node run: inputs, parameters evaluated per item, settings,
// static data, console and logging. It is used by one goroutine.
type Execution struct {
	cfg            ExecutionConfig
	hasExpr        map[string]bool
	staticAccessed bool
	// globalBefore is a copy of the global static data taken when the node first asks for it.
	globalBefore   map[string]any
	globalAccessed bool
}

// NewExecution prepares a node run.
func NewExecution(cfg ExecutionConfig) *Execution {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Node.Parameters == nil {
		cfg.Node.Parameters = map[string]any{}
	}
	return &Execution{cfg: cfg, hasExpr: map[string]bool{}}
}

// Node returns the node being run.
func (ex *Execution) Node() *workflow.Node { return ex.cfg.Node }

// TypeVersion returns the node's typeVersion.
func (ex *Execution) TypeVersion() float64 { return ex.cfg.Node.TypeVersion }

// Mode returns the execution mode.
func (ex *Execution) Mode() workflow.Mode { return ex.cfg.Mode }

// RunIndex is how many times this node ran before in this execution.
func (ex *Execution) RunIndex() int { return ex.cfg.RunIndex }

// Logger returns the run's logger.
func (ex *Execution) Logger() *slog.Logger { return ex.cfg.Logger }

// NumInputs returns how many inputs received data (or were expected).
func (ex *Execution) NumInputs() int { return len(ex.cfg.Inputs) }

// InputData returns the items of an input; nil when the input received nothing.
func (ex *Execution) InputData(input int) []workflow.Item {
	if input < 0 || input >= len(ex.cfg.Inputs) {
		return nil
	}
	return ex.cfg.Inputs[input]
}

// ContinueOnFail reports the node's continueOnFail setting: on a per-item error a node should
// output ErrorItem(err, i) instead of failing.
func (ex *Execution) ContinueOnFail() bool { return ex.cfg.Node.ContinueOnFail }

// ExprContext returns the expression context for one item of the main input (input 0 but
// for a node the v1 order runs without data on input 0).
func (ex *Execution) ExprContext(itemIndex int) *expr.Context {
	c := ex.cfg.Expr
	c.NodeName = ex.cfg.Node.Name
	c.NodeType = ex.cfg.Node.Type
	c.NodeParameters = ex.cfg.Node.Parameters
	c.Items = ex.InputData(ex.cfg.MainInput)
	c.ItemIndex = itemIndex
	c.RunIndex = ex.cfg.RunIndex
	return &c
}

// Param returns the parameter at a lodash-style path ("values.string", "options.dotNotation")
// with expressions evaluated for the item; nil when it is not set.
func (ex *Execution) Param(path string, itemIndex int) (any, error) {
	return ex.ParamOr(path, itemIndex, nil)
}

// ParamOr is Param with a fallback for a missing parameter.
func (ex *Execution) ParamOr(path string, itemIndex int, fallback any) (any, error) {
	v, ok := workflow.LookupPath(ex.cfg.Node.Parameters, path)
	if !ok {
		return fallback, nil
	}
	has, seen := ex.hasExpr[path]
	if !seen {
		has = containsExpression(v)
		ex.hasExpr[path] = has
	}
	if !has {
		return v, nil
	}
	if ex.cfg.Evaluator == nil {
		return nil, &Error{Message: "expressions are not available in this process", Parameter: path, ItemIndex: itemIndex}
	}
	out, err := ex.cfg.Evaluator.Resolve(v, ex.ExprContext(itemIndex))
	if err != nil {
		return nil, ex.paramError(err, path, itemIndex)
	}
	return out, nil
}

// ParamString returns a parameter as a string; a number or boolean is formatted.
func (ex *Execution) ParamString(path string, itemIndex int) (string, error) {
	v, err := ex.Param(path, itemIndex)
	if err != nil || v == nil {
		return "", err
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return fmt.Sprint(v), nil
}

// ParamBool returns a boolean parameter; a missing one is false.
func (ex *Execution) ParamBool(path string, itemIndex int) (bool, error) {
	v, err := ex.Param(path, itemIndex)
	if err != nil {
		return false, err
	}
	b, _ := v.(bool)
	return b, nil
}

// ParamFloat returns a number parameter; a missing or non-numeric one is 0.
func (ex *Execution) ParamFloat(path string, itemIndex int) (float64, error) {
	v, err := ex.Param(path, itemIndex)
	if err != nil {
		return 0, err
	}
	f, _ := workflow.Number(v)
	return f, nil
}

// ParamList returns a list of objects, such as the entries of a fixedCollection with multiple
// values; entries that are not objects are skipped.
func (ex *Execution) ParamList(path string, itemIndex int) ([]map[string]any, error) {
	v, err := ex.Param(path, itemIndex)
	if err != nil {
		return nil, err
	}
	list, _ := v.([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		switch m := e.(type) {
		case map[string]any:
			out = append(out, m)
		case *workflow.Object:
			// An expression gave the list: its objects are item data.
			out = append(out, m.ToMap())
		}
	}
	return out, nil
}

// ParamMap returns an object parameter such as a collection; a missing one is an empty map.
func (ex *Execution) ParamMap(path string, itemIndex int) (map[string]any, error) {
	v, err := ex.Param(path, itemIndex)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	switch x := v.(type) {
	case map[string]any:
		m = x
	case *workflow.Object:
		m = x.ToMap()
	}
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// Evaluate evaluates a value (for example one read from an item) as a parameter of this node.
func (ex *Execution) Evaluate(value any, itemIndex int) (any, error) {
	if !containsExpression(value) {
		return value, nil
	}
	if ex.cfg.Evaluator == nil {
		return nil, &Error{Message: "expressions are not available in this process", ItemIndex: itemIndex}
	}
	return ex.cfg.Evaluator.Resolve(value, ex.ExprContext(itemIndex))
}

// EvaluateWith evaluates value for an item with additional globals (see expr.Context.Additional)
// the way n8n's request helpers resolve theirs: a JavaScript error inside {{ }} gives undefined.
func (ex *Execution) EvaluateWith(value any, itemIndex int, additional map[string]any) (any, error) {
	if !containsExpression(value) {
		return value, nil
	}
	if ex.cfg.Evaluator == nil {
		return nil, &Error{Message: "expressions are not available in this process", ItemIndex: itemIndex}
	}
	c := ex.ExprContext(itemIndex)
	c.Additional, c.Lenient = additional, true
	return ex.cfg.Evaluator.Resolve(value, c)
}

// RunScript runs code in the sandbox with the context of one item (itemIndex) and forwards
// console output to the run's console.
func (ex *Execution) RunScript(ctx context.Context, code string, itemIndex int, globals map[string]any) (any, error) {
	if ex.cfg.Evaluator == nil {
		return nil, &Error{Message: "scripts are not available in this process", ItemIndex: itemIndex}
	}
	return ex.cfg.Evaluator.RunScript(ctx, code, ex.ExprContext(itemIndex), globals, ex.console)
}

func (ex *Execution) console(level string, args []any) {
	if ex.cfg.Console != nil {
		ex.cfg.Console(level, args)
	}
}

// Console sends a console message (push sendConsoleMessage in manual runs).
func (ex *Execution) Console(level string, args ...any) { ex.console(level, args) }

// StaticData returns the node's static data, saved with the workflow when the run changes it.
func (ex *Execution) StaticData() map[string]any {
	ex.staticAccessed = true
	if ex.cfg.StaticData == nil {
		ex.cfg.StaticData = map[string]any{}
	}
	return ex.cfg.StaticData
}

// Context returns the node's context data for this execution, such as Split In Batches'
// position; it is saved with the execution state and visible to expressions.
func (ex *Execution) Context() map[string]any {
	if ex.cfg.Context == nil {
		ex.cfg.Context = map[string]any{}
	}
	return ex.cfg.Context
}

// ContextData returns the node's context map, nil when the node never asked for it.
func (ex *Execution) ContextData() map[string]any { return ex.cfg.Context }

// StaticDataUsed reports whether the node asked for its static data, and returns it.
func (ex *Execution) StaticDataUsed() (map[string]any, bool) {
	return ex.cfg.StaticData, ex.staticAccessed
}

// ErrorItem is the item a node outputs for a failed input item when continueOnFail is on.
func (ex *Execution) ErrorItem(err error, itemIndex int) workflow.Item {
	return workflow.Item{
		JSON:       workflow.ObjectOf("error", err.Error()),
		PairedItem: &workflow.PairedItems{{Item: itemIndex}},
	}
}

func (ex *Execution) paramError(err error, path string, itemIndex int) error {
	var ne *Error
	if errors.As(err, &ne) {
		return ne
	}
	var ee *expr.Error
	if errors.As(err, &ee) {
		param := ee.Parameter
		if param == "" {
			param = path
		} else if strings.HasPrefix(param, "[") {
			param = path + param
		} else if !strings.HasPrefix(param, path) {
			param = path + "." + param
		}
		return &Error{Name: "ExpressionError", Message: ee.Message, Description: ee.Description,
			Parameter: param, ItemIndex: itemIndex, Cause: err}
	}
	return &Error{Name: "ExpressionError", Message: err.Error(), Parameter: path, ItemIndex: itemIndex, Cause: err}
}

// containsExpression reports whether a parameter value holds a string starting with "=".
func containsExpression(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.HasPrefix(x, "=")
	case map[string]any:
		for _, e := range x {
			if containsExpression(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if containsExpression(e) {
				return true
			}
		}
	}
	return false
}
