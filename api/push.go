package main

import (
	"bufio"
	"time"

	"github.com/gofiber/fiber/v3"
)

// pushStream is the editor's server-sent event stream: an `:ok` preamble, then one `data:` line
// per message for this session, and a comment ping every PushPingInterval. fasthttp only notices
// a gone client when a write fails, so the ping is also what drops dead connections.
func (s *server) pushStream(c fiber.Ctx) error {
	sessionID := c.Query("sessionId")
	if sessionID == "" {
		return badRequest("The query parameter sessionId is missing")
	}
	if len(sessionID) > 128 {
		return badRequest("The query parameter sessionId is longer than 128 characters")
	}
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderConnection, "keep-alive")
	c.Set("X-Accel-Buffering", "no")
	client := s.hub.Connect(sessionID)
	s.in.Metrics.PushConnections.Inc()
	ping := s.cfg.PushPingInterval
	return c.SendStreamWriter(func(w *bufio.Writer) {
		defer s.in.Metrics.PushConnections.Dec()
		defer s.hub.Disconnect(client)
		if !write(w, ":ok\n\n") {
			return
		}
		t := time.NewTicker(ping)
		defer t.Stop()
		for {
			select {
			case msg := <-client.Messages():
				if !write(w, "data: ", string(msg), "\n\n") {
					return
				}
			case <-t.C:
				if !write(w, ":ping\n\n") {
					return
				}
			case <-client.Closed():
				return
			}
		}
	})
}

// write sends parts and flushes; false means the client is gone.
func write(w *bufio.Writer, parts ...string) bool {
	for _, p := range parts {
		if _, err := w.WriteString(p); err != nil {
			return false
		}
	}
	return w.Flush() == nil
}
