package workflow

import (
	"strconv"
	"strings"
)

// Paths here follow lodash's get/set, which n8n uses for parameter names, dot notation and
// displayOptions: "a.b[0].c", "a['b.c']"; a key that exists as written is used as is.

// SplitPath splits a lodash-style property path into keys.
func SplitPath(path string) []string {
	var keys []string
	if strings.HasPrefix(path, ".") {
		keys = append(keys, "")
	}
	i := 0
	for i < len(path) {
		switch c := path[i]; c {
		case '.':
			// Consecutive dots, or a dot at the end, name the empty key.
			if i+1 == len(path) || path[i+1] == '.' {
				keys = append(keys, "")
			}
			i++
		case '[':
			j := i + 1
			if j < len(path) && (path[j] == '"' || path[j] == '\'') {
				q := path[j]
				var sb strings.Builder
				k := j + 1
				for k < len(path) && path[k] != q {
					if path[k] == '\\' && k+1 < len(path) {
						k++
					}
					sb.WriteByte(path[k])
					k++
				}
				if k+1 < len(path) && path[k+1] == ']' {
					keys = append(keys, sb.String())
					i = k + 2
					continue
				}
			}
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				keys = append(keys, path[i:])
				return keys
			}
			keys = append(keys, path[i+1:i+end])
			i += end + 1
		default:
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' {
				j++
			}
			keys = append(keys, path[i:j])
			i = j
		}
	}
	return keys
}

func isPathKey(obj any, path string) bool {
	if !strings.ContainsAny(path, ".[") {
		return true
	}
	switch m := obj.(type) {
	case map[string]any:
		_, has := m[path]
		return has
	case *Object:
		return m.Has(path)
	}
	return false
}

func castPath(obj any, path string) []string {
	if isPathKey(obj, path) {
		return []string{path}
	}
	return SplitPath(path)
}

// LookupPath returns the value at a lodash-style path and whether it exists.
func LookupPath(obj any, path string) (any, bool) {
	cur := obj
	for _, k := range castPath(obj, path) {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[k]
			if !ok {
				return nil, false
			}
			cur = v
		case *Object:
			v, ok := c.Lookup(k)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, ok := pathIndex(k)
			if !ok || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// SetPath sets the value at a lodash-style path, creating objects, or arrays where the next key
// is an index, as lodash's set does. Keys that cannot be set (a name on an array) are ignored.
// obj is a map[string]any or an *Object; objects created in an *Object are *Object, so a new
// key goes last there, as in JavaScript.
func SetPath(obj any, path string, v any) {
	keys := castPath(obj, path)
	for _, k := range keys {
		if k == "__proto__" || k == "constructor" || k == "prototype" {
			return
		}
	}
	setIn(obj, keys, v)
}

// UnsetPath removes the value at a lodash-style path, as lodash's unset does: a key that exists
// as written is deleted as is; an array element is set to null, as lodash leaves a hole there
// and JSON writes a hole as null. A path that does not lead anywhere changes nothing.
func UnsetPath(obj any, path string) {
	switch m := obj.(type) {
	case map[string]any:
		if _, ok := m[path]; ok {
			delete(m, path)
			return
		}
	case *Object:
		if m.Has(path) {
			m.Delete(path)
			return
		}
	}
	keys := SplitPath(path)
	cur := obj
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				delete(c, k)
				return
			}
			cur = c[k]
		case *Object:
			if last {
				c.Delete(k)
				return
			}
			cur = c.Get(k)
		case []any:
			idx, err := strconv.Atoi(k)
			if err != nil || idx < 0 || idx >= len(c) {
				return
			}
			if last {
				c[idx] = nil
				return
			}
			cur = c[idx]
		default:
			return
		}
	}
}

func setIn(container any, keys []string, v any) any {
	return setInto(container, keys, v, false)
}

// setInto is setIn; ordered says the root is an *Object, so new objects are too.
func setInto(container any, keys []string, v any, ordered bool) any {
	k := keys[0]
	if _, ok := container.(*Object); ok {
		ordered = true
	}
	if len(keys) > 1 {
		child, _ := lookupKey(container, k)
		switch child.(type) {
		case map[string]any, []any, *Object:
		default:
			switch _, isIndex := pathIndex(keys[1]); {
			case isIndex:
				child = []any{}
			case ordered:
				child = NewObject(1)
			default:
				child = map[string]any{}
			}
		}
		v = setInto(child, keys[1:], v, ordered)
	}
	switch c := container.(type) {
	case map[string]any:
		c[k] = v
		return c
	case *Object:
		c.Set(k, v)
		return c
	case []any:
		i, ok := pathIndex(k)
		if !ok {
			return c
		}
		for len(c) <= i {
			c = append(c, nil)
		}
		c[i] = v
		return c
	}
	return container
}

func lookupKey(container any, k string) (any, bool) {
	switch c := container.(type) {
	case map[string]any:
		v, ok := c[k]
		return v, ok
	case *Object:
		return c.Lookup(k)
	case []any:
		if i, ok := pathIndex(k); ok && i < len(c) {
			return c[i], true
		}
	}
	return nil, false
}

// pathIndex reports whether k is a canonical array index ("0", "12"; not "01").
func pathIndex(k string) (int, bool) {
	if k == "" || (len(k) > 1 && k[0] == '0') || len(k) > 15 {
		return 0, false
	}
	for _, c := range k {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	i, err := strconv.Atoi(k)
	return i, err == nil
}
