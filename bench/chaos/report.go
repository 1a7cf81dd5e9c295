package main

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// stored is an execution of the chaos workflow as the database has it.
type stored struct {
	id        int64
	status    string
	mode      string
	requestID string // from its start data, else from the sink; "" if neither knows
}

var pendingStatuses = []string{"new", "queued", "running", "waiting"}

// pending counts executions that are not terminal yet.
func pending(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM executions WHERE status IN ('new','queued','running','waiting')`).Scan(&n)
	return n, err
}

// settle waits until no execution is pending or the deadline passes; it returns how many are
// still pending.
func settle(ctx context.Context, db *sql.DB, deadline time.Time) (int, error) {
	for {
		n, err := pending(ctx, db)
		if err != nil {
			return 0, fmt.Errorf("count pending executions: %w", err)
		}
		if n == 0 || time.Now().After(deadline) {
			return n, nil
		}
		select {
		case <-ctx.Done():
			return n, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// executions reads every execution of workflow wf with the request id its webhook call carried.
func executions(ctx context.Context, db *sql.DB, wf string) ([]stored, error) {
	rows, err := db.QueryContext(ctx, `SELECT e.id, e.status, e.mode,
		COALESCE(d.start_data->'input'->0->'json'->'body'->>'id', '')
		FROM executions e LEFT JOIN execution_data d ON d.execution_id = e.id
		WHERE e.workflow_id = $1 ORDER BY e.id`, wf)
	if err != nil {
		return nil, fmt.Errorf("read executions: %w", err)
	}
	defer rows.Close()
	var out []stored
	for rows.Next() {
		var s stored
		if err := rows.Scan(&s.id, &s.status, &s.mode, &s.requestID); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// figures is what the run measured.
type figures struct {
	sent, attempts, answered2xx, wrongBody, unanswered int
	byStatus                                           map[string]int
	retriedBy                                          map[string]int
	executions                                         int
	execByStatus, execByMode                           map[string]int
	lost, lostAfter2xx                                 []string
	dupRequests                                        []string // ids with more than one execution
	extraExecutions                                    int
	dupEffects                                         []string // executions with more than one side effect
	duplicated                                         int      // request ids with either of the two above
	repeatedEffectRequests                             int      // ids whose side effect happened more than once
	stuck                                              int
	effects, orphanEffects, badEffects, unknownExec    int
	deduplicated, keyless                              int
	effectHist                                         map[int]int // side effects per execution → executions
	minEffect, maxEffect                               int         // over successful executions
	p50, p99, maxLat                                   time.Duration
	worst                                              []*call
	workerExits, kills                                 int
	redisCuts, redisDropped, pgCuts, pgDropped         int
	non2xxSucceeded                                    int            // calls answered other than 2xx whose request ran to success
	errors                                             map[string]int // status and message of every failed attempt
	otherExits                                         []string
}

func measure(calls []*call, execs []stored, sc sinkCounts, stuck int) figures {
	f := figures{sent: len(calls), byStatus: map[string]int{}, retriedBy: map[string]int{}, execByStatus: map[string]int{},
		execByMode: map[string]int{}, errors: map[string]int{}, effectHist: map[int]int{}, stuck: stuck, executions: len(execs), effects: sc.total,
		badEffects: sc.bad, minEffect: -1, deduplicated: sc.deduplicated, keyless: sc.keyless}
	statusName := func(s int) string {
		if s == 0 {
			return "no answer"
		}
		return strconv.Itoa(s)
	}
	for _, c := range calls {
		f.attempts += c.attempts
		f.byStatus[statusName(c.status)]++
		for _, a := range c.retried {
			f.retriedBy[statusName(a.status)]++
			f.errors[errorKey(a)]++
		}
		if c.status/100 != 2 {
			f.errors[errorKey(answer{c.status, c.err})]++
		}
		if c.status/100 == 2 {
			f.answered2xx++
			if !c.ok {
				f.wrongBody++
			}
		}
		if c.status == 0 {
			f.unanswered++
		}
	}
	perRequest := map[string][]stored{}
	dup := map[string]bool{} // request ids run or taking effect more than once
	known := map[string]bool{}
	for _, e := range execs {
		known[strconv.FormatInt(e.id, 10)] = true
		f.execByStatus[e.status]++
		f.execByMode[e.mode]++
		if e.requestID == "" {
			e.requestID = sc.requestOf[strconv.FormatInt(e.id, 10)]
		}
		if e.requestID == "" {
			f.unknownExec++
		} else {
			perRequest[e.requestID] = append(perRequest[e.requestID], e)
		}
		n := sc.byExecution[strconv.FormatInt(e.id, 10)]
		f.effectHist[n]++
		if n > 1 {
			f.dupEffects = append(f.dupEffects, strconv.FormatInt(e.id, 10))
			dup[cmp.Or(e.requestID, "execution "+strconv.FormatInt(e.id, 10))] = true
		}
		if e.status == "success" {
			if f.minEffect < 0 || n < f.minEffect {
				f.minEffect = n
			}
			f.maxEffect = max(f.maxEffect, n)
		}
	}
	for id, n := range sc.byExecution {
		if !known[id] {
			f.orphanEffects += n
		}
	}
	for _, n := range sc.byRequest {
		if n > 1 {
			f.repeatedEffectRequests++
		}
	}
	for _, c := range calls {
		es := perRequest[c.id]
		succeeded := slices.ContainsFunc(es, func(e stored) bool { return e.status == "success" })
		switch {
		case !succeeded:
			f.lost = append(f.lost, c.id)
			if c.status/100 == 2 {
				f.lostAfter2xx = append(f.lostAfter2xx, c.id)
			}
		case c.status/100 != 2:
			f.non2xxSucceeded++
		}
		if len(es) > 1 {
			f.dupRequests = append(f.dupRequests, c.id)
			f.extraExecutions += len(es) - 1
			dup[c.id] = true
		}
	}
	f.duplicated = len(dup)
	var lat []time.Duration
	answered := []*call{}
	for _, c := range calls {
		if c.status != 0 {
			lat = append(lat, c.latency)
			answered = append(answered, c)
		}
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	f.p50, f.p99 = pct(0.5), pct(0.99)
	if len(lat) > 0 {
		f.maxLat = lat[len(lat)-1]
	}
	slices.SortFunc(answered, func(a, b *call) int { return int(b.latency - a.latency) })
	f.worst = answered[:min(5, len(answered))]
	if f.minEffect < 0 {
		f.minEffect = 0
	}
	return f
}

// failures is what makes the run fail: lost request ids, duplicated request ids (more than one
// execution, or an execution with more than one side effect) and stuck executions.
func (f figures) failures() (lost, duplicated, stuck int) {
	return len(f.lost), f.duplicated, f.stuck
}

func (f figures) print(w io.Writer) {
	pf := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	pf("requests:    %d sent, %d attempts (retried after: %s)", f.sent, f.attempts, counts(f.retriedBy))
	pf("faults:      %d worker kills; Redis cut %d× (%d connections closed or refused); Postgres cut %d× (%d connections closed or refused)",
		f.kills, f.redisCuts, f.redisDropped, f.pgCuts, f.pgDropped)
	pf("answers:     %s; %d 2xx (%d with a wrong body), %d without an answer; %d answered other than 2xx although their request ran to success",
		counts(f.byStatus), f.answered2xx, f.wrongBody, f.unanswered, f.non2xxSucceeded)
	for _, e := range topErrors(f.errors, 5) {
		pf("  failed:    %s", e)
	}
	pf("latency:     p50 %v, p99 %v, max %v (first attempt to last answer)", ms(f.p50), ms(f.p99), ms(f.maxLat))
	for _, c := range f.worst {
		pf("  worst:     %s %v, %d attempt(s), status %d %s", c.id, ms(c.latency), c.attempts, c.status, trim(c.err))
	}
	pf("executions:  %d stored, by status %s, by mode %s, %d without a request id", f.executions, counts(f.execByStatus), counts(f.execByMode), f.unknownExec)
	pf("side effects: %d at the sink (%d malformed, %d of executions not stored, %d sent without an Idempotency-Key); per execution %s; successful executions had %d..%d",
		f.effects, f.badEffects, f.orphanEffects, f.keyless, hist(f.effectHist), f.minEffect, f.maxEffect)
	pf("deliveries:  %d repeated with an Idempotency-Key the sink had seen (a node repeated after a takeover), answered without taking effect again", f.deduplicated)
	pf("lost:        %d request ids without a successful execution (%d of them answered 2xx) %s", len(f.lost), len(f.lostAfter2xx), sample(f.lost))
	pf("duplicated:  %d request ids run or taking effect more than once: %d with more than one execution (%d extra executions) %s; %d executions with more than one side effect %s; %d request ids whose side effect repeated",
		f.duplicated, len(f.dupRequests), f.extraExecutions, sample(f.dupRequests), len(f.dupEffects), sample(f.dupEffects), f.repeatedEffectRequests)
	pf("stuck:       %d executions not terminal after the settle deadline", f.stuck)
	pf("processes:   %d unexpected worker exits; %s", f.workerExits, strings.Join(append([]string{fmt.Sprintf("%d other exits", len(f.otherExits))}, f.otherExits...), ", "))
}

var digits = regexp.MustCompile(`[0-9]+`)

// errorKey groups failed attempts by status and message, numbers (ids, ports) aside.
func errorKey(a answer) string {
	return fmt.Sprintf("%d %s", a.status, digits.ReplaceAllString(trim(a.err), "N"))
}

// topErrors lists the n most frequent failures, most frequent first.
func topErrors(m map[string]int, n int) []string {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Or(m[b]-m[a], strings.Compare(a, b)) })
	var out []string
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, fmt.Sprintf("%d× %s", m[k], k))
	}
	return out
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func hist(m map[int]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%d:%d", k, m[k]))
	}
	return "{" + strings.Join(parts, " ") + "}"
}

func sample(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	if len(ids) > 5 {
		return "[" + strings.Join(ids[:5], " ") + " …]"
	}
	return "[" + strings.Join(ids, " ") + "]"
}

func ms(d time.Duration) string { return d.Round(time.Millisecond).String() }

func trim(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
