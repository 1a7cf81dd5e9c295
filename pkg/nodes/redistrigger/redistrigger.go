// Package redistrigger is the Redis Trigger node (version 1). While its workflow is active it is
// a listener trigger (nodes.Type.Listen, run by exactly one scheduler, see pkg/listener): it
// subscribes to its channels with PSUBSCRIBE, as n8n does, and starts one execution per
// message. Run by hand it waits for the first message and outputs it.
package redistrigger

import (
	"context"
	_ "embed"
	"errors"
	"net"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/redisclient"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var description []byte

//go:embed redis.svg
var iconSVG []byte

// healthCheck is how long the subscription may stay silent before a PING checks the
// connection; a PING unanswered within another healthCheck ends the listener.
const healthCheck = 30 * time.Second

// Type returns version 1 for registration.
func Type() nodes.Type {
	t := nodes.Define(description, nodes.KindTrigger, execute)
	t.IconSVG = iconSVG
	t.Listen = listen
	return t
}

// execute waits for the first message, for a run from the editor.
func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	return nodes.FirstEvent(ctx, ex, listen)
}

// Patterns splits the Channels parameter at commas; surrounding spaces are dropped and empty
// entries skipped. Every entry is a PSUBSCRIBE pattern (*, ? and [...] match).
func Patterns(raw string) []string {
	var out []string
	for part := range strings.SplitSeq(raw, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// listen subscribes and hands each message on. Redis Pub/Sub keeps nothing: a message
// published while no listener is subscribed (between a lost connection and the next
// subscription, or during a takeover) is not delivered.
func listen(ctx context.Context, ex *nodes.Execution, emit nodes.Emit) error {
	raw, err := ex.ParamString("channels", 0)
	if err != nil {
		return err
	}
	patterns := Patterns(raw)
	if len(patterns) == 0 {
		return nodes.Errorf(0, "Channels are mandatory!")
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return err
	}
	parseJSON := workflow.Truthy(opts["jsonParseBody"])
	onlyMessage := workflow.Truthy(opts["onlyMessage"])
	cred, err := ex.Credentials(ctx, "redis")
	if err != nil {
		return err
	}
	s := redisclient.FromCredential(cred)
	client := redisclient.New(s, egress.PolicyOf(ex.HTTPClient()), 1)
	defer client.Close()
	fail := func(err error) error {
		if ctx.Err() != nil {
			return nil
		}
		return &nodes.Error{Message: redisclient.DialMessage(err, s.Address()), ItemIndex: -1, Cause: err}
	}
	pctx, cancel := context.WithTimeout(ctx, redisclient.ConnectTimeout)
	err = client.Ping(pctx).Err()
	cancel()
	if err != nil {
		return fail(err)
	}
	ps := client.PSubscribe(ctx)
	defer ps.Close()
	// A read does not end with its context: closing the subscription ends it.
	defer context.AfterFunc(ctx, func() { _ = ps.Close() })()
	if err := ps.PSubscribe(ctx, patterns...); err != nil {
		return fail(err)
	}
	limit := ex.UnpackMaxBytes()
	pinged := false
	for {
		msg, err := ps.ReceiveTimeout(ctx, healthCheck)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() && !pinged {
				// Silent for a while: ask the server, whose answer arrives as a Pong.
				if err := ps.Ping(ctx); err != nil {
					return fail(err)
				}
				pinged = true
				continue
			}
			if _, ok := errors.AsType[redis.Error](err); ok {
				// The server refused (an ACL without Pub/Sub rights, say).
				return &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
			}
			return &nodes.Error{Message: "The connection to Redis was lost: " + redisclient.DialMessage(err, s.Address()),
				ItemIndex: -1, Cause: err}
		}
		pinged = false
		m, ok := msg.(*redis.Message)
		if !ok {
			continue // subscription confirmations and pongs
		}
		if limit > 0 && int64(len(m.Payload)) > limit {
			ex.Logger().Warn("Redis message too large, skipped", "channel", m.Channel, "bytes", len(m.Payload))
			continue
		}
		if _, err := emit([]workflow.Item{{JSON: Output(m.Channel, m.Payload, parseJSON, onlyMessage)}}, nodes.AwaitNone); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// Output is the item of one message, as n8n's: {channel, message}, the message parsed as JSON
// when asked (kept as text when it is not JSON), or {message} alone.
func Output(channel, payload string, parseJSON, onlyMessage bool) *workflow.Object {
	var message any = payload
	if parseJSON {
		if v, err := workflow.DecodeJSONValue([]byte(payload)); err == nil {
			message = v
		}
	}
	if onlyMessage {
		return workflow.ObjectOf("message", message)
	}
	return workflow.ObjectOf("channel", channel, "message", message)
}
