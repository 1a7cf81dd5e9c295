// Package infra opens what every Flowmill process stands on, from its configuration: the
// database, Redis (external, or the embedded one), the queue client, the push publisher, the
// node registry and the expression evaluator, each built once per process.
package infra

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/filefence"
	"github.com/flowmill/flowmill/pkg/metrics"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/nodes/custom"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/redisconn"
	"github.com/flowmill/flowmill/pkg/store"
)

// Infra is the shared plumbing of one process. Close releases it in reverse order.
type Infra struct {
	Config    *config.Config
	Log       *slog.Logger
	Store     *store.Store
	Redis     *redis.Client
	Queue     *queue.Client
	Publisher *push.Publisher
	Metrics   *metrics.Metrics
	// Files is the folder file nodes may use (FLOWMILL_FILES_DIR), created by Open.
	Files *filefence.Fence
	// Nodes is the instance's node registry (FLOWMILL_NODES_EXCLUDE and _ENABLE applied) and Eval
	// its expression evaluator: built once per process and shared by the api, the runner and
	// the trigger firer.
	Nodes    *nodes.Registry
	Eval     *expr.Evaluator
	embedded *redisconn.Embedded
	settle   *time.Timer
	profiler *profiler
}

// settleAfter is how long after Open a process hands the memory of its start-up back to the
// system: by then it has built its routes, registries and caches, and what start-up
// allocated and dropped (migrations, node descriptions, bundles parsed once) is garbage that
// the runtime's own scavenger would return only over several minutes.
const settleAfter = 5 * time.Second

// Open creates the files folder, connects to the database (applying migrations) and to Redis,
// starting the embedded Redis when no Redis URL is configured, and checks that the encryption key matches the one the
// database was first used with.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger) (*Infra, error) {
	registry, err := BuildNodes(cfg)
	if err != nil {
		return nil, err
	}
	in := &Infra{Config: cfg, Log: log, Metrics: metrics.New(), Nodes: registry}
	if err := cfg.EnsureEncryptionKey(); err != nil {
		return nil, err
	}
	scriptTimeout, scriptMemory := cfg.ScriptLimits()
	if in.Eval, err = expr.New(expr.Options{DefaultTimezone: cfg.Timezone, ScriptTimeout: scriptTimeout, MemoryLimit: scriptMemory}); err != nil {
		return nil, err
	}
	if in.Files, err = filefence.New(filefence.Options{Root: cfg.FilesDir, DataDir: cfg.DataDir}); err != nil {
		return nil, err
	}
	// The pool does not grow with the worker concurrency: runs hold a connection only for single
	// statements, and pools sized per process add up past the server's connection limit.
	in.Store, err = store.Open(ctx, store.Options{DatabaseURL: cfg.DatabaseURL, SQLitePath: cfg.SQLitePath(),
		MaxOpenConns: cfg.DatabasePoolSize, Logger: log})
	if err != nil {
		return nil, err
	}
	if err := countDatabaseErrors(in.Store.DB, in.Metrics); err != nil {
		in.Close()
		return nil, err
	}
	if err := checkKey(ctx, in.Store, cfg.EncryptionKey); err != nil {
		in.Close()
		return nil, err
	}
	redisURL := cfg.RedisURL
	if cfg.Embedded() {
		in.embedded, err = redisconn.StartEmbedded()
		if err != nil {
			in.Close()
			return nil, err
		}
		redisURL = in.embedded.URL()
	}
	in.Redis, err = redisconn.Open(ctx, redisURL)
	if err != nil {
		in.Close()
		return nil, err
	}
	countRedisErrors(in.Redis, in.Metrics)
	in.Queue = queue.NewClientWith(in.Redis, queue.ClientConfig{ExecutionTimeout: cfg.ExecutionTaskTimeout()})
	in.Publisher = push.NewPublisher(in.Redis)
	in.Metrics.RegisterQueueDepth(in.Queue)
	if cfg.PprofAddr != "" {
		if in.profiler, err = startProfiler(cfg.PprofAddr, log); err != nil {
			in.Close()
			return nil, err
		}
	}
	in.settle = time.AfterFunc(settleAfter, debug.FreeOSMemory)
	return in, nil
}

// BuildNodes is the instance's node registry (core.ForInstance) with the custom node packages
// of FLOWMILL_CUSTOM_EXTENSIONS added and their credential types joined to the credential
// list. Every process calls it at start and refuses to start on its error, which names the
// file and field at fault.
func BuildNodes(cfg *config.Config) (*nodes.Registry, error) {
	r := core.ForInstance(cfg)
	if cfg.CustomExtensions == "" {
		return r, nil
	}
	pkgs, err := custom.Load(cfg.CustomExtensions)
	if err != nil {
		return nil, err
	}
	builtin := func(name string) bool {
		_, ok := credential.Lookup(name)
		return ok && !credential.IsExtra(name)
	}
	if err := custom.Register(r, pkgs, builtin); err != nil {
		return nil, err
	}
	for _, p := range pkgs {
		for _, c := range p.Credentials {
			var t credential.Type
			if err := json.Unmarshal(c.JSON, &t); err != nil {
				return nil, fmt.Errorf("custom nodes: package %s (%s): credential type %s: %w", p.Name, p.Dir, c.Name, err)
			}
			if err := credential.RegisterExtra(&t); err != nil {
				return nil, fmt.Errorf("custom nodes: package %s (%s): %w", p.Name, p.Dir, err)
			}
		}
	}
	return r, nil
}

// ErrKeyMismatch means this process's encryption key is not the one the database was set up
// with: credentials written by other processes could not be read.
var ErrKeyMismatch = errors.New("FLOWMILL_ENCRYPTION_KEY differs from the key this database was first used with; every process must share one key")

func checkKey(ctx context.Context, s *store.Store, key string) error {
	sum := sha256.Sum256([]byte("flowmill-key-check:" + key))
	mine := hex.EncodeToString(sum[:])
	stored, err := s.InitSetting(ctx, store.SettingEncryptionKeyHash, mine)
	if err != nil {
		return fmt.Errorf("check encryption key: %w", err)
	}
	if stored != mine {
		return ErrKeyMismatch
	}
	return nil
}

// Close releases everything Open acquired. Safe on a partly opened Infra.
func (in *Infra) Close() {
	if in.settle != nil {
		in.settle.Stop()
	}
	if in.Redis != nil {
		_ = in.Redis.Close()
	}
	if in.embedded != nil {
		in.embedded.Stop()
	}
	if in.Store != nil {
		_ = in.Store.Close()
	}
	if in.profiler != nil {
		in.profiler.stop()
	}
}

// InstanceID identifies the installation to the editor: derived from the encryption key, so it
// is stable across restarts and equal on every process.
func (in *Infra) InstanceID() string {
	sum := sha256.Sum256([]byte(in.Config.EncryptionKey))
	return hex.EncodeToString(sum[:])
}

// NodeHost is what nodes of this instance's runs get from their host: the file fence, the HTTP
// client behind the egress policy, the idempotency header and the size limits. The api and the
// worker share it, so a manual run and a queued one see the same settings.
func NodeHost(cfg *config.Config, files *filefence.Fence) nodes.Host {
	return nodes.Host{Files: files, HTTP: cfg.Egress().Client(egress.Options{}),
		IdempotencyHeader: cfg.HTTPIdempotencyKeyHeader(), Workflows: cfg.WorkflowLimits(),
		UnpackMaxBytes: cfg.UnpackMaxBytes()}
}
