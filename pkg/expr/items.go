package expr

import (
	"github.com/dop251/goja"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// itemToMap gives an item the shape n8n code sees: {json, binary?, pairedItem?}. The json map
// is shared with the item.
func itemToMap(it *workflow.Item) map[string]any {
	j := it.JSON
	if j == nil {
		j = map[string]any{}
	}
	m := map[string]any{"json": j}
	if len(it.Binary) > 0 {
		m["binary"] = binaryToMap(it.Binary, true)
	}
	if it.PairedItem != nil {
		m["pairedItem"] = pairedItemsToAny(*it.PairedItem)
	}
	return m
}

// binaryToMap converts binary properties to plain maps. withData=false leaves out the data
// itself, as n8n's $binary and $node[…].binary do.
func binaryToMap(b map[string]workflow.BinaryData, withData bool) map[string]any {
	out := make(map[string]any, len(b))
	for k, d := range b {
		e := map[string]any{"mimeType": d.MimeType}
		if withData {
			e["data"] = d.Data
		}
		for name, val := range map[string]string{
			"id": d.ID, "fileName": d.FileName, "directory": d.Directory,
			"fileExtension": d.FileExtension, "fileSize": d.FileSize, "fileType": d.FileType,
		} {
			if val != "" {
				e[name] = val
			}
		}
		out[k] = e
	}
	return out
}

// pairedItemsToAny writes paired items as n8n serialises them: one object, or a list.
func pairedItemsToAny(p workflow.PairedItems) any {
	one := func(pi workflow.PairedItem) map[string]any {
		m := map[string]any{"item": int64(pi.Item)}
		if pi.Input != 0 {
			m["input"] = int64(pi.Input)
		}
		return m
	}
	if len(p) == 1 {
		return one(p[0])
	}
	out := make([]any, len(p))
	for i, pi := range p {
		out[i] = one(pi)
	}
	return out
}

// itemList shows a []workflow.Item to JavaScript as an Array whose elements are built only
// when read, so $input.all().length or $items("X")[3] cost nothing per untouched item. An
// element, once built, stays the same object. Writes (items[0] = {...}, push, length
// changes) are kept as JavaScript values.
type itemList struct {
	vm   *vm
	obj  *goja.Object // the Array itself
	base []workflow.Item
	vals []goja.Value // nil entries below len(base) are not built yet
}

func (v *vm) newItemList(items []workflow.Item) *itemList {
	l := &itemList{vm: v, base: items, vals: make([]goja.Value, len(items))}
	l.obj = v.rt.NewDynamicArray(l)
	return l
}

func (l *itemList) Len() int { return len(l.vals) }

func (l *itemList) Get(idx int) goja.Value {
	if idx < 0 || idx >= len(l.vals) {
		return nil
	}
	if l.vals[idx] == nil && idx < len(l.base) {
		l.vals[idx] = l.vm.toJS(itemToMap(&l.base[idx]))
	}
	return l.vals[idx]
}

func (l *itemList) Set(idx int, val goja.Value) bool {
	if idx < 0 {
		return false
	}
	if idx >= len(l.vals) {
		l.SetLen(idx + 1)
	}
	l.vals[idx] = val
	return true
}

func (l *itemList) SetLen(n int) bool {
	if n < 0 {
		return false
	}
	if n <= len(l.vals) {
		l.vals = l.vals[:n]
		if n < len(l.base) {
			l.base = l.base[:n]
		}
		return true
	}
	for len(l.vals) < n {
		l.vals = append(l.vals, goja.Undefined())
	}
	return true
}

func (l *itemList) export(depth int, detach bool) ([]any, error) {
	out := make([]any, len(l.vals))
	for i, jv := range l.vals {
		if jv == nil {
			m := itemToMap(&l.base[i])
			if detach {
				m = workflow.CopyJSON(m)
			}
			out[i] = m
			continue
		}
		e, err := l.vm.exportDepth(jv, depth+1, detach)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// field reads one property of element idx, such as its "json"; undefined when idx is out of range.
func (l *itemList) field(idx int, name string) goja.Value {
	el := l.Get(idx)
	if el == nil {
		return goja.Undefined()
	}
	obj, ok := el.(*goja.Object)
	if !ok {
		return goja.Undefined()
	}
	return obj.Get(name)
}

// copyItems copies items deeply enough that changing the copies' json and binary leaves the
// originals as they were.
func copyItems(items []workflow.Item) []workflow.Item {
	out := make([]workflow.Item, len(items))
	for i, it := range items {
		out[i] = workflow.Item{JSON: workflow.CopyJSON(it.JSON), PairedItem: it.PairedItem, Error: it.Error}
		if it.Binary != nil {
			out[i].Binary = make(map[string]workflow.BinaryData, len(it.Binary))
			for k, b := range it.Binary {
				out[i].Binary[k] = b
			}
		}
	}
	return out
}
