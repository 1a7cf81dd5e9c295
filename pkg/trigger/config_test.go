package trigger

import (
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
)

func TestFirerConfig(t *testing.T) {
	ok := FirerConfig{Store: &store.Store{}, Redis: &redis.Client{}, Queue: &queue.Client{}, Nodes: &nodes.Registry{}, Eval: &expr.Evaluator{}}
	d := ok.withDefaults()
	require.Equal(t, "America/New_York", d.Timezone)
	require.NotNil(t, d.Log)
	f, err := NewFirer(ok)
	require.NoError(t, err)
	require.NotNil(t, f)

	missing := ok
	missing.Nodes = nil
	_, err = NewFirer(missing)
	require.EqualError(t, err, "trigger firer: Store, Redis, Queue, Nodes and Eval are required")

	zone := ok
	zone.Timezone = "Mars/Olympus"
	_, err = NewFirer(zone)
	require.ErrorContains(t, err, "trigger firer: Timezone: ")
}
