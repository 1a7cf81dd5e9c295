package set

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/fieldtype"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v3.json
var descriptionV3 []byte

// TypeV3 returns Edit Fields (Set) versions 3 to 3.4: typed fields (manual mapping, "fields"
// before 3.3 and "assignments" from 3.3) or a JSON object (raw mode), with the input fields
// kept, selected, excluded or dropped. Differences between the versions:
//   - 3.0 turns null or undefined into the string "null"/"undefined" for string fields;
//     3.1 refuses them unless type errors are ignored; from 3.2 they are null for every type.
//   - from 3.3 "Include Other Input Fields" (default off) decides whether "include" applies.
//   - before 3.4 binary data is kept only with the "Include Binary File" option; from 3.4 it
//     is kept unless "Strip Binary Data" or no input fields are included.
func TypeV3() nodes.Type {
	t := nodes.Define(descriptionV3, nodes.KindAction, executeV3)
	t.EffectFree = true
	return t
}

const typeErrorHint = "To fix the error try to change the type for the field \"%s\" or activate the option “Ignore Type Conversion Errors” to apply a less strict type validation"

type v3Options struct {
	include                string
	dotNotation            bool
	ignoreConversionErrors bool
	includeBinary          bool
}

func executeV3(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	raw := rawExpressions(ex.Node().Parameters, mode)
	duplicate, err := ex.ParamBool("duplicateItem", 0)
	if err != nil {
		return nil, err
	}
	copies := 1
	if duplicate && ex.Mode() == workflow.ModeManual {
		n, err := ex.ParamFloat("duplicateCount", 0)
		if err != nil {
			return nil, err
		}
		copies += max(int(n), 0)
	}
	out := make([]workflow.Item, 0, len(items)*copies)
	for i, item := range items {
		newItem, err := setItemV3(ex, mode, raw, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			newItem = workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}}
		}
		for range copies {
			out = append(out, newItem)
		}
	}
	return [][]workflow.Item{out}, nil
}

// rawExpressions returns the expressions that Set resolves inside JSON text rather than as
// values: the JSON output in raw mode, the object fields of manual mode before 3.3, keyed by
// field name ("" for the JSON output), without their leading "=".
func rawExpressions(params map[string]any, mode string) map[string]string {
	raw := map[string]string{}
	if mode == "raw" {
		if s, ok := params["jsonOutput"].(string); ok && strings.HasPrefix(s, "=") {
			raw[""] = strings.TrimLeft(s, "=")
		}
		return raw
	}
	list, _ := workflow.LookupPath(params, "fields.values")
	entries, _ := list.([]any)
	for _, e := range entries {
		m, _ := e.(map[string]any)
		s, ok := m["objectValue"].(string)
		if m["type"] == "objectValue" && ok && strings.HasPrefix(s, "=") {
			raw[jsv.ToString(m["name"])] = strings.TrimLeft(s, "=")
		}
	}
	return raw
}

func readOptions(ex *nodes.Execution, i int) (v3Options, error) {
	version := ex.TypeVersion()
	include, err := ex.ParamOr("include", i, "all")
	if err != nil {
		return v3Options{}, err
	}
	o := v3Options{include: jsv.ToString(include)}
	if version >= 3.3 {
		other, err := ex.ParamBool("includeOtherFields", i)
		if err != nil {
			return v3Options{}, err
		}
		if !other {
			o.include = "none"
		}
	}
	opts, err := ex.ParamMap("options", i)
	if err != nil {
		return v3Options{}, err
	}
	o.dotNotation = opts["dotNotation"] != false
	o.ignoreConversionErrors = opts["ignoreConversionErrors"] == true
	if version >= 3.4 {
		o.includeBinary = opts["stripBinary"] != true && o.include != "none"
	} else {
		o.includeBinary = opts["includeBinary"] == true
	}
	return o, nil
}

func setItemV3(ex *nodes.Execution, mode string, raw map[string]string, item workflow.Item, i int) (workflow.Item, error) {
	o, err := readOptions(ex, i)
	if err != nil {
		return workflow.Item{}, err
	}
	var fields []field
	if mode == "raw" {
		fields, err = rawFields(ex, raw, i)
	} else {
		fields, err = manualFields(ex, raw, o, i)
	}
	if err != nil {
		return workflow.Item{}, err
	}
	return composeItem(ex, item, i, fields, o)
}

// field is one output field; fields are written in order.
type field struct {
	name  string
	value any
}

func rawFields(ex *nodes.Execution, raw map[string]string, i int) ([]field, error) {
	var data any
	if text, ok := raw[""]; ok {
		resolved, err := resolveRawData(ex, text, i)
		if err != nil {
			return nil, err
		}
		data = resolved
	} else {
		v, err := ex.Param("jsonOutput", i)
		if err != nil {
			return nil, err
		}
		data = v
	}
	obj, err := parseJSONParameter(data, i, "")
	if err != nil {
		return nil, err
	}
	fields := make([]field, 0, obj.Len())
	for k, v := range obj.All() {
		fields = append(fields, field{k, v})
	}
	return fields, nil
}

