// Command chaos is the fault run of the scaled stack: webhook load while workers are killed and
// restarted and Redis and Postgres are cut, then a count of what became of every request.
//
// It runs its own stack (a fresh Postgres database and Redis database, one api, workers and a
// scheduler from -bin) with every process reaching Postgres and Redis through TCP proxies it
// owns, and a local HTTP sink that counts side effects. An active workflow Webhook (POST,
// response mode lastNode) → HTTP Request (POST to the sink with the request's id and the
// execution id) is called at -rate requests per second for -duration, each call with a unique
// id in its body and as Idempotency-Key, repeated with the same key after a transport error,
// 502, 503 or 504. Meanwhile: SIGKILL a worker and restart it (-kills times), cut Redis, cut
// Postgres (-cut each). Then it waits until no execution is pending (at most -settle), reads
// every execution from the database and prints requests, answers by status, executions stored,
// lost, duplicated, stuck, side effects per execution and the worst latencies, ending with one
// summary line. The exit status is 1 when anything was lost, duplicated or stuck (unless
// -report-only).
//
//	go run ./bench/chaos -bin bin            # the full run, under 3 minutes
//	go run ./bench/chaos -bin bin -short     # the short form, under 90 seconds
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // reads the executions after the run

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/bench/internal/faultproxy"
)

// config is the run; zero values take the full or short form's defaults.
type config struct {
	bin          string
	short        bool
	rate         int
	duration     time.Duration
	workers      int
	kills        int
	cut          time.Duration
	cutMode      string
	restartAfter time.Duration
	drain        time.Duration
	settle       time.Duration
	attempts     int
	effectDelay  time.Duration
	noFaults     bool
	reportOnly   bool
	logs         string
	env          envFlags
}

// defaults fills what the flags left zero: the full run (50/s for 60 s, 3 workers, 10 s cuts)
// or the short one (20/s for 25 s, 2 workers, 5 s cuts).
func (c *config) defaults() {
	full := !c.short
	pick := func(v *int, f, s int) {
		if *v == 0 {
			*v = map[bool]int{true: f, false: s}[full]
		}
	}
	pickD := func(v *time.Duration, f, s time.Duration) {
		if *v == 0 {
			*v = map[bool]time.Duration{true: f, false: s}[full]
		}
	}
	pick(&c.rate, 50, 20)
	pickD(&c.duration, 60*time.Second, 25*time.Second)
	pick(&c.workers, 3, 2)
	pick(&c.kills, 3, 2)
	pickD(&c.cut, 10*time.Second, 5*time.Second)
	pickD(&c.drain, 30*time.Second, 30*time.Second)
	pickD(&c.settle, 45*time.Second, 15*time.Second)
	pick(&c.attempts, 4, 4)
}

func (c *config) validate() error {
	switch {
	case c.rate < 1 || c.rate > 1000:
		return errors.New("-rate must be 1–1000")
	case c.duration < 5*time.Second:
		return errors.New("-duration must be at least 5s")
	case c.workers < 1:
		return errors.New("-workers must be at least 1")
	case c.kills < 0:
		return errors.New("-kills must not be negative")
	case c.cut <= 0 || c.cut > c.duration/5:
		return errors.New("-cut must be positive and at most a fifth of -duration")
	case c.restartAfter <= 0:
		return errors.New("-restart-after must be positive")
	case c.attempts < 1:
		return errors.New("-attempts must be at least 1")
	case c.effectDelay < 0 || c.effectDelay > 5*time.Second:
		return errors.New("-effect-delay must be 0–5s")
	}
	mode, err := faultproxy.ParseMode(c.cutMode)
	if err != nil {
		return err
	}
	return checkPlan(faultPlan(c.duration, c.cut, c.kills, c.workers, c.restartAfter, mode, nil, nil, nil), c.duration)
}

// envFlags collects repeated -env KEY=VALUE flags.
type envFlags []string

func (e *envFlags) String() string { return strings.Join(*e, ",") }
func (e *envFlags) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

