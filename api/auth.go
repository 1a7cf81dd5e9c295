package main

import (
	"context"
	"errors"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

const localsUser = "user"

// currentUser resolves who is calling. Until the instance owner is set up, every caller acts as
// the password-less default owner, as in the product's first-run flow; after setup a session is
// required.
func (s *server) currentUser(ctx context.Context) (*store.User, error) {
	setUp, err := s.in.Store.GetSetting(ctx, store.SettingOwnerSetUp)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if setUp != "true" || s.cfg.UserManagementDisabled {
		return s.in.Store.EnsureDefaultOwner(ctx)
	}
	return nil, unauthorized("Unauthorized")
}

// guard enforces a route's access level before its handler runs.
func (s *server) guard(a access) fiber.Handler {
	return func(c fiber.Ctx) error {
		if a == public {
			return c.Next()
		}
		u, err := s.currentUser(c.Context())
		if err != nil {
			return err
		}
		if a == ownerOnly && u.GlobalRole != store.RoleOwner {
			return &apiError{Status: fiber.StatusForbidden, Message: "Forbidden"}
		}
		c.Locals(localsUser, u)
		return c.Next()
	}
}

// sessionUser is the caller of a signedIn or ownerOnly route, as guard found them.
func sessionUser(c fiber.Ctx) *store.User { return c.Locals(localsUser).(*store.User) }
