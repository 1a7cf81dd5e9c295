package queue

import (
	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
)

// Names that moved to package bus, kept under their old names only while the webhook runtime
// (its registries, answers and answer subscriber) still uses them; it moves onto the bus next,
// and this file goes. New code uses package bus.
const (
	// Deprecated: use bus.ChannelActivation or bus.Activations.
	ChannelActivation = bus.ChannelActivation
	// Deprecated: use bus.ChannelWebhookResponse.
	ChannelWebhookResponse = bus.ChannelWebhookResponse
	// Deprecated: use bus.KeyWebhookResponsePrefix.
	KeyWebhookResponsePrefix = bus.KeyWebhookResponsePrefix
	// Deprecated: use bus.KeyTestWebhookPrefix.
	KeyTestWebhookPrefix = bus.KeyTestWebhookPrefix
)

// ChannelFor is bus.ChannelFor.
//
// Deprecated: use bus.ChannelFor or a bus.Topic.
func ChannelFor(rdb redis.UniversalClient, channel string) string {
	return bus.ChannelFor(rdb, channel)
}
