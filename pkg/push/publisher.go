package push

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
)

// Publisher sends messages to editor sessions through Redis. Safe for concurrent use; messages
// from one Publisher arrive in the order they were sent.
type Publisher struct {
	rdb redis.UniversalClient
}

// NewPublisher publishes on rdb.
func NewPublisher(rdb redis.UniversalClient) *Publisher {
	return &Publisher{rdb: rdb}
}

// Send delivers m to the editor session sessionID, or to every session when it is empty.
func (p *Publisher) Send(ctx context.Context, sessionID string, m Message) error {
	msg, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode push %s: %w", m.Type, err)
	}
	if err := bus.Push.Publish(ctx, p.rdb, bus.PushMessage{SessionID: sessionID, Message: msg}); err != nil {
		return fmt.Errorf("publish push %s: %w", m.Type, err)
	}
	return nil
}
