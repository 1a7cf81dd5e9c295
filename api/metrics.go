package main

import (
	"strconv"

	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/adaptor"
)

func (s *server) metricsHandler(c fiber.Ctx) error {
	if !s.cfg.MetricsEnabled {
		return notFound("Metrics are turned off (FLOWMILL_METRICS=false)")
	}
	return s.promHandler(c)
}

// countRequests records every response in flowmill_http_requests_total.
func (s *server) countRequests(c fiber.Ctx) error {
	err := c.Next()
	code := c.Response().StatusCode()
	if err != nil {
		// The error handler has not run yet; count what it will answer.
		code = statusOf(err)
	}
	s.in.Metrics.HTTPRequestsTotal.WithLabelValues(c.Method(), strconv.Itoa(code)).Inc()
	return err
}

func newPromHandler(s *server) fiber.Handler {
	return adaptor.HTTPHandler(s.in.Metrics.Handler())
}
