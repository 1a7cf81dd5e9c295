package workflow

import (
	"fmt"
	"slices"
	"strings"
)

// This file follows n8n's NodeHelpers.getNodeParameters and displayParameter, including their
// resolve order, so stored workflows get exactly the parameter values n8n would give them.

// ResolveParameters returns the node's parameters with every missing one that is displayed set
// to its default, recursing into collections and fixedCollections. Parameters hidden by
// displayOptions are dropped. typeVersion feeds "@version" display rules.
func ResolveParameters(props []Property, values map[string]any, typeVersion float64) (map[string]any, error) {
	return getNodeParameters(props, values, true, false, typeVersion, false, false, nil, "")
}

// StripDefaults is the inverse used when saving: it keeps only displayed parameters whose
// values differ from their defaults.
func StripDefaults(props []Property, values map[string]any, typeVersion float64) (map[string]any, error) {
	return getNodeParameters(props, values, false, false, typeVersion, false, false, nil, "")
}

// DisplayParameter reports whether a parameter is shown given the values at its level and at the
// root of the node's parameters (nil root means the same level).
func DisplayParameter(values map[string]any, p *Property, typeVersion float64, root map[string]any) bool {
	if p.DisplayOptions == nil {
		return true
	}
	if root == nil {
		root = values
	}
	for _, rule := range p.DisplayOptions.Show {
		vals := ruleValues(values, root, rule.Key, typeVersion)
		for _, v := range vals {
			if s, ok := v.(string); ok && strings.HasPrefix(s, "=") {
				// An expression cannot be known before running, so the parameter stays shown.
				return true
			}
		}
		if len(vals) == 0 || !anyIncluded(rule.Values, vals) {
			return false
		}
	}
	for _, rule := range p.DisplayOptions.Hide {
		vals := ruleValues(values, root, rule.Key, typeVersion)
		if len(vals) != 0 && anyIncluded(rule.Values, vals) {
			return false
		}
	}
	return true
}

func ruleValues(values, root map[string]any, key string, version float64) []any {
	var v any
	var ok bool
	switch {
	case strings.HasPrefix(key, "/"):
		v, ok = LookupPath(root, key[1:])
	case key == "@version":
		v, ok = version, true
	default:
		v, ok = LookupPath(values, key)
	}
	if !ok {
		// A missing value is undefined, which JavaScript's includes tells apart from null.
		return []any{Undefined{}}
	}
	if m, isMap := v.(map[string]any); isMap && Truthy(m["__rl"]) {
		v = m["value"]
	}
	if list, isList := v.([]any); isList {
		return list
	}
	return []any{v}
}

func anyIncluded(want, have []any) bool {
	for _, w := range want {
		for _, h := range have {
			if sameValueZero(w, h) {
				return true
			}
		}
	}
	return false
}

func sameValueZero(a, b any) bool {
	if fa, ok := Number(a); ok {
		fb, ok := Number(b)
		return ok && (fa == fb || (fa != fa && fb != fb))
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case Undefined:
		_, ok := b.(Undefined)
		return ok
	}
	return false
}

func parameterDependencies(props []Property) map[string][]string {
	deps := make(map[string][]string, len(props))
	for i := range props {
		p := &props[i]
		if _, ok := deps[p.Name]; !ok {
			deps[p.Name] = []string{}
		}
		if p.DisplayOptions == nil {
			continue
		}
		for _, rules := range []DisplayRules{p.DisplayOptions.Show, p.DisplayOptions.Hide} {
			for _, r := range rules {
				if strings.HasPrefix(r.Key, "@") || slices.Contains(deps[p.Name], r.Key) {
					continue
				}
				deps[p.Name] = append(deps[p.Name], r.Key)
			}
		}
	}
	return deps
}

// resolveOrder mirrors getParameterResolveOrder: a parameter whose dependencies are not resolved
// yet is visited now and queued again, so it may be visited twice.
func resolveOrder(props []Property, deps map[string][]string) ([]int, error) {
	var order []int
	queue := make([]int, len(props))
	for i := range queue {
		queue[i] = i
	}
	var resolved []string
	lastLen, lastReduction, iterations := len(queue), -1, 0
	for len(queue) > 0 {
		iterations++
		idx := queue[0]
		queue = queue[1:]
		p := &props[idx]
		if len(deps[p.Name]) == 0 {
			order = append(order, idx)
			resolved = append(resolved, p.Name)
			continue
		}
		for _, d := range deps[p.Name] {
			if !slices.Contains(resolved, d) && !strings.HasPrefix(d, "/") {
				queue = append(queue, idx)
			}
		}
		order = append(order, idx)
		resolved = append(resolved, p.Name)
		if len(queue) < lastLen {
			lastReduction = iterations
		}
		if iterations > lastReduction+len(props) {
			return nil, fmt.Errorf("could not resolve parameter dependencies of %q", p.Name)
		}
		lastLen = len(queue)
	}
	return order, nil
}

