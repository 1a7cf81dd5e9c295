package infra

import (
	"context"
	"errors"
	"net"

	"github.com/redis/go-redis/v9"
	"gorm.io/gorm"

	"github.com/flowmill/flowmill/pkg/metrics"
	"github.com/flowmill/flowmill/pkg/store"
)

// countRedisErrors counts the Redis commands, pipelines and dials of rdb that failed to get an
// answer (refused or broken connections, timeouts) in flowmill_redis_errors_total. An answer
// that is an error reply (asynq's scripts use them, go-redis retries NOSCRIPT), a missing key
// (redis.Nil) and a caller's cancellation are not outages and are not counted.
func countRedisErrors(rdb *redis.Client, m *metrics.Metrics) {
	rdb.AddHook(redisErrors{m})
}

type redisErrors struct{ m *metrics.Metrics }

func (h redisErrors) count(err error) {
	var reply redis.Error
	if err == nil || errors.As(err, &reply) || errors.Is(err, context.Canceled) {
		return
	}
	h.m.RedisErrors.Inc()
}

func (h redisErrors) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := next(ctx, network, addr)
		h.count(err)
		return c, err
	}
}

func (h redisErrors) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		h.count(err)
		return err
	}
}

func (h redisErrors) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		h.count(err)
		return err
	}
}

// countDatabaseErrors counts the statements of db that failed because the database could not
// be reached or did not answer in time (store.IsUnavailable) in flowmill_database_errors_total.
// Statements the database refused (a conflict some code expects) and not found are answers.
func countDatabaseErrors(db *gorm.DB, m *metrics.Metrics) error {
	count := func(tx *gorm.DB) {
		if store.IsUnavailable(tx.Error) {
			m.DatabaseErrors.Inc()
		}
	}
	cb := db.Callback()
	for _, register := range []func(string, func(*gorm.DB)) error{
		cb.Create().After("gorm:create").Register, cb.Query().After("gorm:query").Register,
		cb.Update().After("gorm:update").Register, cb.Delete().After("gorm:delete").Register,
		cb.Row().After("gorm:row").Register, cb.Raw().After("gorm:raw").Register,
	} {
		if err := register("flowmill:count_errors", count); err != nil {
			return err
		}
	}
	return nil
}
