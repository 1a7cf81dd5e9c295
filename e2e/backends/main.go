// Command backends lets the end-to-end specs prepare and read the local services a workflow
// talks to: Postgres, Redis and RabbitMQ. Each run does one thing and prints JSON on stdout;
// failures go to stderr with exit status 1.
//
//	bin/backends sql -url postgres://… 'CREATE TABLE …' 'INSERT …'   run statements in order
//	bin/backends redis-get -url redis://127.0.0.1:6379/3 -key K      → {"exists":true,"value":"…","ttlMs":3599000}
//	bin/backends amqp-purge -url amqp://… -queue Q                   declare Q (durable) and empty it → {"purged":n}
//	bin/backends amqp-get -url amqp://… -queue Q -wait 10s           → [{"body":"…","contentType":"…","persistent":true}, …]
//
// amqp-get takes (and acknowledges) every message in the queue, waiting up to -wait for the
// first one.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/redis/go-redis/v9"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: backends sql|redis-get|amqp-purge|amqp-get [flags]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := run(ctx, os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "backends:", err)
		os.Exit(1)
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}

func run(ctx context.Context, cmd string, args []string) (any, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	url := fs.String("url", "", "service URL")
	key := fs.String("key", "", "Redis key")
	queue := fs.String("queue", "", "RabbitMQ queue")
	wait := fs.Duration("wait", 10*time.Second, "how long amqp-get waits for the first message")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *url == "" {
		return nil, errors.New("-url is required")
	}
	switch cmd {
	case "sql":
		return execSQL(ctx, *url, fs.Args())
	case "redis-get":
		return redisGet(ctx, *url, *key)
	case "amqp-purge":
		return amqpPurge(*url, *queue)
	case "amqp-get":
		return amqpGet(ctx, *url, *queue, *wait)
	}
	return nil, fmt.Errorf("unknown command %q", cmd)
}

func execSQL(ctx context.Context, url string, statements []string) (any, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	for _, s := range statements {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
	}
	return map[string]int{"statements": len(statements)}, nil
}

func redisGet(ctx context.Context, url, key string) (any, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	c := redis.NewClient(opts)
	defer c.Close()
	v, err := c.Get(ctx, key).Result()
	if errors.Is(err, redis.Nil) {
		return map[string]any{"exists": false}, nil
	}
	if err != nil {
		return nil, err
	}
	ttl, err := c.PTTL(ctx, key).Result()
	if err != nil {
		return nil, err
	}
	return map[string]any{"exists": true, "value": v, "ttlMs": ttl.Milliseconds()}, nil
}

func channel(url string) (*amqp.Connection, *amqp.Channel, error) {
	conn, err := amqp.Dial(url)
	if err != nil {
		return nil, nil, err
	}
	ch, err := conn.Channel()
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	return conn, ch, nil
}

func amqpPurge(url, queue string) (any, error) {
	conn, ch, err := channel(url)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	// As the RabbitMQ node declares it by default: durable, not exclusive, not auto-deleted.
	if _, err := ch.QueueDeclare(queue, true, false, false, false, nil); err != nil {
		return nil, err
	}
	n, err := ch.QueuePurge(queue, false)
	if err != nil {
		return nil, err
	}
	return map[string]int{"purged": n}, nil
}

type message struct {
	Body        string `json:"body"`
	ContentType string `json:"contentType"`
	Persistent  bool   `json:"persistent"`
}

func amqpGet(ctx context.Context, url, queue string, wait time.Duration) (any, error) {
	conn, ch, err := channel(url)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	deadline := time.Now().Add(wait)
	out := []message{}
	for {
		d, ok, err := ch.Get(queue, false)
		if err != nil {
			return nil, err
		}
		if ok {
			if err := d.Ack(false); err != nil {
				return nil, err
			}
			out = append(out, message{Body: string(d.Body), ContentType: d.ContentType, Persistent: d.DeliveryMode == amqp.Persistent})
			continue
		}
		if len(out) > 0 || time.Now().After(deadline) {
			return out, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
