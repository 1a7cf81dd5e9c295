// Package postgrestrigger is the Postgres Trigger node (version 1). While its workflow is active
// it is a listener trigger (nodes.Type.Listen, run by exactly one scheduler, see pkg/listener):
// it LISTENs on a channel and starts one execution per notification. In the "table row change
// events" mode it first creates, as n8n does, a trigger function that NOTIFYs each inserted,
// updated or deleted row and a trigger on the table, and drops both when it stops. Run by hand it
// waits for the first notification and outputs it.
package postgrestrigger

import (
	"cmp"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/postgres"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var description []byte

//go:embed postgres.svg
var iconSVG []byte

// healthCheck is how long the connection may stay silent before a query checks it.
const healthCheck = 30 * time.Second

// cleanupTimeout bounds the UNLISTEN and DROP statements run when the listener stops.
const cleanupTimeout = 10 * time.Second

// Type returns version 1 for registration.
func Type() nodes.Type {
	t := nodes.Define(description, nodes.KindTrigger, execute)
	t.IconSVG = iconSVG
	t.Listen = listen
	t.ListSearch = map[string]nodes.ListSearchFunc{"searchSchema": postgres.SchemaSearch, "searchTables": postgres.TableSearch}
	return t
}

// execute waits for the first notification, for a run from the editor.
func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	return nodes.FirstEvent(ctx, ex, listen)
}