func manualFields(ex *nodes.Execution, raw map[string]string, o v3Options, i int) ([]field, error) {
	version := ex.TypeVersion()
	var fields []field
	if version >= 3.3 {
		v, err := ex.Param("assignments", i)
		if err != nil {
			return nil, err
		}
		m, _ := v.(map[string]any)
		list, _ := m["assignments"].([]any)
		for _, a := range list {
			am, _ := a.(map[string]any)
			typ, _ := am["type"].(string)
			if typ == "" {
				typ = "string"
			}
			value, err := validateEntry(jsv.ToString(am["name"]), typ, valueOf(am, "value"), i, o.ignoreConversionErrors, version)
			if err != nil {
				return nil, err
			}
			fields = append(fields, field{jsv.ToString(am["name"]), value})
		}
		return fields, nil
	}
	entries, err := ex.ParamList("fields.values", i)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := jsv.ToString(valueOf(e, "name"))
		typ, _ := e["type"].(string)
		if typ == "" {
			typ = "stringValue"
		}
		value := valueOf(e, typ)
		if text, ok := raw[name]; ok && typ == "objectValue" && value != nil && !jsv.IsUndefined(value) {
			resolved, err := resolveRawData(ex, text, i)
			if err != nil {
				return nil, err
			}
			obj, err := parseJSONParameter(resolved, i, name)
			if err != nil {
				return nil, err
			}
			value = obj
		}
		value, err = validateEntry(name, strings.TrimSuffix(typ, "Value"), value, i, o.ignoreConversionErrors, version)
		if err != nil {
			return nil, err
		}
		// Fields with the same name: the last one wins, in the place of the first.
		replaced := false
		for k := range fields {
			if fields[k].name == name {
				fields[k].value, replaced = value, true
			}
		}
		if !replaced {
			fields = append(fields, field{name, value})
		}
	}
	return fields, nil
}

func valueOf(m map[string]any, key string) any {
	if v, ok := m[key]; ok {
		return v
	}
	return workflow.Undefined{}
}

// validateEntry converts a field's value to its type, as Set 3.x's validateEntry: a value that
// does not convert is an error, or kept as it is when type errors are ignored.
func validateEntry(name, typ string, value any, i int, ignoreErrors bool, version float64) (any, error) {
	missing := value == nil || jsv.IsUndefined(value)
	if version >= 3.2 && missing {
		return nil, nil
	}
	hint := fmt.Sprintf(typeErrorHint, name)
	if typ == "string" {
		switch {
		case version > 3 && missing:
			if ignoreErrors {
				return nil, nil
			}
			return nil, &nodes.Error{Message: fmt.Sprintf("'%s' expects a %s but we got %s [item %d]",
				name, typ, describe(value), i), Description: hint, ItemIndex: i}
		case jsv.TypeOf(value) == "object":
			value = fieldtype.Stringify(value)
		default:
			value = jsv.ToString(value)
		}
	}
	out, err := fieldtype.Validate(name, value, typ, fieldtype.Options{})
	if err != nil {
		if ignoreErrors {
			if jsv.IsUndefined(value) {
				return nil, nil
			}
			return value, nil
		}
		return nil, &nodes.Error{Message: fmt.Sprintf("%s [item %d]", err.Error(), i), Description: hint, ItemIndex: i}
	}
	if out == nil || jsv.IsUndefined(out) {
		return nil, nil
	}
	return out, nil
}

func describe(v any) string {
	if jsv.IsUndefined(v) {
		return "'undefined'"
	}
	return fieldtype.Describe(v)
}

var resolvables = regexp.MustCompile(`\{\{[\s\S]*?\}\}`)

// resolveRawData replaces every {{ … }} in JSON text by its value, objects as JSON.
func resolveRawData(ex *nodes.Execution, text string, i int) (string, error) {
	var firstErr error
	out := resolvables.ReplaceAllStringFunc(text, func(expr string) string {
		if firstErr != nil {
			return expr
		}
		v, err := ex.Evaluate("="+expr, i)
		if err != nil {
			firstErr = err
			return expr
		}
		switch v.(type) {
		case map[string]any, *workflow.Object, []any:
			return fieldtype.Stringify(v)
		}
		return jsv.ToString(v)
	})
	if firstErr != nil {
		var nerr *nodes.Error
		if errors.As(firstErr, &nerr) {
			return "", nerr
		}
		return "", nodes.Errorf(i, "%s", firstErr.Error())
	}
	return out, nil
}

var (
	jsonKey       = regexp.MustCompile(`(['"])?([a-zA-Z0-9_]+)(['"])?:`)
	trailingComma = regexp.MustCompile(`,\s*([\]}])`)
	endCommas     = regexp.MustCompile(`,+$`)
)

