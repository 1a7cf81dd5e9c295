package httprequest

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/httpauth"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
)

// kv is one entry of an ordered parameter list.
type kv struct {
	key string
	val any
}

// kvList keeps parameters in the order they were given, as JavaScript objects do.
type kvList []kv

func (l kvList) get(key string) (any, bool) {
	for _, e := range l {
		if e.key == key {
			return e.val, true
		}
	}
	return nil, false
}

func (l *kvList) set(key string, v any) {
	for i := range *l {
		if (*l)[i].key == key {
			(*l)[i].val = v
			return
		}
	}
	*l = append(*l, kv{key, v})
}

func (l kvList) hasFold(key string) bool {
	for _, e := range l {
		if strings.EqualFold(e.key, key) {
			return true
		}
	}
	return false
}

// toKV lists an object's entries: in order for item data and parsed JSON, with sorted keys
// for a Go map (which has no order).
func toKV(v any) kvList {
	if o, ok := v.(*workflow.Object); ok {
		out := make(kvList, 0, o.Len())
		for k, e := range o.All() {
			out = append(out, kv{k, e})
		}
		return out
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make(kvList, 0, len(keys))
	for _, k := range keys {
		out = append(out, kv{k, m[k]})
	}
	return out
}

// jsString is JavaScript's String(v) for parameter values, with objects as JSON.
func jsString(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []byte:
		return string(x)
	case map[string]any, *workflow.Object, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return jsv.ToString(v)
}

// How lists are written in a query string, as the qs package's arrayFormat.
const (
	arrayIndices  = ""         // a[0]=x&a[1]=y
	arrayBrackets = "brackets" // a[]=x&a[]=y
	arrayRepeat   = "repeat"   // a=x&a=y, as Node's querystring does
)

// stringifyQS encodes parameters as the qs package does: nested keys in brackets and lists as
// format says.
func stringifyQS(l kvList, format string) string {
	var parts []string
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any, *workflow.Object:
			for _, e := range toKV(x) {
				walk(prefix+"["+e.key+"]", e.val)
			}
		case []any:
			for i, e := range x {
				switch format {
				case arrayRepeat:
					walk(prefix, e)
				case arrayBrackets:
					walk(prefix+"[]", e)
				default:
					walk(prefix+"["+strconv.Itoa(i)+"]", e)
				}
			}
		default:
			parts = append(parts, encodeComponent(prefix)+"="+encodeComponent(jsString(v)))
		}
	}
	for _, e := range l {
		walk(e.key, e.val)
	}
	return strings.Join(parts, "&")
}

// encodeComponent percent-encodes all but RFC 3986 unreserved characters.
func encodeComponent(s string) string { return httpauth.EncodeComponent(s) }
