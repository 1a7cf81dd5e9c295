// Package rabbitmq is the RabbitMQ node (versions 1 and 1.1): it publishes one message per item
// to a queue or an exchange with the rabbitmq credential. Connections come from pkg/amqpconn (one
// per credential, shared by runs; a channel per run) and go through the egress policy. The
// channel is in confirm mode, so an item reports success only once the broker took the message.
package rabbitmq

import (
	"context"
	_ "embed"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/flowmill/flowmill/pkg/amqpconn"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

//go:embed rabbitmq.svg
var iconSVG []byte

// TypeName is the node's type.
const TypeName = "n8n-nodes-base.rabbitmq"

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.IconSVG = iconSVG
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	if operation == "deleteMessage" {
		// The RabbitMQ Trigger that started the run (Delete From Queue When "Specified Later in
		// Workflow") acknowledges its message once this node ran, whichever worker runs it; in
		// any other run there is nothing to delete and the items pass, as in n8n.
		ex.AcknowledgeMessage()
		return [][]workflow.Item{ex.InputData(0)}, nil
	}
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	if mode == "" {
		mode = "queue"
	}
	if mode != "queue" && mode != "exchange" {
		return nil, nodes.Errorf(-1, "The operation %q is not known!", mode)
	}
	items := ex.InputData(0)
	p, err := readParams(ex, mode)
	if err != nil {
		return nil, err
	}
	creds, err := ex.Credentials(ctx, "rabbitmq")
	if err != nil {
		return nil, err
	}
	s, err := amqpconn.Open(ctx, egress.PolicyOf(ex.HTTPClient()), amqpconn.FromCredential(creds))
	if err != nil {
		return nil, fail(ctx, err)
	}
	defer s.Close()
	if mode == "queue" {
		err = s.AssertQueue(p.queue, amqpconn.QueueOptions{
			Durable: p.durable, AutoDelete: p.autoDelete, Exclusive: p.exclusive, Arguments: p.queueArgs(),
		})
	} else {
		err = s.AssertExchange(p.exchange, p.exchangeType, amqpconn.ExchangeOptions{
			Durable: p.durable, AutoDelete: p.autoDelete, AlternateExchange: p.alternateExchange, Arguments: p.queueArgs(),
		})
	}
	if err == nil {
		err = s.EnableConfirms()
	}
	if err != nil {
		return nil, fail(ctx, err)
	}

	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		msg, mandatory, err := p.publishing(ex, item, i)
		if err == nil {
			if mode == "queue" {
				err = s.Publish(ctx, "", p.queue, mandatory, msg)
			} else {
				err = s.Publish(ctx, p.exchange, p.routingKey, mandatory, msg)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if !ex.ContinueOnFail() {
				return nil, itemError(err, i)
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		out = append(out, workflow.Item{JSON: workflow.ObjectOf("success", true), PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

func fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
}

func itemError(err error, i int) error {
	if ne, ok := err.(*nodes.Error); ok {
		return ne
	}
	return &nodes.Error{Name: "NodeApiError", Message: err.Error(), ItemIndex: i, Cause: err}
}

// params are the node's parameters, read from the first item as n8n does (the message and the
// headers are read per item).
type params struct {
	queue, exchange, exchangeType, routingKey, alternateExchange string
	sendInputData, durable, autoDelete, exclusive, withHeaders   bool
	// arguments are the Arguments option's entries in order: the queue's or exchange's
	// arguments and the message's publish options both come from them, as in n8n.
	arguments [][2]string
}

func readParams(ex *nodes.Execution, mode string) (*params, error) {
	p := &params{}
	var err error
	str := func(name string) string {
		if err != nil {
			return ""
		}
		var v string
		v, err = ex.ParamString(name, 0)
		return v
	}
	if mode == "queue" {
		p.queue = str("queue")
	} else {
		p.exchange = str("exchange")
		p.exchangeType = str("exchangeType")
		p.routingKey = str("routingKey")
		p.alternateExchange = str("options.alternateExchange")
	}
	if err != nil {
		return nil, err
	}
	if p.sendInputData, err = ex.ParamBool("sendInputData", 0); err != nil {
		return nil, err
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	// Durable is on unless the option says otherwise (n8n's default of the option).
	p.durable = true
	if v, ok := opts["durable"].(bool); ok {
		p.durable = v
	}
	p.autoDelete, _ = opts["autoDelete"].(bool)
	if mode == "queue" {
		p.exclusive, _ = opts["exclusive"].(bool)
	}
	if p.arguments, err = Arguments(ex); err != nil {
		return nil, err
	}
	headers, err := ex.ParamList("options.headers.header", 0)
	if err != nil {
		return nil, err
	}
	p.withHeaders = len(headers) > 0
	return p, nil
}

func stringOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// numericArguments are the queue and exchange arguments RabbitMQ accepts only as numbers; a
// numeric text given for one is sent as a number (the editor's fields are text).
var numericArguments = map[string]bool{
	"x-message-ttl": true, "x-expires": true, "x-max-length": true, "x-max-length-bytes": true,
	"x-max-priority": true, "x-delivery-limit": true,
	"x-stream-max-segment-size-bytes": true, "x-initial-cluster-size": true,
}

// Arguments reads the Arguments option (options.arguments.argument) as key and value pairs, in
// order, the values as text.
func Arguments(ex *nodes.Execution) ([][2]string, error) {
	args, err := ex.ParamList("options.arguments.argument", 0)
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for _, a := range args {
		k, _ := a["key"].(string)
		out = append(out, [2]string{k, stringOf(a["value"])})
	}
	return out, nil
}

// queueArgs are the Arguments option as the queue's (or exchange's) arguments table.
func (p *params) queueArgs() amqp.Table { return QueueArguments(p.arguments) }

// QueueArguments are Arguments pairs as a queue's (or exchange's) arguments table; nil for none.
func QueueArguments(arguments [][2]string) amqp.Table {
	if len(arguments) == 0 {
		return nil
	}
	t := amqp.Table{}
	for _, a := range arguments {
		if numericArguments[a[0]] {
			if n, err := strconv.ParseInt(strings.TrimSpace(a[1]), 10, 64); err == nil {
				t[a[0]] = n
				continue
			}
		}
		t[a[0]] = a[1]
	}
	return t
}

// publishing builds item i's message: its body, its headers and the publish options the
// Arguments option names (amqplib's: contentType, expiration, persistent, priority …).
func (p *params) publishing(ex *nodes.Execution, item workflow.Item, i int) (amqp.Publishing, bool, error) {
	var msg amqp.Publishing
	if p.sendInputData {
		body, err := stringify(item.JSON)
		if err != nil {
			return msg, false, nodes.Errorf(i, "%s", err.Error())
		}
		msg.Body = body
	} else {
		m, err := ex.ParamString("message", i)
		if err != nil {
			return msg, false, err
		}
		msg.Body = []byte(m)
	}
	msg.Headers = amqp.Table{}
	if p.withHeaders {
		headers, err := ex.ParamList("options.headers.header", i)
		if err != nil {
			return msg, false, err
		}
		for _, h := range headers {
			k, _ := h["key"].(string)
			msg.Headers[k] = stringOf(h["value"])
		}
	}
	mandatory := false
	for _, a := range p.arguments {
		k, v := a[0], a[1]
		switch k {
		case "contentType":
			msg.ContentType = v
		case "contentEncoding":
			msg.ContentEncoding = v
		case "expiration":
			msg.Expiration = v
		case "correlationId":
			msg.CorrelationId = v
		case "replyTo":
			msg.ReplyTo = v
		case "messageId":
			msg.MessageId = v
		case "type":
			msg.Type = v
		case "userId":
			msg.UserId = v
		case "appId":
			msg.AppId = v
		case "priority":
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n <= 255 {
				msg.Priority = uint8(n)
			}
		case "deliveryMode":
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n <= 2 {
				msg.DeliveryMode = uint8(n)
			}
		case "persistent":
			// amqplib treats any non-empty text as true.
			if v != "" {
				msg.DeliveryMode = amqp.Persistent
			}
		case "timestamp":
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				msg.Timestamp = time.Unix(n, 0)
			}
		case "mandatory":
			mandatory = v != ""
		case "CC", "BCC":
			msg.Headers[k] = []any{v}
		}
	}
	return msg, mandatory, nil
}

// stringify is JSON.stringify of an item's JSON: members in order, and <, >, &, U+2028 and
// U+2029 written as they are (encoding/json escapes them).
func stringify(o *workflow.Object) ([]byte, error) {
	if o == nil {
		return []byte("{}"), nil
	}
	b, err := workflow.AppendJSON(nil, o)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			switch string(b[i+2 : i+6]) {
			case "003c":
				out = append(out, '<')
				i += 5
				continue
			case "003e":
				out = append(out, '>')
				i += 5
				continue
			case "0026":
				out = append(out, '&')
				i += 5
				continue
			case "2028":
				out = append(out, "\u2028"...)
				i += 5
				continue
			case "2029":
				out = append(out, "\u2029"...)
				i += 5
				continue
			}
		}
		// Any other escape is kept whole, so an escaped backslash is never read as the start
		// of another escape.
		out = append(out, b[i], b[i+1])
		i++
	}
	return out, nil
}
