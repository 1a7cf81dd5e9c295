// Package metrics defines the Prometheus metrics of a Flowmill process. Every name starts with
// flowmill_. Each process has its own registry: the api serves it at /metrics, workers and
// schedulers on their health port (FLOWMILL_HEALTH_PORT).
package metrics

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// MaxWorkflowLabels is how many workflow ids get a label value of their own in the run time
// histogram; runs of any further workflow are counted under OtherWorkflow, so one process
// never has more than MaxWorkflowLabels+1 series per bucket however many workflows run.
const MaxWorkflowLabels = 100

// OtherWorkflow is the workflow label of runs past MaxWorkflowLabels distinct workflows, and of
// runs of unsaved workflows.
const OtherWorkflow = "other"

// Metrics holds the registry and the metrics code increments directly. Every method is safe on
// a nil *Metrics (it records nothing), for components built without metrics in tests.
type Metrics struct {
	Registry *prometheus.Registry
	// ExecutionsTotal counts finished executions by mode and final status.
	ExecutionsTotal *prometheus.CounterVec
	// ExecutionsStarted counts runs a worker began, by mode (a run taken over counts again).
	ExecutionsStarted *prometheus.CounterVec
	// ExecutionDuration is the run time of finished executions in seconds, by workflow id
	// (bounded, see MaxWorkflowLabels) and final status.
	ExecutionDuration *prometheus.HistogramVec
	// Takeovers counts claims that took an execution over from a worker whose lease ran out.
	Takeovers prometheus.Counter
	// TasksTotal counts processed queue tasks by kind and result (ok, error).
	TasksTotal *prometheus.CounterVec
	// SchedulerTicks counts schedule and poll trigger ticks by result: fired (queued) or
	// skipped (late, or already fired by another scheduler).
	SchedulerTicks *prometheus.CounterVec
	// RedisErrors counts Redis commands, pipelines and connection attempts that got no answer
	// (refused or broken connections, timeouts); error replies are answers.
	RedisErrors prometheus.Counter
	// DatabaseErrors counts database statements that failed because the database could not be
	// reached or did not answer in time; statements it refused are answers.
	DatabaseErrors prometheus.Counter
	// HTTPRequestsTotal counts api requests by method and status code.
	HTTPRequestsTotal *prometheus.CounterVec
	// PushConnections is the number of open SSE streams on this api.
	PushConnections prometheus.Gauge

	mu        sync.Mutex
	workflows map[string]bool
}

// New builds a registry with Go runtime and process collectors and Flowmill's metrics.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		ExecutionsTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_executions_total", Help: "Finished executions by mode and status.",
		}, []string{"mode", "status"}),
		ExecutionsStarted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_executions_started_total", Help: "Execution runs started by mode (a takeover starts a run again).",
		}, []string{"mode"}),
		ExecutionDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "flowmill_execution_duration_seconds",
			Help:    "Run time of finished executions by workflow id (at most 100 ids, then \"other\") and status.",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600},
		}, []string{"workflow", "status"}),
		Takeovers: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "flowmill_execution_takeovers_total", Help: "Executions taken over from a worker whose lease ran out (it died).",
		}),
		TasksTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_queue_tasks_total", Help: "Queue tasks processed by kind and result.",
		}, []string{"kind", "result"}),
		SchedulerTicks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_scheduler_ticks_total", Help: "Schedule and poll trigger ticks by result (fired, skipped).",
		}, []string{"result"}),
		RedisErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "flowmill_redis_errors_total", Help: "Redis commands that got no answer (connection refused or broken, timeout).",
		}),
		DatabaseErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "flowmill_database_errors_total", Help: "Database statements that failed because the database was unreachable or did not answer in time.",
		}),
		HTTPRequestsTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_http_requests_total", Help: "HTTP requests by method and status code.",
		}, []string{"method", "code"}),
		PushConnections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "flowmill_push_connections", Help: "Open push (SSE) streams on this process.",
		}),
		workflows: map[string]bool{},
	}
	for _, r := range []string{TickFired, TickSkipped} {
		m.SchedulerTicks.WithLabelValues(r) // present at 0 before the first tick
	}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.ExecutionsTotal, m.ExecutionsStarted, m.ExecutionDuration, m.Takeovers, m.TasksTotal, m.SchedulerTicks,
		m.RedisErrors, m.DatabaseErrors, m.HTTPRequestsTotal, m.PushConnections)
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{})
}

// Results of a scheduler tick.
const (
	TickFired   = "fired"
	TickSkipped = "skipped"
)

// Tick records a schedule or poll tick with result TickFired or TickSkipped.
func (m *Metrics) Tick(result string) {
	if m == nil {
		return
	}
	m.SchedulerTicks.WithLabelValues(result).Inc()
}

// Started records the start of an execution run in mode.
func (m *Metrics) Started(mode string) {
	if m == nil {
		return
	}
	m.ExecutionsStarted.WithLabelValues(mode).Inc()
}

// TookOver records a takeover of an execution.
func (m *Metrics) TookOver() {
	if m == nil {
		return
	}
	m.Takeovers.Inc()
}

// Finished records a finished execution: its mode and status, and its run time under its
// workflow's label.
func (m *Metrics) Finished(mode, status, workflowID string, seconds float64) {
	if m == nil {
		return
	}
	m.ExecutionsTotal.WithLabelValues(mode, status).Inc()
	m.ExecutionDuration.WithLabelValues(m.workflowLabel(workflowID), status).Observe(seconds)
}

// workflowLabel is id while fewer than MaxWorkflowLabels ids have a label, else OtherWorkflow.
func (m *Metrics) workflowLabel(id string) string {
	if id == "" {
		return OtherWorkflow
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.workflows[id] {
		return id
	}
	if len(m.workflows) >= MaxWorkflowLabels {
		return OtherWorkflow
	}
	m.workflows[id] = true
	return id
}

// QueueStat is the state of one queue.
type QueueStat struct {
	// Pending is how many tasks wait to be taken.
	Pending int
	// LatencySeconds is how long the oldest pending task has waited; 0 when none waits.
	LatencySeconds float64
}

// QueueStatter reports the state of every queue.
type QueueStatter interface {
	QueueStats() (map[string]QueueStat, error)
}

// RegisterQueueDepth adds flowmill_queue_pending{queue} and flowmill_queue_latency_seconds{queue},
// read from Redis at each scrape.
func (m *Metrics) RegisterQueueDepth(q QueueStatter) {
	m.Registry.MustRegister(&queueState{q: q,
		pending: prometheus.NewDesc("flowmill_queue_pending", "Tasks waiting in each queue.", []string{"queue"}, nil),
		latency: prometheus.NewDesc("flowmill_queue_latency_seconds",
			"How long the oldest waiting task of each queue has waited.", []string{"queue"}, nil)})
}

type queueState struct {
	q                QueueStatter
	pending, latency *prometheus.Desc
}

func (d *queueState) Describe(ch chan<- *prometheus.Desc) { ch <- d.pending; ch <- d.latency }

func (d *queueState) Collect(ch chan<- prometheus.Metric) {
	stats, err := d.q.QueueStats()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(d.pending, err)
		return
	}
	for q, s := range stats {
		ch <- prometheus.MustNewConstMetric(d.pending, prometheus.GaugeValue, float64(s.Pending), q)
		ch <- prometheus.MustNewConstMetric(d.latency, prometheus.GaugeValue, s.LatencySeconds, q)
	}
}