func main() {
	var c config
	flag.StringVar(&c.bin, "bin", "bin", "folder with the api, worker and scheduler binaries")
	flag.BoolVar(&c.short, "short", false, "the short form: 20 requests/s for 25s, 2 workers, 5s cuts (under 90s in all)")
	flag.IntVar(&c.rate, "rate", 0, "webhook requests per second (default 50, short 20)")
	flag.DurationVar(&c.duration, "duration", 0, "how long the load runs (default 60s, short 25s)")
	flag.IntVar(&c.workers, "workers", 0, "worker processes (default 3, short 2)")
	flag.IntVar(&c.kills, "kills", 0, "times a worker is killed with SIGKILL and restarted (default 3, short 2)")
	flag.DurationVar(&c.cut, "cut", 0, "how long Redis and Postgres are each cut (default 10s, short 5s)")
	flag.StringVar(&c.cutMode, "cut-mode", "blackhole", "what a cut does with new connections: blackhole (held until the restore) or refuse (reset)")
	flag.DurationVar(&c.restartAfter, "restart-after", time.Second, "how long a killed worker stays down")
	flag.DurationVar(&c.drain, "drain", 0, "how long after the load unanswered calls may still finish (default 30s)")
	flag.DurationVar(&c.settle, "settle", 0, "longest wait for pending executions to end after the drain (default 45s, short 15s)")
	flag.IntVar(&c.attempts, "attempts", 0, "tries per request, the first included (default 4)")
	flag.DurationVar(&c.effectDelay, "effect-delay", 200*time.Millisecond, "how long the sink takes to answer after counting a side effect")
	flag.BoolVar(&c.noFaults, "no-faults", false, "the same load without any fault: a control run, which must find nothing")
	flag.BoolVar(&c.reportOnly, "report-only", false, "exit 0 even when requests were lost, duplicated or stuck")
	flag.StringVar(&c.logs, "logs", "", "keep the processes' logs in this folder (default a temporary one, removed)")
	flag.Var(&c.env, "env", "KEY=VALUE setting for every process, over the run's own (repeatable)")
	flag.Parse()
	c.defaults()
	if err := c.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	failed, err := run(ctx, c, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chaos:", err)
		os.Exit(1)
	}
	if failed && !c.reportOnly {
		os.Exit(1)
	}
}

// answerTimeout is the webhook answer timeout of the run: longer than a takeover (the 10 s
// lease and a 5 s reconcile interval), so that a caller whose worker died can still get the
// answer of the run that took over, and shorter than the client's own timeout (attemptTimeout).
const answerTimeout, attemptTimeout = 20 * time.Second, 25 * time.Second

// settings are the run's own process settings: short lease and reconcile intervals so that a
// killed worker's executions are taken over within the run, the answer timeout, small
// connection pools (the Postgres server is shared), warnings only in the logs.
func settings() []string {
	return []string{
		"FLOWMILL_EXECUTION_LEASE_TTL=10s",
		"FLOWMILL_RECONCILE_INTERVAL=5s",
		"FLOWMILL_WEBHOOK_RESPONSE_TIMEOUT=" + answerTimeout.String(),
		"FLOWMILL_DATABASE_POOL_SIZE=8",
		"FLOWMILL_LOG_LEVEL=warn",
	}
}

