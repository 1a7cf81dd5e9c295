package queue

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// OpenRedis connects to url (redis:// or rediss://) and checks the connection.
func OpenRedis(ctx context.Context, url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("parse redis URL: %w", err)
	}
	rdb := redis.NewClient(opts)
	if err := rdb.Ping(ctx).Err(); err != nil {
		_ = rdb.Close()
		return nil, fmt.Errorf("reach redis at %s: %w", opts.Addr, err)
	}
	return rdb, nil
}
