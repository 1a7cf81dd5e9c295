package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// call is one logical webhook request: a unique id, sent again with the same Idempotency-Key
// after a transport error, 502, 503 or 504, as a well-behaved client does.
type call struct {
	id       string
	attempts int
	// status is the last answer's HTTP status; 0 means no answer (transport error, or the
	// drain deadline came first).
	status int
	err    string
	// ok is a 2xx whose body is the sink's answer for this id.
	ok      bool
	latency time.Duration // from the first attempt to the last answer
	// retried lists each attempt that was retried.
	retried []answer
}

// answer is an attempt's status (0: transport error) and error message.
type answer struct {
	status int
	err    string
}

// loadConfig is the open-loop load: rate calls per second for duration, each allowed attempts
// tries; calls still unanswered at the drain deadline are abandoned.
type loadConfig struct {
	url            string
	rate           int
	duration       time.Duration
	attempts       int
	attemptTimeout time.Duration
}

// retryable says whether a well-behaved client sends the same request again.
func retryable(status int) bool {
	return status == 0 || status == http.StatusBadGateway || status == http.StatusServiceUnavailable ||
		status == http.StatusGatewayTimeout
}

// backoff is how long to wait before attempt n+1: Retry-After when the server gives one (up
// to 10 s), else 250 ms doubled per attempt.
func backoff(n int, res *http.Response) time.Duration {
	if res != nil {
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s >= 0 {
			return min(time.Duration(s)*time.Second, 10*time.Second)
		}
	}
	return 250 * time.Millisecond << n
}

// runLoad sends the calls on schedule (open loop: a slow answer does not slow the schedule)
// and returns them once each is answered, given up, or stopped by drainCtx. It returns early,
// with what was sent, if ctx ends.
func runLoad(ctx, drainCtx context.Context, cfg loadConfig, begin time.Time) []*call {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: cfg.attemptTimeout}
	total := int(float64(cfg.rate) * cfg.duration.Seconds())
	interval := time.Second / time.Duration(cfg.rate)
	calls := make([]*call, 0, total)
	var wg sync.WaitGroup
	for i := range total {
		due := begin.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(d):
			}
		}
		if ctx.Err() != nil {
			break
		}
		c := &call{id: fmt.Sprintf("req-%06d", i)}
		calls = append(calls, c)
		wg.Add(1)
		go func() { defer wg.Done(); c.send(drainCtx, client, cfg) }()
	}
	wg.Wait()
	return calls
}

func (c *call) send(ctx context.Context, client *http.Client, cfg loadConfig) {
	body, _ := json.Marshal(map[string]string{"id": c.id})
	start := time.Now()
	for n := range cfg.attempts {
		c.attempts++
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, cfg.url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", c.id)
		res, err := client.Do(req)
		c.latency = time.Since(start)
		c.status, c.err, c.ok = 0, "", false
		if err != nil {
			c.err = err.Error()
			if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(ctx.Err(), context.Canceled) {
				c.err = "abandoned at the drain deadline"
				return
			}
		} else {
			b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
			res.Body.Close()
			c.status = res.StatusCode
			if c.status/100 == 2 {
				var answer effect
				c.ok = json.Unmarshal(b, &answer) == nil && answer.RequestID == c.id
			} else {
				c.err = string(bytes.TrimSpace(b[:min(len(b), 160)]))
			}
		}
		if !retryable(c.status) || n == cfg.attempts-1 {
			return
		}
		c.retried = append(c.retried, answer{c.status, c.err})
		select {
		case <-ctx.Done():
			c.err = "abandoned at the drain deadline"
			return
		case <-time.After(backoff(n, res)):
		}
	}
}
