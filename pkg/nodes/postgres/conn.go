package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/flowmill/flowmill/pkg/connpool"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// pool is a pgx pool the connection cache can close.
type pool struct{ *pgxpool.Pool }

func (p pool) Close() error { p.Pool.Close(); return nil }

// pools holds one pool per credential and connection options for the whole process.
var pools = connpool.New[pool](connpool.Options{})

// Settings are what a pool is opened with: the credential's data and the node's connection
// options.
type Settings struct {
	Host, Database, User, Password, SSL string
	Port                                int
	AllowUnauthorizedCerts, SSHTunnel   bool
	MaxConnections                      int
	ConnectTimeout, KeepAliveDelay      time.Duration
}

// SettingsOf reads a postgres credential.
func SettingsOf(data map[string]any) Settings {
	s := Settings{
		Host: str(data["host"], "localhost"), Database: str(data["database"], "postgres"),
		User: str(data["user"], "postgres"), Password: str(data["password"], ""), SSL: str(data["ssl"], "disable"),
		Port: 5432, MaxConnections: 100,
		AllowUnauthorizedCerts: data["allowUnauthorizedCerts"] == true, SSHTunnel: data["sshTunnel"] == true,
	}
	if p := jsv.ToNumber(data["port"]); p > 0 {
		s.Port = int(p)
	}
	if n := jsv.ToNumber(data["maxConnections"]); n >= 1 {
		s.MaxConnections = int(n)
	}
	return s
}

func str(v any, fallback string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	if v != nil {
		if f, ok := v.(float64); ok {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
	}
	return fallback
}

// errSSH is the answer for credentials that ask for an SSH tunnel.
var errSSH = errors.New("SSH tunnels are not supported")

// config builds the pgx pool configuration; every dial goes through the egress policy.
func (s Settings) config(policy *egress.Policy) (*pgxpool.Config, error) {
	if s.SSHTunnel {
		return nil, errSSH
	}
	mode := "disable"
	switch {
	case s.AllowUnauthorizedCerts:
		mode = "require" // encrypted, certificate not checked
	case s.SSL == "allow":
		mode = "allow"
	case s.SSL == "require" || s.SSL == "verify-full":
		mode = "verify-full"
	}
	u := url.URL{Scheme: "postgres", User: url.UserPassword(s.User, s.Password),
		Host: net.JoinHostPort(s.Host, strconv.Itoa(s.Port)), Path: "/" + s.Database}
	u.RawQuery = url.Values{"sslmode": {mode}}.Encode()
	cfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, fmt.Errorf("invalid connection settings: %w", err)
	}
	timeout := s.ConnectTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	cfg.ConnConfig.ConnectTimeout = timeout
	dialer := policy.Dialer(timeout)
	if s.KeepAliveDelay > 0 {
		dialer.KeepAlive = s.KeepAliveDelay
	}
	cfg.ConnConfig.DialFunc = dialer.DialContext
	cfg.ConnConfig.LookupFunc = func(ctx context.Context, host string) ([]string, error) {
		return []string{host}, nil // the dialer resolves and checks each address
	}
	cfg.MaxConns = int32(min(s.MaxConnections, 1000))
	// node-postgres closes a connection idle for 10 seconds
	cfg.MaxConnIdleTime = 10 * time.Second
	return cfg, nil
}

// acquire returns the cached pool for s and its release.
func acquire(ctx context.Context, s Settings, policy *egress.Policy) (*pgxpool.Pool, func(), string, error) {
	key := connpool.Key(s)
	p, release, err := pools.Get(key, func() (pool, error) {
		cfg, err := s.config(policy)
		if err != nil {
			return pool{}, err
		}
		pl, err := pgxpool.NewWithConfig(context.WithoutCancel(ctx), cfg)
		if err != nil {
			return pool{}, err
		}
		return pool{pl}, nil
	})
	if err != nil {
		return nil, nil, "", err
	}
	return p.Pool, release, key, nil
}

// Connect opens a connection with a credential's data and pings the server (the credential
// test).
func Connect(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	s := SettingsOf(data)
	cfg, err := s.config(policy)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return errors.New(connectMessage(err))
	}
	defer conn.Close(context.Background())
	if err := conn.Ping(ctx); err != nil {
		return errors.New(connectMessage(err))
	}
	return nil
}

// Dial opens a connection of its own (outside the shared pools) with a credential's data, for a
// listener that keeps it for LISTEN. timeout and keepAlive are the node's connection options
// (0: the defaults). Failures are node errors worded as n8n's.
func Dial(ctx context.Context, data map[string]any, policy *egress.Policy, timeout, keepAlive time.Duration) (*pgx.Conn, error) {
	s := SettingsOf(data)
	s.ConnectTimeout, s.KeepAliveDelay = timeout, keepAlive
	cfg, err := s.config(policy)
	if err != nil {
		return nil, pgError(err, "", -1)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, pgError(err, "", -1)
	}
	return conn, nil
}

// NodeError turns an error of a query on a connection from Dial into n8n's node error.
func NodeError(err error, query string) *nodes.Error { return pgError(err, query, -1) }

