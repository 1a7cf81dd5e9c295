package expr

import (
	"github.com/dop251/goja"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// itemToObject gives an item the shape n8n code sees: {json, binary?, pairedItem?}. The json
// object is shared with the item.
func itemToObject(it *workflow.Item) *workflow.Object {
	j := it.JSON
	if j == nil {
		j = workflow.NewObject(0)
	}
	m := workflow.NewObject(3)
	m.Set("json", j)
	if len(it.Binary) > 0 {
		m.Set("binary", binaryToMap(it.Binary, true))
	}
	if it.PairedItem != nil {
		m.Set("pairedItem", pairedItemsToAny(*it.PairedItem))
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
// changes) are kept as JavaScript values. A copying list (script mode) builds each element on
// a copy of its item, so a script reading one item of a long list copies only that item.
type itemList struct {
	vm   *vm
	obj  *goja.Object // the Array itself
	base []workflow.Item
	copy bool
	// Until the array is first written to, the elements read so far are kept in built and
	// vals is nil, so a list costs nothing per item nobody reads; the first write moves them
	// to vals, where nil entries below len(base) are not built yet.
	built map[int]goja.Value
	vals  []goja.Value
}

func (v *vm) newItemList(items []workflow.Item) *itemList {
	l := &itemList{vm: v, base: items}
	l.obj = v.rt.NewDynamicArray(l)
	return l
}

// newCopyingItemList is newItemList whose elements are copies of the items.
func (v *vm) newCopyingItemList(items []workflow.Item) *itemList {
	l := v.newItemList(items)
	l.copy = true
	return l
}

func (l *itemList) Len() int {
	if l.vals == nil {
		return len(l.base)
	}
	return len(l.vals)
}

// build makes the JavaScript value of element idx of base.
func (l *itemList) build(idx int) goja.Value {
	m := itemToObject(&l.base[idx])
	if l.copy {
		m.Set("json", m.Get("json").(*workflow.Object).Clone())
	}
	return l.vm.toJS(m)
}

func (l *itemList) Get(idx int) goja.Value {
	if idx < 0 || idx >= l.Len() {
		return nil
	}
	if l.vals == nil {
		if v, ok := l.built[idx]; ok {
			return v
		}
		v := l.build(idx)
		if l.built == nil {
			l.built = make(map[int]goja.Value)
		}
		l.built[idx] = v
		return v
	}
	if l.vals[idx] == nil && idx < len(l.base) {
		l.vals[idx] = l.build(idx)
	}
	return l.vals[idx]
}

// materialize moves the elements built so far to vals, before the first write.
func (l *itemList) materialize() {
	if l.vals != nil {
		return
	}
	l.vals = make([]goja.Value, len(l.base))
	for i, v := range l.built {
		l.vals[i] = v
	}
	l.built = nil
}

func (l *itemList) Set(idx int, val goja.Value) bool {
	if idx < 0 {
		return false
	}
	l.materialize()
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
	l.materialize()
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
	out := make([]any, l.Len())
	for i := range out {
		var jv goja.Value
		if l.vals != nil {
			jv = l.vals[i]
		} else {
			jv = l.built[i]
		}
		if jv == nil {
			m := itemToObject(&l.base[i])
			if detach || l.copy {
				m = m.Clone()
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
