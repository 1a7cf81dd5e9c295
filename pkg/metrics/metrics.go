// Package metrics defines the Prometheus metrics of a Flowmill process. Every name starts with
// flowmill_. Each process has its own registry: the api serves it at /metrics, workers and
// schedulers on their health port.
package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Metrics holds the registry and the metrics code increments directly.
type Metrics struct {
	Registry *prometheus.Registry
	// ExecutionsTotal counts finished executions by mode and final status.
	ExecutionsTotal *prometheus.CounterVec
	// TasksTotal counts processed queue tasks by kind and result (ok, error).
	TasksTotal *prometheus.CounterVec
	// HTTPRequestsTotal counts api requests by method and status code.
	HTTPRequestsTotal *prometheus.CounterVec
	// PushConnections is the number of open SSE streams on this api.
	PushConnections prometheus.Gauge
}

// New builds a registry with Go runtime and process collectors and Flowmill's metrics.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		ExecutionsTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_executions_total", Help: "Finished executions by mode and status.",
		}, []string{"mode", "status"}),
		TasksTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_queue_tasks_total", Help: "Queue tasks processed by kind and result.",
		}, []string{"kind", "result"}),
		HTTPRequestsTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowmill_http_requests_total", Help: "HTTP requests by method and status code.",
		}, []string{"method", "code"}),
		PushConnections: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "flowmill_push_connections", Help: "Open push (SSE) streams on this process.",
		}),
	}
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.ExecutionsTotal, m.TasksTotal, m.HTTPRequestsTotal, m.PushConnections)
	return m
}

// QueueSizer reports pending tasks per queue.
type QueueSizer interface {
	QueueSizes() (map[string]int, error)
}

// RegisterQueueDepth adds flowmill_queue_pending{queue}, read from Redis at each scrape.
func (m *Metrics) RegisterQueueDepth(q QueueSizer) {
	m.Registry.MustRegister(&queueDepth{q: q, desc: prometheus.NewDesc("flowmill_queue_pending",
		"Tasks waiting in each queue.", []string{"queue"}, nil)})
}

type queueDepth struct {
	q    QueueSizer
	desc *prometheus.Desc
}

func (d *queueDepth) Describe(ch chan<- *prometheus.Desc) { ch <- d.desc }

func (d *queueDepth) Collect(ch chan<- prometheus.Metric) {
	sizes, err := d.q.QueueSizes()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(d.desc, err)
		return
	}
	for q, n := range sizes {
		ch <- prometheus.MustNewConstMetric(d.desc, prometheus.GaugeValue, float64(n), q)
	}
}