func getNodeParameters(props []Property, nodeValues map[string]any, returnDefaults, returnNoneDisplayed bool,
	version float64, onlySimpleTypes, dataIsResolved bool, root map[string]any, parentType string,
) (map[string]any, error) {
	deps := parameterDependencies(props)
	var names, duplicates []string
	for i := range props {
		if slices.Contains(names, props[i].Name) {
			if !slices.Contains(duplicates, props[i].Name) {
				duplicates = append(duplicates, props[i].Name)
			}
		} else {
			names = append(names, props[i].Name)
		}
	}
	params := map[string]any{}
	full := map[string]any{}
	check := full
	if !dataIsResolved && !returnNoneDisplayed {
		var err error
		check, err = getNodeParameters(props, nodeValues, true, true, version, true, true, root, parentType)
		if err != nil {
			return nil, err
		}
	}
	if root == nil {
		root = check
	}
	order, err := resolveOrder(props, deps)
	if err != nil {
		return nil, err
	}
	for _, idx := range order {
		p := &props[idx]
		v, has := nodeValues[p.Name]
		if !has && (!returnDefaults || parentType == "collection") {
			continue
		}
		if !returnNoneDisplayed && !DisplayParameter(check, p, version, root) {
			continue
		}
		if p.Type != "collection" && p.Type != "fixedCollection" {
			if slices.Contains(duplicates, p.Name) && !DisplayParameter(check, p, version, root) {
				continue
			}
			if returnDefaults {
				switch {
				case p.Type == "boolean" || p.Type == "number" || p.Type == "options":
					if !has {
						v = p.Default
					}
				case p.Type == "resourceLocator" && IsObject(p.Default):
					if !has {
						rl := map[string]any{"__rl": true}
						for k, dv := range p.Default.(map[string]any) {
							rl[k] = DeepCopy(dv)
						}
						v = rl
					}
				default:
					if v == nil {
						v = p.Default
					}
				}
				if v != nil || has {
					params[p.Name] = v
					full[p.Name] = v
				}
			} else if (IsObject(v) && !DeepEqual(v, p.Default)) || (!IsObject(v) && !DeepEqual(v, p.Default)) ||
				(has && parentType == "collection") {
				params[p.Name] = v
				full[p.Name] = v
				continue
			}
		}
		if onlySimpleTypes {
			continue
		}
		switch p.Type {
		case "collection":
			if err := collectionParameter(p, v, has, params, full, returnDefaults, returnNoneDisplayed, version, root); err != nil {
				return nil, err
			}
		case "fixedCollection":
			stop, err := fixedCollectionParameter(p, v, has, params, full, returnDefaults, returnNoneDisplayed, version, root)
			if err != nil {
				return nil, err
			}
			if stop {
				return nodeValues, nil
			}
		}
	}
	return params, nil
}

func collectionParameter(p *Property, v any, has bool, params, full map[string]any,
	returnDefaults, returnNoneDisplayed bool, version float64, root map[string]any,
) error {
	switch {
	case p.MultipleValues():
		if has {
			params[p.Name] = v
		} else if returnDefaults {
			if list, ok := p.Default.([]any); ok {
				params[p.Name] = DeepCopy(list)
			} else {
				params[p.Name] = []any{}
			}
		}
		if pv, ok := params[p.Name]; ok {
			full[p.Name] = pv
		}
	case has:
		sub, _ := v.(map[string]any)
		tmp, err := getNodeParameters(p.Options, sub, returnDefaults, returnNoneDisplayed, version, false, false, root, "collection")
		if err != nil {
			return err
		}
		params[p.Name] = tmp
		full[p.Name] = tmp
	case returnDefaults:
		params[p.Name] = DeepCopy(p.Default)
		full[p.Name] = params[p.Name]
	}
	return nil
}

// fixedCollectionParameter returns stop=true where n8n returns the incoming values unchanged
// (a single-value fixedCollection that is present but empty, when not adding defaults).
func fixedCollectionParameter(p *Property, v any, has bool, params, full map[string]any,
	returnDefaults, returnNoneDisplayed bool, version float64, root map[string]any,
) (bool, error) {
	propertyValues, _ := v.(map[string]any)
	if returnDefaults && !has {
		propertyValues, _ = DeepCopy(p.Default).(map[string]any)
	}
	if !returnDefaults && p.multipleValuesFalse() && propertyValues != nil && len(propertyValues) == 0 {
		return true, nil
	}
	collection := map[string]any{}
	for _, itemName := range sortedKeys(propertyValues) {
		opt := findOption(p.Options, itemName)
		if p.MultipleValues() {
			list := []any{}
			entries, _ := propertyValues[itemName].([]any)
			for _, e := range entries {
				if opt == nil {
					return false, fmt.Errorf("could not find property option %q for %q", itemName, p.Name)
				}
				sub, _ := e.(map[string]any)
				tmp, err := getNodeParameters(opt.Values, sub, returnDefaults, returnNoneDisplayed, version, false, false, root, "fixedCollection")
				if err != nil {
					return false, err
				}
				list = append(list, tmp)
			}
			collection[itemName] = list
			continue
		}
		tmpParams := map[string]any{}
		if opt != nil {
			sub, _ := propertyValues[itemName].(map[string]any)
			tmp, err := getNodeParameters(opt.Values, sub, returnDefaults, returnNoneDisplayed, version, false, false, root, "fixedCollection")
			if err != nil {
				return false, err
			}
			for k, tv := range tmp {
				tmpParams[k] = tv
			}
		}
		if len(tmpParams) != 0 {
			collection[itemName] = tmpParams
		}
	}
	if !returnDefaults && p.multipleValuesFalse() && len(collection) == 0 && len(propertyValues) != 0 {
		empty := map[string]any{}
		for k := range propertyValues {
			empty[k] = map[string]any{}
		}
		params[p.Name] = empty
	}
	if len(collection) != 0 || returnDefaults {
		params[p.Name] = collection
		full[p.Name] = collection
	}
	return false, nil
}

func findOption(opts []Property, name string) *Property {
	for i := range opts {
		if opts[i].Name == name {
			return &opts[i]
		}
	}
	return nil
}
