package push

import (
	"context"
	"log/slog"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
)

// DefaultBuffer is how many undelivered messages a client may hold before it is dropped.
const DefaultBuffer = 1024

// Client is one connected SSE stream of an editor session.
type Client struct {
	SessionID string
	messages  chan []byte
	closed    chan struct{}
	closeOnce sync.Once
}

// Messages yields encoded messages in order.
func (c *Client) Messages() <-chan []byte { return c.messages }

// Closed is closed when the hub dropped the client: replaced by a newer connection of the same
// session, too slow to keep up, or the hub stopped.
func (c *Client) Closed() <-chan struct{} { return c.closed }

func (c *Client) close() { c.closeOnce.Do(func() { close(c.closed) }) }

// Hub holds this replica's SSE clients, keyed by session id, and feeds them from Redis.
type Hub struct {
	log     *slog.Logger
	buffer  int
	mu      sync.Mutex
	clients map[string]*Client
	sub     *bus.Subscriber
	stop    sync.Once
}

// NewHub builds a hub on rdb; buffer 0 means DefaultBuffer.
func NewHub(rdb redis.UniversalClient, buffer int, log *slog.Logger) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	h := &Hub{log: log.With("component", "push"), buffer: buffer, clients: map[string]*Client{}}
	h.sub = bus.Push.Subscribe(rdb, func(m bus.PushMessage) { h.deliver(m.SessionID, m.Message) },
		bus.SubscriberConfig{Buffer: buffer, Logger: h.log})
	return h
}

// Start subscribes to the push channel and returns once the subscription is live, so no message
// published after Start returns is missed.
func (h *Hub) Start(ctx context.Context) error { return h.sub.Start(ctx) }

// Stop unsubscribes and closes every client. Safe to call twice.
func (h *Hub) Stop() {
	h.stop.Do(func() {
		h.sub.Stop()
		h.mu.Lock()
		defer h.mu.Unlock()
		for id, c := range h.clients {
			c.close()
			delete(h.clients, id)
		}
	})
}

// Connect registers a stream for sessionID. A session has one stream: an older one is closed.
func (h *Hub) Connect(sessionID string) *Client {
	c := &Client{SessionID: sessionID, messages: make(chan []byte, h.buffer), closed: make(chan struct{})}
	h.mu.Lock()
	if old := h.clients[sessionID]; old != nil {
		old.close()
	}
	h.clients[sessionID] = c
	h.mu.Unlock()
	return c
}

// Disconnect removes c if it is still the session's stream.
func (h *Hub) Disconnect(c *Client) {
	h.mu.Lock()
	if h.clients[c.SessionID] == c {
		delete(h.clients, c.SessionID)
	}
	h.mu.Unlock()
	c.close()
}

// Connections is the number of streams on this replica.
func (h *Hub) Connections() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// deliver hands msg to one session (or all when sessionID is empty) without ever blocking: a
// client whose buffer is full is dropped and reconnects, rather than stalling everyone else.
func (h *Hub) deliver(sessionID string, msg []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	send := func(c *Client) {
		select {
		case c.messages <- msg:
		default:
			h.log.Warn("push client too slow, dropping it", "session", c.SessionID)
			delete(h.clients, c.SessionID)
			c.close()
		}
	}
	if sessionID == "" {
		for _, c := range h.clients {
			send(c)
		}
		return
	}
	if c := h.clients[sessionID]; c != nil {
		send(c)
	}
}