// Plan is what a listener sets up: the channel it LISTENs on and, in the createTrigger mode, the
// function and trigger it creates on the table.
type Plan struct {
	// Channel is the channel's name as Postgres stores it.
	Channel string
	// CreateTrigger is set in the "table row change events" mode.
	CreateTrigger     bool
	Schema, Table     string
	Function, Trigger string
	// FiresOn is INSERT, UPDATE or DELETE.
	FiresOn string
	// Replace replaces an existing function and trigger of the same names.
	Replace bool
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_$]*$`)

// channelName checks a channel name and returns it as Postgres stores it. It must be a plain
// identifier (letters, digits, _ and $, not starting with a digit) of at most 63 bytes; like the
// unquoted name n8n sends in LISTEN it is folded to lower case.
func channelName(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return "", errors.New("Channel Name is required")
	case strings.Contains(raw, "-"):
		return "", errors.New("Channel name cannot contain hyphens (-)")
	case !plainIdent.MatchString(raw):
		return "", fmt.Errorf("Channel name %q is not valid: use letters, digits, _ and $, not starting with a digit", raw)
	case len(raw) > 63:
		return "", fmt.Errorf("Channel name %q is longer than 63 characters", raw)
	}
	return strings.ToLower(raw), nil
}

// nameSuffix is n8n's suffix of the default names: the node's id with _ for -, and _manual for
// a run from the editor. A node without an id (older workflows) gets a hash of the workflow id
// and node name instead.
func nameSuffix(ex *nodes.Execution) string {
	id := ex.Node().ID
	if id == "" {
		sum := sha256.Sum256([]byte(ex.ExprContext(0).Workflow.ID + "\x00" + ex.Node().Name))
		id = hex.EncodeToString(sum[:12])
	}
	suffix := strings.ReplaceAll(id, "-", "_")
	if ex.Mode() == workflow.ModeManual {
		suffix += "_manual"
	}
	return suffix
}

// PlanOf reads the node's parameters into a Plan, with n8n's default names.
func PlanOf(ex *nodes.Execution) (*Plan, error) {
	mode, err := ex.ParamString("triggerMode", 0)
	if err != nil {
		return nil, err
	}
	suffix := nameSuffix(ex)
	if mode == "listenTrigger" {
		raw, err := ex.ParamString("channelName", 0)
		if err != nil {
			return nil, err
		}
		ch, err := channelName(raw)
		if err != nil {
			return nil, nodes.Errorf(0, "%v", err)
		}
		return &Plan{Channel: ch}, nil
	}
	if mode != "createTrigger" {
		return nil, nodes.Errorf(0, "The trigger mode %q is not known", mode)
	}
	add, err := ex.ParamMap("additionalFields", 0)
	if err != nil {
		return nil, err
	}
	text := func(k string) string { s, _ := add[k].(string); return strings.TrimSpace(s) }
	p := &Plan{CreateTrigger: true, Function: "n8n_trigger_function_" + suffix, Trigger: "n8n_trigger_" + suffix,
		Channel: "n8n_channel_" + suffix, Replace: workflow.Truthy(add["replaceIfExists"])}
	if s := text("channelName"); s != "" {
		if p.Channel, err = channelName(s); err != nil {
			return nil, nodes.Errorf(0, "%v", err)
		}
	}
	if s := text("functionName"); s != "" {
		s = strings.TrimSpace(strings.TrimSuffix(s, "()"))
		if s == "" || strings.ContainsAny(s, "()") {
			return nil, nodes.Errorf(0, "Function Name %q is not valid: give a name, optionally followed by ()", text("functionName"))
		}
		p.Function = s
	}
	if s := text("triggerName"); s != "" {
		p.Trigger = s
	}
	// n8n replaces an existing function and trigger unless one of the names is given.
	p.Replace = p.Replace || (text("functionName") == "" && text("triggerName") == "")
	schema, err := ex.Param("schema", 0)
	if err != nil {
		return nil, err
	}
	table, err := ex.Param("tableName", 0)
	if err != nil {
		return nil, err
	}
	p.Schema, p.Table = postgres.LocatorValue(schema), postgres.LocatorValue(table)
	if p.Schema == "" {
		p.Schema = "public"
	}
	if p.Table == "" {
		return nil, nodes.Errorf(0, "Table Name is required")
	}
	fires, err := ex.ParamString("firesOn", 0)
	if err != nil {
		return nil, err
	}
	switch fires {
	case "INSERT", "UPDATE", "DELETE":
		p.FiresOn = fires
	default:
		return nil, nodes.Errorf(0, "Event to listen for %q is not INSERT, UPDATE or DELETE", fires)
	}
	return p, nil
}

func ident(parts ...string) string { return pgx.Identifier(parts).Sanitize() }

// Statements are the SQL that creates the function and the trigger, every name quoted. The
// channel, a checked plain identifier, is the only text put in a string literal.
func (p *Plan) Statements() []string {
	row := "new"
	if p.FiresOn == "DELETE" {
		row = "old"
	}
	body := fmt.Sprintf(` RETURNS trigger LANGUAGE plpgsql COST 100 VOLATILE NOT LEAKPROOF AS $BODY$ begin perform pg_notify('%s', row_to_json(%s)::text); return null; end; $BODY$`,
		p.Channel, row)
	target := ident(p.Schema, p.Table)
	create := fmt.Sprintf(`CREATE TRIGGER %s AFTER %s ON %s FOR EACH ROW EXECUTE FUNCTION %s()`, ident(p.Trigger), p.FiresOn, target, ident(p.Function))
	if p.Replace {
		return []string{
			`CREATE OR REPLACE FUNCTION ` + ident(p.Function) + `()` + body,
			fmt.Sprintf(`DROP TRIGGER IF EXISTS %s ON %s`, ident(p.Trigger), target),
			create,
		}
	}
	return []string{`CREATE FUNCTION ` + ident(p.Function) + `()` + body, create}
}

// Drops are the statements that remove what Statements created, as n8n's close does.
func (p *Plan) Drops() []string {
	return []string{
		fmt.Sprintf(`DROP FUNCTION IF EXISTS %s() CASCADE`, ident(p.Function)),
		fmt.Sprintf(`DROP TRIGGER IF EXISTS %s ON %s CASCADE`, ident(p.Trigger), ident(p.Schema, p.Table)),
	}
}

// lockKey names the session advisory lock a listener holds while its function and trigger
// stand, so that one still dropping them (a holder that lost its lease) and one creating them
// (the one that took over) never overlap.
func (p *Plan) lockKey() string {
	return fmt.Sprintf("flowmill postgres trigger %q %q %q", p.Schema, p.Table, p.Trigger)
}

// lockSQL takes the advisory lock of a Plan.lockKey for the session.
const lockSQL = `SELECT pg_try_advisory_lock(hashtextextended($1, 0))`

// connection opens the node's connection with its options.
func connection(ctx context.Context, ex *nodes.Execution) (*pgx.Conn, error) {
	cred, err := ex.Credentials(ctx, "postgres")
	if err != nil {
		return nil, err
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	timeout, keepAlive := 30*time.Second, time.Duration(0)
	if n, ok := workflow.Number(opts["connectionTimeout"]); ok && n > 0 {
		timeout = time.Duration(n * float64(time.Second))
	}
	if n, ok := workflow.Number(opts["delayClosingIdleConnection"]); ok && n > 0 {
		keepAlive = time.Duration(n * float64(time.Second))
	}
	return postgres.Dial(ctx, cred, egress.PolicyOf(ex.HTTPClient()), timeout, keepAlive)
}

// listen sets up the channel (and the trigger) and hands each notification on. On the way out it
// UNLISTENs and drops the function and trigger it created. Notifications are not queued by
// Postgres for a session that is not listening: those sent while no listener stands are lost.
func listen(ctx context.Context, ex *nodes.Execution, emit nodes.Emit) error {
	p, err := PlanOf(ex)
	if err != nil {
		return err
	}
	conn, err := connection(ctx, ex)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer func() { _ = conn.Close(context.WithoutCancel(ctx)) }()
	if p.CreateTrigger {
		var got bool
		if err := conn.QueryRow(ctx, lockSQL, p.lockKey()).Scan(&got); err != nil {
			return queryError(ctx, err, "")
		}
		if !got {
			return nodes.Errorf(0, "The trigger %s on %s.%s is held by another listener (another active workflow with this node, or one still stopping)",
				p.Trigger, p.Schema, p.Table)
		}
		failed := ""
		if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			for _, q := range p.Statements() {
				if _, err := tx.Exec(ctx, q); err != nil {
					failed = q
					return err
				}
			}
			return nil
		}); err != nil {
			return queryError(ctx, err, failed)
		}
		defer func() { dropAll(ctx, ex, conn, p) }()
	}
	if _, err := conn.Exec(ctx, `LISTEN `+ident(p.Channel)); err != nil {
		return queryError(ctx, err, "")
	}
	limit := ex.UnpackMaxBytes()
	for {
		wctx, cancel := context.WithTimeout(ctx, healthCheck)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && !conn.IsClosed() {
				// Silent for a while: check that the server still answers.
				pctx, cancel := context.WithTimeout(ctx, healthCheck)
				err = conn.Ping(pctx)
				cancel()
				if err == nil {
					continue
				}
			}
			if ctx.Err() != nil {
				return nil
			}
			return lost(err)
		}
		if limit > 0 && int64(len(n.Payload)) > limit {
			ex.Logger().Warn("Postgres notification too large, skipped", "channel", n.Channel, "bytes", len(n.Payload))
			continue
		}
		if _, err := emit([]workflow.Item{{JSON: Output(n)}}, nodes.AwaitNone); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

func lost(err error) error {
	ne := postgres.NodeError(err, "")
	ne.Message = "The connection to Postgres was lost: " + ne.Message
	return ne
}

func queryError(ctx context.Context, err error, query string) error {
	if ctx.Err() != nil {
		return nil
	}
	return postgres.NodeError(err, query)
}

// dropAll removes the function and trigger, on the listener's connection when it still stands
// and on a new one otherwise. Failures are logged: the listener has stopped either way.
func dropAll(ctx context.Context, ex *nodes.Execution, conn *pgx.Conn, p *Plan) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if conn.IsClosed() || conn.Ping(cctx) != nil {
		c, err := connection(cctx, ex)
		if err != nil {
			ex.Logger().Warn("Postgres trigger not dropped", "trigger", p.Trigger, "err", err)
			return
		}
		defer func() { _ = c.Close(cctx) }()
		// The lock went with the lost session: drop only while no other listener holds it.
		var got bool
		if err := c.QueryRow(cctx, lockSQL, p.lockKey()).Scan(&got); err != nil || !got {
			ex.Logger().Warn("Postgres trigger not dropped", "trigger", p.Trigger, "err", cmp.Or[error](err, errors.New("held by another listener")))
			return
		}
		conn = c
	}
	for _, q := range p.Drops() {
		if _, err := conn.Exec(cctx, q); err != nil {
			ex.Logger().Warn("Postgres trigger not dropped", "trigger", p.Trigger, "err", err)
			return
		}
	}
}

// Output is the item of one notification, as n8n's (node-postgres's notification message): the
// payload parsed as JSON when it is JSON.
func Output(n *pgconn.Notification) *workflow.Object {
	var payload any = n.Payload
	if n.Payload != "" {
		if v, err := workflow.DecodeJSONValue([]byte(n.Payload)); err == nil {
			payload = v
		}
	}
	// length is the protocol message's: itself, the process id and both strings with their NULs.
	length := 4 + 4 + len(n.Channel) + 1 + len(n.Payload) + 1
	return workflow.ObjectOf("length", float64(length), "processId", float64(n.PID), "channel", n.Channel,
		"payload", payload, "name", "notification")
}
