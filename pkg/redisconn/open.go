// Package redisconn gives a process its Redis connection: Open dials the configured server, and
// StartEmbedded runs the in-process server of the embedded default for Open to dial. The one
// connection it opens serves the task queue, the message bus and everything else on Redis.
package redisconn

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// Open connects to url (redis:// or rediss://) and checks the connection.
func Open(ctx context.Context, url string) (*redis.Client, error) {
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
