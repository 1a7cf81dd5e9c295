package datetime

import (
	"context"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/timezone"
)

// timezones answers getTimezones: every zone name, legacy aliases included (moment-timezone's
// tz.names()).
func timezones(context.Context, nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	names := timezone.Names()
	out := make([]nodes.OptionValue, len(names))
	for i, n := range names {
		out[i] = nodes.OptionValue{Name: n, Value: n}
	}
	return out, nil
}