// run does the whole scenario and prints the figures; failed reports lost, duplicated or stuck.
func run(ctx context.Context, c config, out io.Writer) (failed bool, err error) {
	began := time.Now()
	logf := func(format string, a ...any) {
		fmt.Fprintf(out, "[%5.1fs] %s\n", time.Since(began).Seconds(), fmt.Sprintf(format, a...))
	}
	mode, _ := faultproxy.ParseMode(c.cutMode)

	pgTarget, err := benchstack.TargetAddr(postgresURL())
	if err != nil {
		return false, err
	}
	redisTarget, err := benchstack.TargetAddr(redisURL())
	if err != nil {
		return false, err
	}
	pg, err := faultproxy.Listen(pgTarget)
	if err != nil {
		return false, err
	}
	defer pg.Close()
	redis, err := faultproxy.Listen(redisTarget)
	if err != nil {
		return false, err
	}
	defer redis.Close()
	sk := newSink(c.effectDelay)
	defer sk.Close()

	env := append(settings(), c.env...)
	logf("starting api, %d workers and scheduler; Postgres via %s, Redis via %s; settings %s", c.workers, pg.Addr(), redis.Addr(), strings.Join(env, " "))
	cl, err := benchstack.Launch(ctx, benchstack.ClusterConfig{Bin: c.bin, Workers: c.workers, PostgresVia: pg.Addr(),
		RedisVia: redis.Addr(), Env: env, Logs: c.logs, StopGrace: 10 * time.Second})
	if err != nil {
		return false, err
	}
	defer func() {
		pg.Restore()
		redis.Restore()
		cl.Stop()
		logf("stopped; database dropped")
	}()
	db, err := sql.Open("pgx", cl.DatabaseURL)
	if err != nil {
		return false, err
	}
	defer db.Close()
	db.SetMaxOpenConns(2)

	wf, err := createWorkflow(ctx, cl.URL, sk.URL())
	if err != nil {
		return false, err
	}
	faults := fmt.Sprintf("%d worker kills, Redis and Postgres cut %v (%s) each", c.kills, c.cut, mode)
	if c.noFaults {
		faults, c.kills = "none (control run)", 0
	}
	logf("workflow %s active; load %d/s for %v, faults: %s", wf, c.rate, c.duration, faults)

	// The supervisor restarts a process that ended without being killed by the plan, as a
	// deployment's restart policy would, and counts it.
	var exits struct {
		workers int
		others  []string
	}
	supCtx, supStop := context.WithCancel(ctx)
	supDone := make(chan struct{})
	go func() {
		defer close(supDone)
		for {
			select {
			case <-supCtx.Done():
				return
			case e := <-cl.Exits():
				if e.Killed {
					continue
				}
				logf("%s %d exited by itself (%v); restarting it", e.Role, e.Index, e.Err)
				if e.Role == "worker" {
					exits.workers++
				} else {
					exits.others = append(exits.others, fmt.Sprintf("%s: %v", e.Role, e.Err))
				}
				select {
				case <-supCtx.Done():
					return
				case <-time.After(time.Second):
				}
				if err := cl.Restart(e); err != nil {
					logf("restart %s %d: %v", e.Role, e.Index, err)
				}
			}
		}
	}()

	begin := time.Now().Add(100 * time.Millisecond)
	loadEnd := begin.Add(c.duration)
	drainCtx, drainStop := context.WithDeadline(ctx, loadEnd.Add(c.drain))
	defer drainStop()
	faultsDone := make(chan struct{})
	go func() {
		defer close(faultsDone)
		if !c.noFaults {
			runFaults(ctx, faultPlan(c.duration, c.cut, c.kills, c.workers, c.restartAfter, mode, cl, redis, pg), begin, logf)
		}
	}()
	calls := runLoad(ctx, drainCtx, loadConfig{url: cl.URL + "webhook/chaos", rate: c.rate, duration: c.duration,
		attempts: c.attempts, attemptTimeout: attemptTimeout}, begin)
	<-faultsDone
	if ctx.Err() != nil {
		supStop()
		<-supDone
		return false, errors.New("interrupted")
	}
	logf("load done: %d calls answered or given up", len(calls))

	stuck, err := settle(ctx, db, time.Now().Add(c.settle))
	supStop()
	<-supDone
	if err != nil {
		return false, err
	}
	logf("settled (%d executions still pending)", stuck)
	execs, err := executions(ctx, db, wf)
	if err != nil {
		return false, err
	}
	f := measure(calls, execs, sk.counts(), stuck)
	f.workerExits, f.otherExits = exits.workers, exits.others
	f.redisCuts, f.redisDropped = redis.Stats()
	f.pgCuts, f.pgDropped = pg.Stats()
	f.kills = c.kills
	f.print(out)
	lost, dup, stk := f.failures()
	failed = lost > 0 || dup > 0 || stk > 0
	verdict := "PASS"
	if failed {
		verdict = "FAIL"
	}
	fmt.Fprintf(out, "chaos: sent=%d answered_2xx=%d executions=%d lost=%d duplicated=%d stuck=%d effects_per_execution=%d..%d elapsed=%s %s\n",
		f.sent, f.answered2xx, f.executions, lost, dup, stk, f.minEffect, f.maxEffect, time.Since(began).Round(time.Second), verdict)
	return failed, nil
}

// createWorkflow signs in as the default owner, creates the workflow and activates it; it
// returns the workflow's id.
func createWorkflow(ctx context.Context, base, sinkURL string) (string, error) {
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	if _, err := benchstack.REST(ctx, client, base, http.MethodGet, "rest/login", ""); err != nil {
		return "", err
	}
	id, err := benchstack.REST(ctx, client, base, http.MethodPost, "rest/workflows", workflowJSON(sinkURL))
	if err != nil {
		return "", err
	}
	if _, err := benchstack.REST(ctx, client, base, http.MethodPatch, "rest/workflows/"+id, `{"active":true}`); err != nil {
		return "", err
	}
	return id, nil
}