// parseJSONParameter reads the JSON output or an object field: an object, or text holding a
// JSON object (single quotes, unquoted keys and trailing commas are repaired).
func parseJSONParameter(data any, i int, entryName string) (*workflow.Object, error) {
	location := "'JSON Output'"
	if entryName != "" {
		location = fmt.Sprintf("entry \"%s\" inside 'Fields to Set'", entryName)
	}
	value := data
	if s, ok := data.(string); ok {
		parsed, err := parseJSON(s)
		if err != nil {
			repaired := strings.ReplaceAll(s, "'", `"`)
			repaired = jsonKey.ReplaceAllString(repaired, `"$2":`)
			repaired = trailingComma.ReplaceAllString(repaired, "$1")
			repaired = endCommas.ReplaceAllString(repaired, "")
			if parsed, err = parseJSON(repaired); err != nil {
				description := s
				if repaired != s {
					description = repaired + ";\n Original input: " + s
				}
				return nil, &nodes.Error{Message: fmt.Sprintf("The %s in item %d contains invalid JSON", location, i),
					Description: description, ItemIndex: i}
			}
		}
		value = parsed
	}
	obj, ok := workflow.AsObject(value)
	if !ok {
		return nil, &nodes.Error{Message: fmt.Sprintf("The %s in item %d does not contain a valid JSON object", location, i), ItemIndex: i}
	}
	return obj, nil
}

func parseJSON(s string) (any, error) {
	v, ok := fieldtype.ParseJSON(s)
	if !ok {
		return nil, errors.New("invalid JSON")
	}
	return v, nil
}

// composeItem builds the output item from the input fields to keep and the new fields.
func composeItem(ex *nodes.Execution, in workflow.Item, i int, fields []field, o v3Options) (workflow.Item, error) {
	out := workflow.Item{JSON: workflow.NewObject(0), PairedItem: &workflow.PairedItems{{Item: i}}}
	if o.includeBinary && in.Binary != nil {
		out.Binary = make(map[string]workflow.BinaryData, len(in.Binary))
		for k, v := range in.Binary {
			out.Binary[k] = v
		}
	}
	h := fieldHelper{dot: o.dotNotation}
	switch o.include {
	case "all":
		out.JSON = in.JSON.Clone()
		if out.JSON == nil {
			out.JSON = workflow.NewObject(0)
		}
	case "selected":
		keys, err := fieldList(ex, "includeFields", i)
		if err != nil {
			return workflow.Item{}, err
		}
		for _, key := range keys {
			v, ok := h.get(in.JSON, key)
			if !ok {
				continue
			}
			target := key
			if o.dotNotation && strings.Contains(key, ".") {
				target = key[strings.LastIndex(key, ".")+1:]
			}
			h.set(out.JSON, target, workflow.DeepCopy(v))
		}
	case "except":
		keys, err := fieldList(ex, "excludeFields", i)
		if err != nil {
			return workflow.Item{}, err
		}
		out.JSON = in.JSON.Clone()
		if out.JSON == nil {
			out.JSON = workflow.NewObject(0)
		}
		for _, key := range keys {
			h.unset(out.JSON, key)
		}
	case "none":
	default:
		return workflow.Item{}, nodes.Errorf(i, "The include option \"%s\" is not known!", o.include)
	}
	for _, f := range fields {
		h.set(out.JSON, f.name, f.value)
	}
	return out, nil
}

func fieldList(ex *nodes.Execution, param string, i int) ([]string, error) {
	s, err := ex.ParamString(param, i)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, k := range strings.Split(s, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, k)
		}
	}
	return keys, nil
}

// fieldHelper reads and writes fields by lodash path with dot notation, by plain key without
// (where ['key'] and ["key"] name the key itself).
type fieldHelper struct{ dot bool }

func (h fieldHelper) get(obj *workflow.Object, key string) (any, bool) {
	if h.dot {
		return workflow.LookupPath(obj, key)
	}
	return obj.Lookup(plainKey(obj, key))
}

func (h fieldHelper) set(obj *workflow.Object, key string, v any) {
	if h.dot {
		workflow.SetPath(obj, key, v)
		return
	}
	obj.Set(plainKey(obj, key), v)
}

func (h fieldHelper) unset(obj *workflow.Object, key string) {
	if h.dot {
		workflow.UnsetPath(obj, key)
		return
	}
	obj.Delete(plainKey(obj, key))
}

func plainKey(obj *workflow.Object, key string) string {
	if obj.Has(key) {
		return key
	}
	if len(key) >= 4 && ((strings.HasPrefix(key, "['") && strings.HasSuffix(key, "']")) ||
		(strings.HasPrefix(key, `["`) && strings.HasSuffix(key, `"]`))) {
		return key[2 : len(key)-2]
	}
	return key
}
