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
	u, release, err := LockDB(context.Background(), URL(), 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return RedisAt(t, u), u
}

// LockDB takes one of databases 1–15 on the server at base for the caller, flushes it and
// returns its URL and a release function (which flushes it again). Holders in other processes
// are respected through lock keys in database 0 that expire after 30 minutes.
func LockDB(ctx context.Context, base string, wait time.Duration) (string, func(), error) {
	opts, err := redis.ParseURL(base)
	if err != nil {
		return "", nil, fmt.Errorf("redis URL %s: %w", base, err)
	}
	opts.DB = 0
	locks := redis.NewClient(opts)
	deadline := time.Now().Add(wait)
	for {
		for db := 1; db <= 15; db++ {
			key := fmt.Sprintf("flowmill:test:db:%d", db)
			ok, err := locks.SetNX(ctx, key, os.Getpid(), 30*time.Minute).Result()
			if err != nil {
				_ = locks.Close()
				return "", nil, fmt.Errorf("redis at %s is needed: %w", base, err)
			}
			if !ok {
				continue
			}
			dbOpts := *opts
			dbOpts.DB = db
			rdb := redis.NewClient(&dbOpts)
			release := func() {
				_ = rdb.FlushDB(context.Background()).Err()
				_ = rdb.Close()
				_ = locks.Del(context.Background(), key).Err()
				_ = locks.Close()
			}
			if err := rdb.FlushDB(ctx).Err(); err != nil {
				release()
				return "", nil, fmt.Errorf("flush redis db %d: %w", db, err)
			}
			u, _ := url.Parse(base)
			u.Path = fmt.Sprintf("/%d", db)
			return u.String(), release, nil
		}
		if time.Now().After(deadline) {
			_ = locks.Close()
			return "", nil, fmt.Errorf("no free redis test database within %v", wait)
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
