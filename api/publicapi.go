package main

import "github.com/gofiber/fiber/v3"

// publicAPIGuard admits public API calls with a valid key while the public API is enabled.
func (s *server) publicAPIGuard(c fiber.Ctx) error {
	if s.cfg.PublicAPIDisabled {
		return notFound("Not found")
	}
	return c.Next()
}
