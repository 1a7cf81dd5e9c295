package wait_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/wait"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// recorder is an injected clock and sleep that never really waits.
type recorder struct {
	now    time.Time
	slept  []time.Duration
	waited []time.Time
}

func (r *recorder) flow() nodes.FlowConfig {
	return nodes.FlowConfig{
		Now: func() time.Time { return r.now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			r.slept = append(r.slept, d)
			return ctx.Err()
		},
		PutToWait: func(t time.Time) { r.waited = append(r.waited, t) },
	}
}

func TestWait(t *testing.T) {
	t.Parallel()
	now := time.Date(2023, 1, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		params m
		slept  []time.Duration
		waited []time.Time
		err    string
	}{
		{"default waits one hour, persisted", m{}, nil, []time.Time{now.Add(time.Hour)}, ""},
		{"1.1 defaults to five seconds", m{"@1.1": true}, []time.Duration{5 * time.Second}, nil, ""},
		{"1.1 with a unit", m{"@1.1": true, "amount": 2.0, "unit": "minutes"}, nil, []time.Time{now.Add(2 * time.Minute)}, ""},
		{"short interval sleeps in-process", m{"amount": 42.0, "unit": "seconds"}, []time.Duration{42 * time.Second}, nil, ""},
		{"fractional minutes", m{"amount": 0.5, "unit": "minutes"}, []time.Duration{30 * time.Second}, nil, ""},
		{"65 seconds is persisted", m{"amount": 65.0, "unit": "seconds"}, nil, []time.Time{now.Add(65 * time.Second)}, ""},
		{"days", m{"amount": 2.0, "unit": "days"}, nil, []time.Time{now.Add(48 * time.Hour)}, ""},
		{"amount from an expression", m{"amount": "={{ 3 }}", "unit": "seconds"}, []time.Duration{3 * time.Second}, nil, ""},
		{"negative amount", m{"amount": -1.0, "unit": "seconds"}, nil, nil, "Invalid wait amount"},
		{"specific time in the past does not wait", m{"resume": "specificTime", "dateTime": "2020-01-01T00:00:00Z"}, []time.Duration{0}, nil, ""},
		{"specific time soon sleeps", m{"resume": "specificTime", "dateTime": "2023-01-10T12:00:10Z"}, []time.Duration{10 * time.Second}, nil, ""},
		{"specific time later is persisted", m{"resume": "specificTime", "dateTime": "2023-02-01T00:00:00Z"}, nil,
			[]time.Time{time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC)}, ""},
		{"invalid date", m{"resume": "specificTime", "dateTime": "soon"}, nil, nil, "not a valid date"},
		{"webhook waits without limit", m{"resume": "webhook"}, nil, []time.Time{wait.Unlimited}, ""},
		{"webhook with interval limit", m{"resume": "webhook", "limitWaitTime": true, "resumeAmount": 10.0, "resumeUnit": "minutes"}, nil,
			[]time.Time{now.Add(10 * time.Minute)}, ""},
		{"webhook with date limit", m{"resume": "webhook", "limitWaitTime": true, "limitType": "atSpecifiedTime", "maxDateAndTime": "2023-03-01T00:00:00Z"}, nil,
			[]time.Time{time.Date(2023, 3, 1, 0, 0, 0, 0, time.UTC)}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{now: now}
			input := nodetest.Items(m{"a": 1.0}, m{"b": 2.0})
			version := 1.0
			if _, ok := tc.params["@1.1"]; ok {
				version = 1.1
				delete(tc.params, "@1.1")
			}
			out, err := nodetest.Run(t, wait.Type(), nodetest.Node{Version: version, Parameters: tc.params, Flow: rec.flow()}, input)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, []map[string]any{{"a": 1.0}, {"b": 2.0}}, nodetest.JSONs(out[0]))
			require.Equal(t, &workflow.PairedItems{{Item: 1}}, out[0][1].PairedItem)
			require.Equal(t, tc.slept, rec.slept)
			require.Equal(t, tc.waited, rec.waited)
		})
	}
}

func TestWaitCanceled(t *testing.T) {
	t.Parallel()
	rec := &recorder{now: time.Now()}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	typ := wait.Type()
	ex := nodes.NewExecution(nodes.ExecutionConfig{
		Node: &workflow.Node{Name: "Wait", Type: typ.Description.Name, TypeVersion: 1,
			Parameters: m{"resume": "timeInterval", "amount": 5.0, "unit": "seconds"}},
		Type: &typ, Inputs: [][]workflow.Item{nodetest.Items(m{})}, Flow: rec.flow(),
	})
	_, err := typ.Node.Execute(ctx, ex)
	require.ErrorIs(t, err, context.Canceled)
}

func TestWaitWithoutEngineSupport(t *testing.T) {
	t.Parallel()
	_, err := nodetest.Run(t, wait.Type(), nodetest.Node{Parameters: m{"resume": "webhook"}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "cannot put executions to wait")
}
