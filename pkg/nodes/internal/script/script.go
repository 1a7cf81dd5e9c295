// Package script holds what the Code, Function and Function Item nodes share: wrapping the
// user's code as n8n's sandbox runs it, turning returned values back into items, static data
// and the error messages those nodes derive from script errors.
package script

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Undefined is what a wrapped script returns for JavaScript's undefined, which RunScript would
// otherwise give as nil like null; the nodes tell the two apart as n8n does.
const Undefined = "\x00flowmill:undefined\x00"

// Wrap puts code in a function of its own, as n8n's sandbox runs it (`async function()
// {<code>\n}()`): declarations such as `const items = …` then shadow the node's globals instead
// of clashing with them, and the code keeps its line numbers because it starts on the
// wrapper's first line. prelude runs before it on that line (it declares item or items).
// Code that does not mention await runs synchronously, so errors keep their line.
func Wrap(prelude, code string) string {
	ret := "return __r === undefined ? " + strconv.Quote(Undefined) + " : __r;"
	if strings.Contains(code, "await") {
		return prelude + "return (async function () {" + code +
			"\n}).call(this).then(function (__r) { " + ret + " });"
	}
	return prelude + "var __r = (function () {" + code + "\n}).call(this); " + ret
}

// IsObject reports whether v is a plain object (n8n's isObject: not null, not an array).
func IsObject(v any) bool {
	switch v.(type) {
	case map[string]any, *workflow.Object:
		return true
	}
	return false
}

// TypeOf is JavaScript's typeof for a value returned by a script.
func TypeOf(v any) string {
	switch v.(type) {
	case nil, map[string]any, []any, *workflow.Object:
		return "object"
	case string:
		if v == Undefined {
			return "undefined"
		}
		return "string"
	case bool:
		return "boolean"
	}
	return "number"
}

// String is JavaScript's String() for a value returned by a script.
func String(v any) string {
	switch v {
	case Undefined:
		return "undefined"
	case nil:
		return "null"
	}
	switch v.(type) {
	case map[string]any, *workflow.Object:
		return "[object Object]"
	}
	return jsv.ToString(v)
}

// ToItem turns one returned n8n item ({json, binary?, pairedItem?}) into an item. json must
// already be checked to be an object.
func ToItem(m *workflow.Object) (workflow.Item, error) {
	it := workflow.Item{JSON: workflow.NewObject(0)}
	switch j := m.Get("json").(type) {
	case *workflow.Object:
		if j != nil {
			it.JSON = j
		}
	case map[string]any:
		it.JSON = workflow.ObjectFromMap(j)
	}
	if b, ok := workflow.AsObject(m.Get("binary")); ok && b.Len() > 0 {
		bin, err := ToBinary(b.ToMap())
		if err != nil {
			return workflow.Item{}, err
		}
		it.Binary = bin
	}
	if p, ok := m.Lookup("pairedItem"); ok {
		it.PairedItem = toPairedItems(workflow.ToMaps(p))
	}
	return it, nil
}

// ToBinary reads an item's binary properties as a script holds them.
func ToBinary(b map[string]any) (map[string]workflow.BinaryData, error) {
	out := make(map[string]workflow.BinaryData, len(b))
	for key, v := range b {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("binary property %q is not an object", key)
		}
		var d workflow.BinaryData
		for name, field := range map[string]*string{
			"id": &d.ID, "data": &d.Data, "mimeType": &d.MimeType, "fileName": &d.FileName,
			"directory": &d.Directory, "fileExtension": &d.FileExtension, "fileSize": &d.FileSize,
			"fileType": &d.FileType,
		} {
			if x, ok := m[name]; ok && x != nil {
				*field = jsv.ToString(x)
			}
		}
		out[key] = d
	}
	return out, nil
}

// toPairedItems reads a pairedItem as n8n writes it: a number, an object or a list of them.
func toPairedItems(v any) *workflow.PairedItems {
	one := func(x any) (workflow.PairedItem, bool) {
		switch x := x.(type) {
		case map[string]any:
			item, ok := workflow.Number(x["item"])
			if !ok {
				return workflow.PairedItem{}, false
			}
			input, _ := workflow.Number(x["input"])
			return workflow.PairedItem{Item: int(item), Input: int(input)}, true
		default:
			if f, ok := workflow.Number(x); ok {
				return workflow.PairedItem{Item: int(f)}, true
			}
		}
		return workflow.PairedItem{}, false
	}
	var out workflow.PairedItems
	if list, ok := v.([]any); ok {
		for _, x := range list {
			if p, ok := one(x); ok {
				out = append(out, p)
			}
		}
	} else if p, ok := one(v); ok {
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil
	}
	return &out
}

// StaticDataFunc is getWorkflowStaticData(type) of the scripting nodes: "global" gives the
// workflow's static data shared by its nodes, "node" the node's own; the engine saves them with
// the workflow when the run changes them.
func StaticDataFunc(ex *nodes.Execution) expr.ScriptFunc {
	return func(args []any) (any, error) {
		kind := ""
		if len(args) > 0 {
			kind = jsv.ToString(args[0])
		}
		switch kind {
		case "node":
			return ex.StaticData(), nil
		case "global":
			return ex.GlobalStaticData(), nil
		}
		return nil, fmt.Errorf(`The context type "%s" is not know. Only "global" and node" are supported!`, kind)
	}
}

// NodeParameterFunc is getNodeParameter(name, itemIndex, fallback) of the scripting nodes.
func NodeParameterFunc(ex *nodes.Execution) expr.ScriptFunc {
	return func(args []any) (any, error) {
		if len(args) == 0 {
			return nil, errors.New("getNodeParameter needs the name of a parameter")
		}
		index := 0
		if len(args) > 1 {
			if f, ok := workflow.Number(args[1]); ok {
				index = int(f)
			}
		}
		var fallback any
		if len(args) > 2 {
			fallback = args[2]
		}
		v, err := ex.ParamOr(jsv.ToString(args[0]), index, fallback)
		if err != nil {
			return nil, err
		}
		// Parameters are shared with the node; the script gets its own copy.
		return workflow.DeepCopy(v), nil
	}
}

// BinaryToMap gives an item's binary properties the shape scripts see: one object per
// property with its data and metadata.
func BinaryToMap(b map[string]workflow.BinaryData) map[string]any {
	out := make(map[string]any, len(b))
	for key, d := range b {
		e := map[string]any{"data": d.Data, "mimeType": d.MimeType}
		for name, v := range map[string]string{
			"id": d.ID, "fileName": d.FileName, "directory": d.Directory,
			"fileExtension": d.FileExtension, "fileSize": d.FileSize, "fileType": d.FileType,
		} {
			if v != "" {
				e[name] = v
			}
		}
		out[key] = e
	}
	return out
}
