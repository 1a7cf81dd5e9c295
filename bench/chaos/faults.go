package main

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/bench/internal/faultproxy"
)

// fault is one event of the fault plan, at an offset from the start of the load. begins is
// true for an event that takes something down (a kill, a cut), false for its end.
type fault struct {
	at     time.Duration
	what   string
	begins bool
	do     func() error
}

// redisAt and postgresAt are where the cuts begin, as fractions of the load's duration.
const redisAt, postgresAt = 0.2, 0.57

// faultPlan cuts Redis at 20% of the load and Postgres at 57%, each for cut, and spreads the
// worker kills (each worker down for restartAfter) evenly over the three stretches around the
// cuts, one kill per stretch in turn, round-robin over the workers.
func faultPlan(d, cut time.Duration, kills, workers int, restartAfter time.Duration, mode faultproxy.Mode,
	cl *benchstack.Cluster, redis, postgres *faultproxy.Proxy) []fault {
	at := func(f float64) time.Duration { return time.Duration(f * float64(d)).Round(100 * time.Millisecond) }
	var plan []fault
	for _, c := range []struct {
		name string
		p    *faultproxy.Proxy
		at   time.Duration
	}{{"Redis", redis, at(redisAt)}, {"Postgres", postgres, at(postgresAt)}} {
		p := c.p
		plan = append(plan,
			fault{c.at, fmt.Sprintf("cut %s (%s) for %v", c.name, mode, cut), true, func() error { p.Cut(mode); return nil }},
			fault{c.at + cut, "restore " + c.name, false, func() error { p.Restore(); return nil }})
	}
	stretches := [3][2]time.Duration{{0, at(redisAt)}, {at(redisAt) + cut, at(postgresAt)}, {at(postgresAt) + cut, d}}
	for k := range kills {
		s := stretches[k%3]
		in := (kills - k%3 + 2) / 3 // kills in this stretch
		pos := s[0] + (s[1]-s[0])*time.Duration(k/3+1)/time.Duration(in+1) - restartAfter/2
		pos = pos.Round(100 * time.Millisecond)
		w := k % workers
		plan = append(plan,
			fault{pos, fmt.Sprintf("SIGKILL worker %d", w), true, func() error { return cl.KillWorker(w) }},
			fault{pos + restartAfter, fmt.Sprintf("restart worker %d", w), false, func() error { return cl.StartWorker(w) }})
	}
	slices.SortStableFunc(plan, func(a, b fault) int { return int(a.at - b.at) })
	return plan
}

// checkPlan refuses a plan whose faults overlap (so that each one's effect stands apart) or
// that does not end within the load's duration d.
func checkPlan(plan []fault, d time.Duration) error {
	down := 0
	for _, f := range plan {
		if f.at < 0 || f.at >= d {
			return fmt.Errorf("%s would fall outside the load (at %v of %v)", f.what, f.at, d)
		}
		if f.begins {
			down++
		} else {
			down--
		}
		if down > 1 {
			return fmt.Errorf("%s at %v overlaps another fault: fewer -kills, a shorter -cut or -restart-after, or a longer -duration", f.what, f.at)
		}
	}
	return nil
}

// runFaults carries out the plan against begin and logs each event; it returns when the plan
// is done or ctx ends (a cut still open is restored by the caller's cleanup).
func runFaults(ctx context.Context, plan []fault, begin time.Time, logf func(string, ...any)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	for _, f := range plan {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(begin.Add(f.at))):
		}
		logf("t=%5.1fs %s", time.Since(begin).Seconds(), f.what)
		// A kill waits for the process to go; the next event must not wait for it.
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.do(); err != nil {
				logf("t=%5.1fs %s: %v", time.Since(begin).Seconds(), f.what, err)
			}
		}()
	}
}
