package webhook

import "strings"

// bestMatch finds the registered dynamic path a request path fits, as n8n does: both start with
// the node's webhookId, and of the paths that fit the one with the most static segments wins.
// It returns the winning pattern and the request's path parameters; ok is false when none fits.
// Production and test webhooks both match through it.
func bestMatch(path string, patterns []string) (pattern string, params map[string]string, ok bool) {
	_, rest, _ := strings.Cut(path, "/")
	request := strings.Split(rest, "/")
	best := -1
	for _, p := range patterns {
		_, tail, _ := strings.Cut(p, "/")
		if got, static, fits := matchDynamic(strings.Split(tail, "/"), request); fits && static > best {
			pattern, params, best = p, got, static
		}
	}
	return pattern, params, best >= 0
}

// matchDynamic tells whether a request path (without the webhookId segment) fits a dynamic
// registered path (also without it), and returns its parameters and how many static segments
// matched.
func matchDynamic(registered, request []string) (map[string]string, int, bool) {
	if len(registered) != len(request) {
		return nil, 0, false
	}
	params := map[string]string{}
	static := 0
	for i, seg := range registered {
		if name, ok := strings.CutPrefix(seg, ":"); ok {
			params[name] = request[i]
			continue
		}
		if seg != request[i] {
			return nil, 0, false
		}
		static++
	}
	return params, static, true
}
