package cost

import (
	"context"
	"database/sql"
	"os"

	_ "github.com/jackc/pgx/v5/stdlib" // the probe's own connection

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// Cluster is a scaled stack launched for measuring: its processes reach Postgres through a
// counting proxy and use a Redis server of the benchmark's own, so every count is the
// scenario's alone.
type Cluster struct {
	*benchstack.Cluster
	// Probe is what a Probe of this cluster reads.
	Probe Config
	db    *sql.DB
	pg    *PGCounter
	redis *Redis
}

// Launch starts a measured cluster (cfg.PostgresVia is set here; FLOWMILL_TEST_REDIS_URL is
// pointed at the benchmark's Redis for this process). Stop it with Stop.
func Launch(ctx context.Context, cfg benchstack.ClusterConfig) (*Cluster, error) {
	rd, err := StartRedis(ctx)
	if err != nil {
		return nil, err
	}
	c := &Cluster{redis: rd}
	// The cluster takes its Redis database from the test Redis URL.
	os.Setenv("FLOWMILL_TEST_REDIS_URL", rd.URL)
	pgAddr, err := benchstack.TargetAddr(storetest.PostgresURL())
	if err != nil {
		c.Stop()
		return nil, err
	}
	if c.pg, err = ListenPG(pgAddr); err != nil {
		c.Stop()
		return nil, err
	}
	cfg.PostgresVia = c.pg.Addr()
	if c.Cluster, err = benchstack.Launch(ctx, cfg); err != nil {
		c.Stop()
		return nil, err
	}
	if c.db, err = sql.Open("pgx", c.DatabaseURL); err != nil {
		c.Stop()
		return nil, err
	}
	c.db.SetMaxOpenConns(1)
	c.Probe = Config{Processes: c.PIDs(), DB: c.db, PG: c.pg, Redis: rd}
	return c, nil
}

// Stop ends the cluster, the proxy and the Redis server.
func (c *Cluster) Stop() {
	if c.db != nil {
		c.db.Close()
	}
	if c.Cluster != nil {
		c.Cluster.Stop()
	}
	if c.pg != nil {
		c.pg.Close()
	}
	c.redis.Stop()
}
