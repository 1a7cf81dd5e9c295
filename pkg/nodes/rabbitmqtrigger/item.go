package rabbitmqtrigger

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/flowmill/flowmill/pkg/nesting"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Item is the item of one message, as n8n's (amqplib's message): {fields, properties, content}
// with the content as text, parsed as JSON when jsonParseBody is set (a message that is not
// JSON is an error), or only the content when onlyContent is set (a content that is not an
// object becomes {content}). With contentIsBinary the content is the binary property "data"
// and the JSON is {fields, properties}. Properties the message does not carry are left out.
// A message larger than limit bytes (0: none) is an error.
func Item(d amqp.Delivery, contentIsBinary, jsonParseBody, onlyContent bool, limit int64) (workflow.Item, error) {
	if limit > 0 && int64(len(d.Body)) > limit {
		return workflow.Item{}, tooLarge(len(d.Body), limit)
	}
	msg := workflow.NewObject(3)
	msg.Set("fields", fields(d))
	msg.Set("properties", properties(d))
	if contentIsBinary {
		return workflow.Item{JSON: msg, Binary: map[string]workflow.BinaryData{"data": nodes.NewBinary(d.Body, "", d.ContentType)}}, nil
	}
	var content any = text(d.Body)
	if jsonParseBody {
		if err := nesting.JSON(d.Body); err != nil {
			return workflow.Item{}, fmt.Errorf("the message is not JSON: %w", err)
		}
		v, err := workflow.DecodeJSONValue(d.Body)
		if err != nil {
			return workflow.Item{}, fmt.Errorf("the message is not JSON: %w", err)
		}
		content = v
	}
	if onlyContent {
		if o, ok := workflow.AsObject(content); ok {
			return workflow.Item{JSON: o}, nil
		}
		return workflow.Item{JSON: workflow.ObjectOf("content", content)}, nil
	}
	msg.Set("content", content)
	return workflow.Item{JSON: msg}, nil
}

// text is the body as Buffer.toString() reads it: invalid UTF-8 becomes U+FFFD.
func text(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out = append(out, r)
		b = b[n:]
	}
	return string(out)
}

// fields are the delivery's: a consumed message's, or (without a consumer tag) a fetched one's.
func fields(d amqp.Delivery) *workflow.Object {
	f := workflow.NewObject(5)
	if d.ConsumerTag != "" {
		f.Set("consumerTag", d.ConsumerTag)
	}
	f.Set("deliveryTag", float64(d.DeliveryTag))
	f.Set("redelivered", d.Redelivered)
	f.Set("exchange", d.Exchange)
	f.Set("routingKey", d.RoutingKey)
	if d.ConsumerTag == "" {
		f.Set("messageCount", float64(d.MessageCount))
	}
	return f
}

// properties are the message's basic properties in amqplib's order, those it carries.
func properties(d amqp.Delivery) *workflow.Object {
	p := workflow.NewObject(14)
	str := func(k, v string) {
		if v != "" {
			p.Set(k, v)
		}
	}
	str("contentType", d.ContentType)
	str("contentEncoding", d.ContentEncoding)
	if d.Headers != nil {
		p.Set("headers", tableValue(d.Headers, 0))
	}
	if d.DeliveryMode != 0 {
		p.Set("deliveryMode", float64(d.DeliveryMode))
	}
	if d.Priority != 0 {
		p.Set("priority", float64(d.Priority))
	}
	str("correlationId", d.CorrelationId)
	str("replyTo", d.ReplyTo)
	str("expiration", d.Expiration)
	str("messageId", d.MessageId)
	if !d.Timestamp.IsZero() {
		p.Set("timestamp", float64(d.Timestamp.Unix()))
	}
	str("type", d.Type)
	str("userId", d.UserId)
	str("appId", d.AppId)
	return p
}

// maxDepth bounds how deeply nested header tables are turned into item data; deeper values
// are left out (null).
const maxDepth = nesting.Max

func tableValue(t amqp.Table, depth int) *workflow.Object {
	o := workflow.NewObject(len(t))
	for _, k := range slices.Sorted(maps.Keys(t)) {
		o.Set(text([]byte(k)), headerValue(t[k], depth+1))
	}
	return o
}

// headerValue is a header value as item data: numbers as numbers, timestamps as seconds,
// bytes as text, tables as objects.
func headerValue(v any, depth int) any {
	if depth > maxDepth {
		return nil
	}
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return x
	case string:
		return text([]byte(x))
	case []byte:
		return text(x)
	case int8:
		return float64(x)
	case uint8:
		return float64(x)
	case int16:
		return float64(x)
	case uint16:
		return float64(x)
	case int32:
		return float64(x)
	case uint32:
		return float64(x)
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case float32:
		return finite(float64(x))
	case float64:
		return finite(x)
	case amqp.Decimal:
		return float64(x.Value) / math.Pow10(int(x.Scale))
	case time.Time:
		return float64(x.Unix())
	case amqp.Table:
		return tableValue(x, depth)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = headerValue(e, depth+1)
		}
		return out
	}
	return fmt.Sprint(v)
}

// finite is f, or nil for NaN and the infinities, which JSON cannot hold.
func finite(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return f
}
