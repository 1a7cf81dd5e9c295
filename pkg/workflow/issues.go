package workflow

import "fmt"

// ParameterIssues lists the problems n8n reports for a node's own parameters: every shown,
// required top-level parameter without a value ("Parameter "X" is required."). values are the
// node's stored parameters; defaults are resolved first, so a parameter whose default fills it
// is fine.
func ParameterIssues(props []Property, values map[string]any, typeVersion float64) ([]string, error) {
	resolved, err := ResolveParameters(props, values, typeVersion)
	if err != nil {
		return nil, err
	}
	var issues []string
	for i := range props {
		p := &props[i]
		if !p.Required || p.Type == "notice" || p.Type == "hidden" || !DisplayParameter(resolved, p, typeVersion, nil) {
			continue
		}
		switch v := resolved[p.Name].(type) {
		case nil:
		case string:
			if v != "" {
				continue
			}
		default:
			continue
		}
		name := p.DisplayName
		if name == "" {
			name = p.Name
		}
		issues = append(issues, fmt.Sprintf("Parameter %q is required.", name))
	}
	return issues, nil
}
