package bus

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// Topic is a pub/sub channel together with the type of its messages and their encoding on the
// wire. The topics below are every channel Flowmill publishes on.
type Topic[T any] struct {
	channel string
	// about names the messages in errors ("stop requests").
	about  string
	encode func(T) ([]byte, error)
	decode func(string) (T, error)
}

// PushMessage is a message on ChannelPush: the target editor session (empty for every session)
// and the already-encoded push message, so api replicas forward bytes without decoding them.
type PushMessage struct {
	SessionID string          `json:"s"`
	Message   json.RawMessage `json:"m"`
}

var (
	// Push carries messages for editor sessions to every api replica.
	Push = Topic[PushMessage]{channel: ChannelPush, about: "push channel", encode: encodeJSON[PushMessage], decode: decodeJSON[PushMessage]}
	// StopRequests carries the ids of executions to cancel to every worker (see KeyStopPrefix
	// for a worker that claims one after the message went out).
	StopRequests = Topic[int64]{channel: ChannelStop, about: "stop requests", encode: encodeID, decode: decodeID}
	// Finished carries the ids of executions that just finished or started waiting, or whose
	// outcome a listener trigger waits for was recorded; it only says when to look again, the
	// database stays the truth.
	Finished = Topic[int64]{channel: ChannelFinished, about: "finished executions", encode: encodeID, decode: decodeID}
	// Activations carries the id of a workflow whose activation changed.
	Activations = Topic[string]{channel: ChannelActivation, about: "activation notices", encode: encodeString, decode: decodeString}
	// WebhookAnswers carries the answers of webhook executions to the api replicas whose callers
	// wait for them, as JSON the execution package encodes (a copy is kept in the database, or
	// under KeyWebhookResponsePrefix when the database cannot take it, for a caller that missed
	// the message).
	WebhookAnswers = Topic[json.RawMessage]{channel: ChannelWebhookResponse, about: "webhook answers", encode: encodeRaw, decode: decodeRaw}
	// QueueWake carries the name of a task queue that was just given a task, to wake idle
	// workers; a lost message only delays the task until the worker's next look.
	QueueWake = Topic[string]{channel: ChannelQueueWake, about: "queue wake-ups", encode: encodeString, decode: decodeString}
)

// Channel is the topic's channel name on the database rdb uses (see ChannelFor).
func (t Topic[T]) Channel(rdb redis.UniversalClient) string { return ChannelFor(rdb, t.channel) }

// Publish sends msg to every subscriber of the topic on rdb's database. It does not wait for
// anyone to receive it: a message published while nobody listens is lost.
func (t Topic[T]) Publish(ctx context.Context, rdb redis.UniversalClient, msg T) error {
	b, err := t.encode(msg)
	if err != nil {
		return fmt.Errorf("encode message on %s: %w", t.about, err)
	}
	if err := rdb.Publish(ctx, t.Channel(rdb), b).Err(); err != nil {
		return fmt.Errorf("publish on %s: %w", t.about, err)
	}
	return nil
}

// PublishIn queues the publication of msg in the pipeline or transaction p (whose client is
// rdb, which names the channel), so it goes out together with the pipeline's other commands.
func (t Topic[T]) PublishIn(ctx context.Context, p redis.Pipeliner, rdb redis.UniversalClient, msg T) error {
	b, err := t.encode(msg)
	if err != nil {
		return fmt.Errorf("encode message on %s: %w", t.about, err)
	}
	p.Publish(ctx, t.Channel(rdb), b)
	return nil
}

// Subscribe builds a subscriber that calls handle with every message of the topic on rdb's
// database, one at a time in arrival order. Messages that do not decode are logged and skipped.
// Nothing is received before Start.
func (t Topic[T]) Subscribe(rdb redis.UniversalClient, handle func(T), cfg SubscriberConfig) *Subscriber {
	s := newSubscriber(rdb, t.Channel(rdb), t.about, cfg)
	s.handle = func(payload string) {
		msg, err := t.decode(payload)
		if err != nil {
			s.log.Warn("unreadable message", "channel", s.channel, "err", err)
			return
		}
		handle(msg)
	}
	return s
}

func encodeJSON[T any](v T) ([]byte, error) { return json.Marshal(v) }

func decodeJSON[T any](s string) (T, error) {
	var v T
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

func encodeID(id int64) ([]byte, error) { return strconv.AppendInt(nil, id, 10), nil }

func decodeID(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

func encodeRaw(m json.RawMessage) ([]byte, error) { return m, nil }

func decodeRaw(s string) (json.RawMessage, error) { return json.RawMessage(s), nil }

func encodeString(s string) ([]byte, error) { return []byte(s), nil }

func decodeString(s string) (string, error) { return s, nil }
