package webhook

import (
	"strings"

	"github.com/flowmill/flowmill/pkg/trigger"
)

// bestMatch finds the registered dynamic path a request path fits, as n8n does: both start with
// the node's webhookId, and of the paths that fit the one with the most static segments wins.
// It returns the winning pattern and the request's path parameters; ok is false when none fits.
func bestMatch(path string, patterns []string) (pattern string, params map[string]string, ok bool) {
	_, rest, _ := strings.Cut(path, "/")
	request := strings.Split(rest, "/")
	best := -1
	for _, p := range patterns {
		_, tail, _ := strings.Cut(p, "/")
		if got, static, fits := trigger.MatchDynamic(strings.Split(tail, "/"), request); fits && static > best {
			pattern, params, best = p, got, static
		}
	}
	return pattern, params, best >= 0
}
