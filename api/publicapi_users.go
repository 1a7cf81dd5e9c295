package main

import (
	"errors"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// apiUserAnswer is a user as n8n 1.x's public API answers it; role only with includeRole=true.
type apiUserAnswer struct {
	ID        string    `json:"id"`
	Email     *string   `json:"email"`
	FirstName *string   `json:"firstName"`
	LastName  *string   `json:"lastName"`
	IsPending bool      `json:"isPending"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	Role      string    `json:"role,omitempty"`
}

func toAPIUser(u *store.User, includeRole bool) apiUserAnswer {
	out := apiUserAnswer{ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		IsPending: u.IsPending(), CreatedAt: u.CreatedAt.UTC(), UpdatedAt: u.UpdatedAt.UTC()}
	if includeRole {
		out.Role = "global:" + u.GlobalRole
	}
	return out
}

// apiOwnerOnly refuses a public API call whose key is not the instance owner's.
func apiOwnerOnly(c fiber.Ctx) error {
	if apiUser(c).GlobalRole != store.RoleOwner {
		return &apiError{Status: fiber.StatusForbidden, Message: "Forbidden: only the instance owner may do this"}
	}
	return nil
}

// apiGetUsers lists every user, oldest first, one page at a time (instance owner only).
func (s *server) apiGetUsers(c fiber.Ctx) error {
	if err := apiOwnerOnly(c); err != nil {
		return err
	}
	page, err := readPage(c)
	if err != nil {
		return err
	}
	users, err := s.in.Store.ListUsers(c.Context())
	if err != nil {
		return err
	}
	includeRole := fiber.Query[bool](c, "includeRole")
	from, to, next := pageOf(page, len(users))
	out := make([]apiUserAnswer, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, toAPIUser(&users[i], includeRole))
	}
	return c.JSON(listAnswer{Data: out, NextCursor: next})
}

// apiGetUser answers one user by id or e-mail address (instance owner only).
func (s *server) apiGetUser(c fiber.Ctx) error {
	if err := apiOwnerOnly(c); err != nil {
		return err
	}
	id := c.Params("id")
	var (
		u   *store.User
		err error
	)
	if strings.Contains(id, "@") {
		u, err = s.in.Store.GetUserByEmail(c.Context(), strings.ToLower(id))
	} else {
		u, err = s.in.Store.GetUser(c.Context(), id)
	}
	if errors.Is(err, store.ErrNotFound) {
		return notFound("Could not find user with id: " + id)
	}
	if err != nil {
		return err
	}
	return c.JSON(toAPIUser(u, fiber.Query[bool](c, "includeRole")))
}
