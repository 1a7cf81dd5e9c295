package main

import (
	"errors"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	"github.com/flowmill/flowmill/pkg/store"
)

// getMyAPIKey answers the caller's key as its hint (the key itself is shown only once, when it
// is created), or null when there is none.
func (s *server) getMyAPIKey(c fiber.Ctx) error {
	hint, err := s.in.Store.APIKeyHint(c.Context(), sessionUser(c).ID)
	if errors.Is(err, store.ErrNotFound) {
		return respond(c, fiber.Map{"apiKey": nil})
	}
	if err != nil {
		return err
	}
	return respond(c, fiber.Map{"apiKey": hint})
}

// postMyAPIKey creates a key for the caller, replacing any older one, and answers it once.
func (s *server) postMyAPIKey(c fiber.Ctx) error {
	if s.cfg.PublicAPIDisabled {
		return badRequest("The public API is disabled on this instance")
	}
	key, hash, hint := auth.NewAPIKey()
	if err := s.in.Store.ReplaceAPIKey(c.Context(), sessionUser(c).ID, hash, hint); err != nil {
		return err
	}
	return respond(c, fiber.Map{"apiKey": key})
}

// deleteMyAPIKey removes the caller's key.
func (s *server) deleteMyAPIKey(c fiber.Ctx) error {
	if err := s.in.Store.DeleteAPIKeys(c.Context(), sessionUser(c).ID); err != nil {
		return err
	}
	return respond(c, fiber.Map{"success": true})
}
