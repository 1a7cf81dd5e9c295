// Package queuetest gives each test its own empty database on the test Redis server, so asynq's
// global key names never collide between tests running at the same time.
package queuetest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// URL is the Redis server tests use: FLOWMILL_TEST_REDIS_URL, else the local one.
func URL() string {
	if u := os.Getenv("FLOWMILL_TEST_REDIS_URL"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379"
}

// Redis locks one of databases 1–15 for the test (across test processes, through a key in
// database 0), flushes it, and returns a client on it and its URL. It waits for a free database.
func Redis(t testing.TB) (*redis.Client, string) {
	t.Helper()
	base, err := redis.ParseURL(URL())
	if err != nil {
		t.Fatalf("FLOWMILL_TEST_REDIS_URL: %v", err)
	}
	base.DB = 0
	locks := redis.NewClient(base)
	t.Cleanup(func() { _ = locks.Close() })
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		for db := 1; db <= 15; db++ {
			key := fmt.Sprintf("flowmill:test:db:%d", db)
			ok, err := locks.SetNX(ctx, key, os.Getpid(), 5*time.Minute).Result()
			if err != nil {
				t.Fatalf("redis at %s is needed for this test: %v", URL(), err)
			}
			if !ok {
				continue
			}
			opts := *base
			opts.DB = db
			rdb := redis.NewClient(&opts)
			if err := rdb.FlushDB(ctx).Err(); err != nil {
				t.Fatalf("flush redis db %d: %v", db, err)
			}
			t.Cleanup(func() {
				_ = rdb.FlushDB(context.Background()).Err()
				_ = rdb.Close()
				_ = locks.Del(context.Background(), key).Err()
			})
			u, _ := url.Parse(URL())
			u.Path = fmt.Sprintf("/%d", db)
			return rdb, u.String()
		}
		if time.Now().After(deadline) {
			t.Fatal("no free redis test database within 2 minutes")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// RedisAt opens another client on the database of a URL returned by Redis, closed when the test
// ends.
func RedisAt(t testing.TB, rawURL string) *redis.Client {
	t.Helper()
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		t.Fatalf("parse %s: %v", rawURL, err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}
