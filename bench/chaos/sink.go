package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// effect is what the workflow's HTTP Request node posts to the sink: one side effect.
type effect struct {
	RequestID   string `json:"requestId"`
	ExecutionID string `json:"executionId"`
}

// sink is the outside system the workflow calls: a local HTTP server that counts each side
// effect per request id and per execution id, and answers with the count. Like a payment API
// it honours the Idempotency-Key header the HTTP Request node sends: a delivery whose key it has
// seen is answered again without taking effect again (a node repeated after a takeover), and is
// counted apart; a delivery without a key always takes effect.
type sink struct {
	srv *httptest.Server
	// delay is how long the sink takes to answer after it has counted the effect: the time a
	// real service takes, and a window in which a killed worker leaves a done side effect behind.
	delay time.Duration

	mu          sync.Mutex
	byRequest   map[string]int
	byExecution map[string]int
	requestOf   map[string]string // execution id → the request id it carried
	keys        map[string]bool   // Idempotency-Key values seen
	total, bad  int
	// deduplicated counts deliveries whose key had been seen; keyless counts those with none.
	deduplicated, keyless int
}

func newSink(delay time.Duration) *sink {
	s := &sink{delay: delay, byRequest: map[string]int{}, byExecution: map[string]int{}, requestOf: map[string]string{}, keys: map[string]bool{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve)) // 127.0.0.1, a free port
	return s
}

// URL is where the workflow posts its side effects.
func (s *sink) URL() string { return s.srv.URL + "/effect" }

func (s *sink) Close() { s.srv.Close() }

func (s *sink) serve(w http.ResponseWriter, r *http.Request) {
	var e effect
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&e); err != nil || e.RequestID == "" || e.ExecutionID == "" {
		s.mu.Lock()
		s.bad++
		s.mu.Unlock()
		http.Error(w, "want {requestId, executionId}", http.StatusBadRequest)
		return
	}
	key := r.Header.Get("Idempotency-Key")
	s.mu.Lock()
	if key != "" && s.keys[key] {
		s.deduplicated++
		n := s.byExecution[e.ExecutionID]
		s.mu.Unlock()
		s.answer(w, r, e, n)
		return
	}
	if key == "" {
		s.keyless++
	} else {
		s.keys[key] = true
	}
	s.total++
	s.byRequest[e.RequestID]++
	s.byExecution[e.ExecutionID]++
	s.requestOf[e.ExecutionID] = e.RequestID
	n := s.byExecution[e.ExecutionID]
	s.mu.Unlock()
	s.answer(w, r, e, n)
}

// answer replies after the sink's delay, with the execution's effect count.
func (s *sink) answer(w http.ResponseWriter, r *http.Request, e effect, n int) {
	select {
	case <-r.Context().Done():
		return
	case <-time.After(s.delay):
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"requestId": e.RequestID, "executionId": e.ExecutionID, "effect": n})
}

// sinkCounts is a copy of the sink's counters.
type sinkCounts struct {
	byRequest, byExecution map[string]int
	requestOf              map[string]string
	total, bad             int
	deduplicated, keyless  int
}

func (s *sink) counts() sinkCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := sinkCounts{byRequest: map[string]int{}, byExecution: map[string]int{}, requestOf: map[string]string{}, total: s.total, bad: s.bad,
		deduplicated: s.deduplicated, keyless: s.keyless}
	for k, v := range s.byRequest {
		c.byRequest[k] = v
	}
	for k, v := range s.byExecution {
		c.byExecution[k] = v
	}
	for k, v := range s.requestOf {
		c.requestOf[k] = v
	}
	return c
}
