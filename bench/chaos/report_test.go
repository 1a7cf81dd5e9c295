package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/bench/internal/faultproxy"
)

// The figures decide whether the run fails, so each kind of failure is checked on a made-up run.
func TestMeasureCountsLostDuplicatedAndStuck(t *testing.T) {
	calls := []*call{
		{id: "a", attempts: 1, status: 200, ok: true, latency: time.Second},
		{id: "b", attempts: 2, status: 200, ok: true, retried: []answer{{502, "worker 12 stopped"}}, latency: 3 * time.Second},
		{id: "c", attempts: 1, status: 200, ok: true},
		{id: "d", attempts: 1, status: 500},
		{id: "e", attempts: 4, status: 0, err: "abandoned at the drain deadline"},
		{id: "f", attempts: 1, status: 503},
	}
	execs := []stored{
		{id: 1, status: "success", requestID: "a"},
		{id: 2, status: "success", requestID: "b"}, // b ran twice: the first attempt's 502 was a lie
		{id: 3, status: "success", requestID: "b"},
		{id: 4, status: "error", requestID: "c"}, // c answered 200 but never succeeded
		{id: 5, status: "running", requestID: "e"},
		{id: 6, status: "success"}, // request id known only to the sink
	}
	sc := sinkCounts{
		byRequest:   map[string]int{"a": 2, "b": 3, "f": 1},
		byExecution: map[string]int{"1": 2, "2": 2, "3": 1, "6": 1, "99": 1}, // a's one execution took effect twice
		requestOf:   map[string]string{"6": "f", "99": "z"},
		total:       7,
	}
	f := measure(calls, execs, sc, 1)

	require.Equal(t, 6, f.sent)
	require.Equal(t, 10, f.attempts)
	require.Equal(t, 3, f.answered2xx)
	require.Equal(t, 1, f.unanswered)
	require.Equal(t, []string{"1× 0 abandoned at the drain deadline", "1× 500 ", "1× 502 worker N stopped", "1× 503 "}, topErrors(f.errors, 5))
	require.Equal(t, map[string]int{"200": 3, "500": 1, "no answer": 1, "503": 1}, f.byStatus)
	require.Equal(t, []string{"c", "d", "e"}, f.lost)
	require.Equal(t, []string{"c"}, f.lostAfter2xx)
	require.Equal(t, []string{"b"}, f.dupRequests)
	require.Equal(t, 1, f.extraExecutions)
	require.Equal(t, []string{"1", "2"}, f.dupEffects)
	require.Equal(t, 2, f.repeatedEffectRequests)
	require.Equal(t, 1, f.orphanEffects, "execution 99 is not stored")
	require.Equal(t, 1, f.non2xxSucceeded, "f answered 503 but its execution succeeded")
	require.Equal(t, map[int]int{0: 2, 1: 2, 2: 2}, f.effectHist)
	require.Equal(t, 1, f.minEffect)
	require.Equal(t, 2, f.maxEffect)
	require.Equal(t, 3*time.Second, f.maxLat)
	lost, dup, stuck := f.failures()
	require.Equal(t, [3]int{3, 2, 1}, [3]int{lost, dup, stuck}, "a and b, each counted once")
}

func TestMeasureOfACleanRunFindsNothing(t *testing.T) {
	calls := []*call{{id: "a", attempts: 1, status: 200, ok: true}, {id: "b", attempts: 1, status: 200, ok: true}}
	execs := []stored{{id: 1, status: "success", requestID: "a"}, {id: 2, status: "success", requestID: "b"}}
	sc := sinkCounts{byRequest: map[string]int{"a": 1, "b": 1}, byExecution: map[string]int{"1": 1, "2": 1}, total: 2}
	lost, dup, stuck := measure(calls, execs, sc, 0).failures()
	require.Zero(t, lost+dup+stuck)
}

// The default plans keep their faults apart, and a crowded one is refused before anything
// starts.
func TestFaultPlanKeepsFaultsApart(t *testing.T) {
	for _, tc := range []struct {
		d, cut time.Duration
		kills  int
		ok     bool
	}{
		{60 * time.Second, 10 * time.Second, 3, true},
		{25 * time.Second, 5 * time.Second, 2, true},
		{60 * time.Second, 12 * time.Second, 9, true},
		{25 * time.Second, 5 * time.Second, 12, false},
	} {
		plan := faultPlan(tc.d, tc.cut, tc.kills, 2, time.Second, faultproxy.Blackhole, nil, nil, nil)
		require.Len(t, plan, 2*tc.kills+4)
		err := checkPlan(plan, tc.d)
		if !tc.ok {
			require.Error(t, err, "%+v", tc)
			continue
		}
		require.NoError(t, err, "%+v", tc)
		kills := 0
		for _, f := range plan {
			if strings.HasPrefix(f.what, "SIGKILL") {
				kills++
			}
		}
		require.Equal(t, tc.kills, kills)
	}
	require.Error(t, checkPlan([]fault{{at: time.Second, begins: true}, {at: 2 * time.Second, begins: true}}, time.Minute))
}
