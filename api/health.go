package main

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/bus"
)

// healthz says the process is up.
func (s *server) healthz(c fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readiness says whether this api can do its work: the database is reachable and migrated,
// Redis answers, and at least one worker has reported within its heartbeat window. From
// SIGTERM on it answers 503 "draining", so load balancers take the replica out first.
func (s *server) readiness(c fiber.Ctx) error {
	if s.draining.Load() {
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "draining",
			"checks": fiber.Map{"shutdown": "the process is stopping"}})
	}
	ctx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
	defer cancel()
	checks, ok := s.in.Checks(ctx)
	workers, err := bus.LiveInstances(ctx, s.in.Redis, bus.RoleWorker)
	if err == nil && len(workers) == 0 {
		err = errNoWorker
	}
	if err != nil {
		checks["worker"] = err.Error()
		ok = false
	} else {
		checks["worker"] = "ok"
	}
	status, code := "ok", fiber.StatusOK
	if !ok {
		status, code = "error", fiber.StatusServiceUnavailable
	}
	return c.Status(code).JSON(fiber.Map{"status": status, "checks": checks})
}

var errNoWorker = &apiError{Message: "no worker has reported a heartbeat"}