// connectMessage is the message n8n shows for a failed connection.
func connectMessage(err error) string {
	if r, ok := egress.Refusal(err); ok {
		return r.Error()
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message
	}
	var ne *net.OpError
	if errors.As(err, &ne) {
		msg := ne.Err.Error()
		switch {
		case strings.Contains(msg, "connection refused"):
			return "Connection refused"
		case strings.Contains(msg, "no such host"):
			return "Host not found"
		case ne.Timeout():
			return "Connection timed out"
		}
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return "Host not found"
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "Connection timed out"
	}
	return err.Error()
}

// pgError turns a driver error into n8n's node error: the server's message with its detail or
// hint (or the failed query) as description, and n8n's words for connection failures.
func pgError(err error, query string, itemIndex int) *nodes.Error {
	if ne, ok := errors.AsType[*nodes.Error](err); ok {
		return ne
	}
	e := &nodes.Error{Message: err.Error(), ItemIndex: itemIndex, Cause: err}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		e.Message = pe.Message
		e.Description = pe.Detail
		if e.Description == "" {
			e.Description = pe.Hint
		}
		if pe.Position > 0 && strings.HasPrefix(pe.Message, "syntax error at or near") {
			line := strings.Count(query[:min(int(pe.Position)-1, len(query))], "\n") + 1
			e.Message = fmt.Sprintf("Syntax error at line %d near %s", line, strings.TrimPrefix(pe.Message, "syntax error at or near "))
		}
		if e.Description == "" && query != "" {
			e.Description = "Failed query: " + query
		}
		return e
	}
	if errors.Is(err, errSSH) {
		return e
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) || isNet(err) {
		e.Message = connectMessage(err)
		if e.Message != err.Error() {
			e.Description = err.Error()
		}
	}
	return e
}

func isNet(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

// options the output conversion honours.
type outOpts struct {
	largeNumbers bool // bigint and numeric as numbers (largeNumbersOutput: numbers)
}

// rows reads every row of a result into items, converting values as node-postgres does.
func readRows(rows pgx.Rows, o outOpts) ([]*workflow.Object, error) {
	defer rows.Close()
	fields := rows.FieldDescriptions()
	var out []*workflow.Object
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		obj := workflow.NewObject(len(fields))
		for i, f := range fields {
			obj.Set(f.Name, convert(vals[i], f.DataTypeOID, o))
		}
		out = append(out, obj)
	}
	return out, rows.Err()
}

// convert maps a decoded Postgres value to item JSON the way node-postgres types it: bigint and
// numeric as strings (unless asked for numbers), dates as ISO timestamps, json parsed, bytea as
// a Buffer.
func convert(v any, oid uint32, o outOpts) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int64:
		if oid == pgtype.Int8OID && !o.largeNumbers {
			return strconv.FormatInt(x, 10)
		}
		return float64(x)
	case int32:
		return float64(x)
	case int16:
		return float64(x)
	case float32:
		return float64(x)
	case float64, bool, string:
		return x
	case pgtype.Numeric:
		if !x.Valid {
			return nil
		}
		b, _ := x.MarshalJSON()
		s := string(b)
		if o.largeNumbers {
			f, _ := strconv.ParseFloat(s, 64)
			return f
		}
		return s
	case *big.Int:
		return x.String()
	case time.Time:
		return x.UTC().Format("2006-01-02T15:04:05.000Z")
	case [16]byte:
		return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
	case []byte:
		data := make([]any, len(x))
		for i, b := range x {
			data[i] = float64(b)
		}
		return workflow.ObjectOf("type", "Buffer", "data", data)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = convert(e, 0, o)
		}
		return out
	case map[string]any:
		b, _ := json.Marshal(x)
		j, _ := workflow.DecodeJSONValue(b)
		return j
	case pgtype.Interval:
		return intervalObject(x)
	case fmt.Stringer:
		return x.String()
	}
	// json(b) values come back as decoded Go values; round-trip keeps key order as sent
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	j, err := workflow.DecodeJSONValue(b)
	if err != nil {
		return fmt.Sprint(v)
	}
	return j
}

func intervalObject(x pgtype.Interval) any {
	o := workflow.NewObject(0)
	if y := x.Months / 12; y != 0 {
		o.Set("years", float64(y))
	}
	if m := x.Months % 12; m != 0 {
		o.Set("months", float64(m))
	}
	if x.Days != 0 {
		o.Set("days", float64(x.Days))
	}
	us := x.Microseconds
	if h := us / 3600e6; h != 0 {
		o.Set("hours", float64(h))
	}
	if m := us / 60e6 % 60; m != 0 {
		o.Set("minutes", float64(m))
	}
	if s := us / 1e6 % 60; s != 0 {
		o.Set("seconds", float64(s))
	}
	if ms := us % 1e6; ms != 0 {
		o.Set("milliseconds", float64(ms)/1000)
	}
	return o
}

// plain turns item JSON into a query parameter: text the server parses for the column's type
// (as pg-promise formats values into literals), objects and arrays as JSON, null as NULL.
func plain(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case *workflow.Object, map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}

// ident quotes a (possibly schema-qualified by the caller) identifier.
func ident(parts ...string) string { return pgx.Identifier(parts).Sanitize() }
