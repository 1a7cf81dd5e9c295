package execution

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/metrics"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
)

// validRunnerConfig has every dependency set (validation only checks they are there) and the
// required settings.
func validRunnerConfig() RunnerConfig {
	return RunnerConfig{Store: &store.Store{}, Redis: &redis.Client{}, Queue: &queue.Client{}, Publisher: &push.Publisher{},
		Metrics: &metrics.Metrics{}, Nodes: &nodes.Registry{}, Eval: &expr.Evaluator{}, WorkerID: "w1", EncryptionKey: "key"}
}

func TestRunnerConfigDefaults(t *testing.T) {
	c := validRunnerConfig().withDefaults()
	require.NoError(t, c.validate())
	require.Equal(t, 30*time.Second, c.LeaseTTL)
	require.Equal(t, 10, c.Concurrency)
	require.Equal(t, 30*time.Second, c.ShutdownTimeout)
	require.Equal(t, "America/New_York", c.Timezone)
	require.NotNil(t, c.Log)
	unlimited := validRunnerConfig()
	unlimited.ProductionLimit = -1
	require.NoError(t, unlimited.withDefaults().validate())
	kept := RunnerConfig{LeaseTTL: time.Minute, Concurrency: 3, Timezone: "UTC"}.withDefaults()
	require.Equal(t, time.Minute, kept.LeaseTTL)
	require.Equal(t, 3, kept.Concurrency)
	require.Equal(t, "UTC", kept.Timezone)
}

func TestRunnerConfigValidation(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*RunnerConfig)
		want   string
	}{
		{"no store", func(c *RunnerConfig) { c.Store = nil }, "Store, Redis, Queue, Publisher, Metrics, Nodes and Eval are required"},
		{"no evaluator", func(c *RunnerConfig) { c.Eval = nil }, "Store, Redis, Queue, Publisher, Metrics, Nodes and Eval are required"},
		{"no worker id", func(c *RunnerConfig) { c.WorkerID = "" }, "WorkerID is required"},
		{"no key", func(c *RunnerConfig) { c.EncryptionKey = "" }, "EncryptionKey is required"},
		{"negative lease", func(c *RunnerConfig) { c.LeaseTTL = -time.Second }, "must not be negative"},
		{"negative concurrency", func(c *RunnerConfig) { c.Concurrency = -1 }, "Concurrency must not be negative"},
		{"unknown zone", func(c *RunnerConfig) { c.Timezone = "Mars/Olympus" }, "Timezone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := validRunnerConfig()
			tc.change(&c)
			_, err := NewRunner(c)
			require.ErrorContains(t, err, tc.want)
			require.ErrorContains(t, err, "execution runner: ")
		})
	}
}

func TestServiceConfigValidation(t *testing.T) {
	ok := ServiceConfig{Store: &store.Store{}, Queue: &queue.Client{}, Redis: &redis.Client{}}
	_, err := NewService(ok)
	require.NoError(t, err)
	for _, tc := range []struct {
		change func(*ServiceConfig)
		want   string
	}{
		{func(c *ServiceConfig) { c.Store = nil }, "execution service: Store is required"},
		{func(c *ServiceConfig) { c.Queue = nil }, "execution service: Queue is required"},
		{func(c *ServiceConfig) { c.Redis = nil }, "execution service: Redis is required"},
	} {
		c := ok
		tc.change(&c)
		_, err := NewService(c)
		require.EqualError(t, err, tc.want)
	}
}

func TestResumerConfig(t *testing.T) {
	require.Equal(t, time.Second, ResumerConfig{}.withDefaults().Interval)
	_, err := NewResumer(ResumerConfig{Queue: &queue.Client{}})
	require.EqualError(t, err, "wait resumer: Store and Queue are required")
	_, err = NewResumer(ResumerConfig{Store: &store.Store{}, Queue: &queue.Client{}, Interval: -time.Second})
	require.EqualError(t, err, "wait resumer: Interval must not be negative")
	l, err := NewResumer(ResumerConfig{Store: &store.Store{}, Queue: &queue.Client{}})
	require.NoError(t, err)
	require.NotNil(t, l)
}

func TestPrunerConfig(t *testing.T) {
	d := PrunerConfig{}.withDefaults()
	require.Equal(t, 336*time.Hour, d.MaxAge)
	require.Equal(t, time.Minute, d.Interval)
	_, err := NewPruner(PrunerConfig{})
	require.EqualError(t, err, "pruner: Store is required")
	_, err = NewPruner(PrunerConfig{Store: &store.Store{}, MaxAge: -time.Hour})
	require.EqualError(t, err, "pruner: MaxAge and Interval must not be negative")
	_, err = NewPruner(PrunerConfig{Store: &store.Store{}, MaxCount: -1})
	require.EqualError(t, err, "pruner: MaxCount must not be negative")
	l, err := NewPruner(PrunerConfig{Store: &store.Store{}, Enabled: true})
	require.NoError(t, err)
	require.NotNil(t, l)
}
