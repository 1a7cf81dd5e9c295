package main

import (
	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
)

type pingRequest struct {
	Message string `json:"message"`
}

type pingResponse struct {
	ID string `json:"id"`
}

// postDebugPing queues a diagnostic ping: a worker answers it on the caller's push stream
// (header sessionid) and as a task result readable for a minute. It proves the whole
// api → queue → worker → push path on a live installation.
func (s *server) postDebugPing(c fiber.Ctx) error {
	var req pingRequest
	if len(c.Body()) > 0 {
		if err := c.Bind().JSON(&req); err != nil {
			return badRequest("The body must be JSON: " + err.Error())
		}
	}
	if len(req.Message) > 256 {
		return badRequest("message is longer than 256 characters")
	}
	p := queue.DebugPing{ID: store.NewID(), Message: req.Message, SessionID: c.Get("sessionid")}
	if err := s.in.Queue.EnqueuePing(c.Context(), p); err != nil {
		return err
	}
	return respond(c, pingResponse{ID: p.ID})
}

// getDebugPing answers a ping's result once a worker has handled it (404 until then).
func (s *server) getDebugPing(c fiber.Ctx) error {
	result, ok, err := s.in.Queue.PingResult(c.Params("id"))
	if err != nil || !ok {
		return notFound("No answer for ping " + c.Params("id") + " yet")
	}
	return respond(c, fiber.Map{"result": result})
}
