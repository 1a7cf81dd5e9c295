// Command push measures push fan-out latency: the time from a worker-side publish (the same
// push.Publisher a worker uses) to the message arriving at SSE clients connected to an api
// process of the scaled stack. It starts the stack with bin/stack and prints one JSON line.
//
//	go run ./bench/push -bin bin -clients 50 -messages 2000
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/redisconn"
)

type result struct {
	Scenario   string  `json:"scenario"`
	Clients    int     `json:"clients"`
	Messages   int     `json:"messages"`
	Received   int     `json:"received"`
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	MaxMs      float64 `json:"max_ms"`
	PerSecond  float64 `json:"messages_per_second"`
	DurationMs float64 `json:"duration_ms"`
}

func main() {
	bin := flag.String("bin", "bin", "folder with the Flowmill binaries and bin/stack")
	clients := flag.Int("clients", 20, "SSE clients (one session each)")
	messages := flag.Int("messages", 2000, "messages, spread round-robin over the sessions")
	rate := flag.Duration("interval", 500*time.Microsecond, "pause between publishes")
	flag.Parse()
	if err := run(*bin, *clients, *messages, *rate); err != nil {
		fmt.Fprintln(os.Stderr, "bench push:", err)
		os.Exit(1)
	}
}

func run(bin string, clients, messages int, interval time.Duration) error {
	info, err := benchstack.Start(bin, "-workers", "1", "-apis", "2")
	if err != nil {
		return err
	}
	defer info.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	// Clients connect to the second api; nothing publishes through it.
	latencies := make(chan time.Duration, messages)
	jar, err := info.SignIn()
	if err != nil {
		return err
	}
	client := &http.Client{Jar: jar}
	var ready sync.WaitGroup
	for i := range clients {
		ready.Add(1)
		go listen(ctx, client, info.URLs[1], fmt.Sprintf("bench-%d", i), &ready, latencies)
	}
	ready.Wait()

	rdb, err := redisconn.Open(ctx, info.RedisURL)
	if err != nil {
		return err
	}
	defer rdb.Close()
	pub := push.NewPublisher(rdb)
	start := time.Now()
	for i := range messages {
		sent := time.Now().UnixNano()
		err := pub.Send(ctx, fmt.Sprintf("bench-%d", i%clients), push.Message{Type: push.TypeNodeExecuteAfter,
			Data: map[string]any{"sentAt": sent, "executionId": "1", "nodeName": "Set"}})
		if err != nil {
			return err
		}
		time.Sleep(interval)
	}
	var all []time.Duration
	timeout := time.After(10 * time.Second)
collect:
	for len(all) < messages {
		select {
		case d := <-latencies:
			all = append(all, d)
		case <-timeout:
			break collect
		}
	}
	elapsed := time.Since(start)
	slices.Sort(all)
	pct := func(p float64) float64 {
		if len(all) == 0 {
			return 0
		}
		return float64(all[min(len(all)-1, int(p*float64(len(all))))].Microseconds()) / 1000
	}
	r := result{Scenario: "push-fanout", Clients: clients, Messages: messages, Received: len(all),
		P50Ms: pct(0.50), P99Ms: pct(0.99), MaxMs: pct(1), PerSecond: float64(len(all)) / elapsed.Seconds(),
		DurationMs: float64(elapsed.Milliseconds())}
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	if len(all) < messages {
		return fmt.Errorf("only %d of %d messages arrived", len(all), messages)
	}
	return nil
}

// listen reads one session's SSE stream and reports each message's latency.
func listen(ctx context.Context, client *http.Client, base, session string, ready *sync.WaitGroup, out chan<- time.Duration) {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"rest/push?sessionId="+session, nil)
	res, err := client.Do(req)
	if err != nil {
		ready.Done()
		return
	}
	defer res.Body.Close()
	r := bufio.NewReader(res.Body)
	first := true
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		if first && strings.HasPrefix(line, ":ok") {
			first = false
			ready.Done()
			continue
		}
		p, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		now := time.Now().UnixNano()
		var m struct {
			Data struct {
				SentAt int64 `json:"sentAt"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(p), &m) == nil {
			out <- time.Duration(now - m.Data.SentAt)
		}
	}
}
