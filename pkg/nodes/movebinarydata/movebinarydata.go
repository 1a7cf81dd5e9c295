// Package movebinarydata is the Move Binary Data node (version 1): it moves data between an
// item's binary properties and its JSON, decoding or encoding text in a chosen character set.
package movebinarydata

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var newItem *workflow.Item
		switch mode {
		case "binaryToJson":
			newItem, err = binaryToJSON(ex, item, i)
		case "jsonToBinary":
			newItem, err = jsonToBinary(ex, item, i)
		default:
			err = nodes.Errorf(i, "The operation %q is not known!", mode)
		}
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		if newItem != nil { // items without the source data are left out, as in n8n
			out = append(out, *newItem)
		}
	}
	return [][]workflow.Item{out}, nil
}

func binaryToJSON(ex *nodes.Execution, item workflow.Item, i int) (*workflow.Item, error) {
	setAll, err := ex.ParamBool("setAllData", i)
	if err != nil {
		return nil, err
	}
	sourceKey, err := ex.ParamString("sourceKey", i)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	bin, ok := item.Binary[sourceKey]
	if !ok {
		return nil, nil
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	encoding := stringOr(options["encoding"], "utf8")
	stripBOM := true
	if b, ok := options["stripBOM"].(bool); ok {
		stripBOM = b
	}
	newItem := &workflow.Item{PairedItem: &workflow.PairedItems{{Item: i}}}
	if setAll {
		text, err := decode(data, encoding, stripBOM)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		v, err := workflow.DecodeJSONValue([]byte(text))
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		newItem.JSON = asObject(v)
	} else {
		newItem.JSON = item.JSON.Clone()
		if newItem.JSON == nil {
			newItem.JSON = workflow.NewObject(0)
		}
		var value any
		if keep, _ := options["keepAsBase64"].(bool); keep {
			value = base64.StdEncoding.EncodeToString(data)
		} else {
			text, err := decode(data, encoding, stripBOM)
			if err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
			value = text
		}
		if parse, _ := options["jsonParse"].(bool); parse {
			v, err := workflow.DecodeJSONValue([]byte(value.(string)))
			if err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
			value = v
		}
		destinationKey, err := ex.ParamString("destinationKey", i)
		if err != nil {
			return nil, err
		}
		workflow.SetPath(newItem.JSON, destinationKey, value)
	}
	newItem.Binary = copyBinary(item.Binary)
	if keep, _ := options["keepSource"].(bool); !keep {
		delete(newItem.Binary, sourceKey)
	}
	return newItem, nil
}

func jsonToBinary(ex *nodes.Execution, item workflow.Item, i int) (*workflow.Item, error) {
	convertAll, err := ex.ParamBool("convertAllData", i)
	if err != nil {
		return nil, err
	}
	destinationKey, err := ex.ParamString("destinationKey", i)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	var value any = item.JSON
	sourceKey := ""
	if !convertAll {
		if sourceKey, err = ex.ParamString("sourceKey", i); err != nil {
			return nil, err
		}
		v, ok := workflow.LookupPath(item.JSON, sourceKey)
		if !ok {
			return nil, nil
		}
		value = v
	}
	mimeType := stringOr(options["mimeType"], "")
	var data []byte
	if isBase64, _ := options["dataIsBase64"].(bool); isBase64 {
		data = decodeBase64(jsv.ToString(value))
	} else {
		text := ""
		raw, _ := options["useRawData"].(bool)
		switch value.(type) {
		case *workflow.Object, map[string]any, []any, nil:
			raw = false // objects are always written as JSON, as n8n does
		}
		if raw {
			text = jsv.ToString(value)
		} else {
			b, err := json.Marshal(value)
			if err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
			text = string(b)
		}
		addBOM, _ := options["addBOM"].(bool)
		data, err = encode(text, stringOr(options["encoding"], "utf8"), addBOM)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
	}
	if mimeType == "" {
		mimeType = "application/json" // version 1's default, whatever the data
	}
	// As n8n's prepareBinaryData: file type, size and extension (from the file name, else
	// from the MIME type) come with the data.
	bin := nodes.NewBinary(data, stringOr(options["fileName"], ""), mimeType)
	newItem := &workflow.Item{Binary: copyBinary(item.Binary), PairedItem: &workflow.PairedItems{{Item: i}}}
	newItem.Binary[destinationKey] = bin
	switch keep, _ := options["keepSource"].(bool); {
	case keep:
		newItem.JSON = item.JSON.Clone()
	case convertAll:
		newItem.JSON = workflow.NewObject(0)
	default:
		newItem.JSON = item.JSON.Clone()
		deletePath(newItem.JSON, sourceKey)
	}
	if newItem.JSON == nil {
		newItem.JSON = workflow.NewObject(0)
	}
	return newItem, nil
}

func copyBinary(in map[string]workflow.BinaryData) map[string]workflow.BinaryData {
	out := make(map[string]workflow.BinaryData, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// deletePath removes the value at a dot-notation path, as lodash's unset does.
func deletePath(obj *workflow.Object, path string) {
	parts := workflow.SplitPath(path)
	var cur any = obj
	for i, p := range parts {
		m, ok := cur.(*workflow.Object)
		if !ok {
			return
		}
		if i == len(parts)-1 {
			m.Delete(p)
			return
		}
		cur = m.Get(p)
	}
}

func stringOr(v any, fallback string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return fallback
}

// asObject keeps parsed JSON objects as they are and puts other values under "data".
func asObject(v any) *workflow.Object {
	if m, ok := workflow.AsObject(v); ok {
		return m
	}
	if v == nil {
		return workflow.NewObject(0)
	}
	return workflow.ObjectOf("data", v)
}

// decodeBase64 reads base64 as Node's Buffer.from(s, "base64") does: characters outside the
// alphabets (standard and URL-safe) are skipped and decoding stops at the first padding.
func decodeBase64(s string) []byte {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b
	}
	clean := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=':
			i = len(s)
		case c == '-':
			clean = append(clean, '+')
		case c == '_':
			clean = append(clean, '/')
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		}
	}
	if len(clean)%4 == 1 { // a lone trailing character carries no whole byte
		clean = clean[:len(clean)-1]
	}
	b, _ := base64.RawStdEncoding.DecodeString(string(clean))
	return b
}
