package main

import (
	"encoding/json"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// userResponse is a user as the editor sees it; never the password.
type userResponse struct {
	ID                     string          `json:"id"`
	Email                  *string         `json:"email"`
	FirstName              *string         `json:"firstName"`
	LastName               *string         `json:"lastName"`
	IsPending              bool            `json:"isPending"`
	GlobalRole             roleResponse    `json:"globalRole"`
	PersonalizationAnswers json.RawMessage `json:"personalizationAnswers"`
}

type roleResponse struct {
	Name  string `json:"name"`
	Scope string `json:"scope"`
}

func toUserResponse(u *store.User) userResponse {
	answers := json.RawMessage("null")
	if len(u.PersonalizationAnswers) > 0 {
		answers = json.RawMessage(u.PersonalizationAnswers)
	}
	return userResponse{
		ID: u.ID, Email: u.Email, FirstName: u.FirstName, LastName: u.LastName,
		IsPending:              u.IsPending(),
		GlobalRole:             roleResponse{Name: u.GlobalRole, Scope: "global"},
		PersonalizationAnswers: answers,
	}
}

// getLogin answers who the browser is signed in as (the default owner before setup).
func (s *server) getLogin(c fiber.Ctx) error {
	u, err := s.currentUser(c.Context())
	if err != nil {
		return err
	}
	return respond(c, toUserResponse(u))
}

// postSkipOwnerSetup stops offering owner setup; the instance keeps running as the default
// owner until someone sets it up from the users settings.
func (s *server) postSkipOwnerSetup(c fiber.Ctx) error {
	if err := s.in.Store.SetSetting(c.Context(), store.SettingSkipOwnerSetup, "true"); err != nil {
		return err
	}
	return respond(c, fiber.Map{"success": true})
}
