package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	mailer "github.com/flowmill/flowmill/pkg/mail"
	"github.com/flowmill/flowmill/pkg/store"
)

// maxInvitesPerRequest bounds one invitation request.
const maxInvitesPerRequest = 100

// getUsers lists every user, pending ones included, without their survey answers.
func (s *server) getUsers(c fiber.Ctx) error {
	users, err := s.in.Store.ListUsers(c.Context())
	if err != nil {
		return err
	}
	out := make([]userResponse, len(users))
	for i := range users {
		out[i] = toUserResponse(&users[i])
		out[i].PersonalizationAnswers = nil
	}
	return respond(c, out)
}

type inviteRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// inviteResult is one entry of the invitation answer: the user shell and, when the mail could
// not be sent or the address has an account already, an error.
type inviteResult struct {
	User inviteUser `json:"user"`
}

type inviteUser struct {
	ID    *string `json:"id"`
	Email string  `json:"email"`
	Error string  `json:"error,omitempty"`
}

// postUsers invites members by e-mail: each address ("Name <address>" is accepted) gets a
// pending account and an invitation mail. A bad address fails the whole request; a mail that
// cannot be sent is reported on its entry.
func (s *server) postUsers(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	if !s.mailer.Configured() {
		return badRequest("Email sending must be set up in order to invite other users")
	}
	me := sessionUser(c)
	if isDefaultUser(me) {
		return badRequest("You must set up your own account before inviting others")
	}
	var req []inviteRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("The body must be a list of invitations such as [{\"email\": \"ann@example.com\"}]")
	}
	if len(req) == 0 {
		return badRequest("No users to invite")
	}
	if len(req) > maxInvitesPerRequest {
		return badRequest(fmt.Sprintf("At most %d users can be invited at once", maxInvitesPerRequest))
	}
	var emails []string
	for _, r := range req {
		if r.Role != "" && r.Role != store.RoleMember {
			return badRequest(fmt.Sprintf("Only the member role can be invited, not %q", r.Role))
		}
		email, err := inviteAddress(r.Email)
		if err != nil {
			return err
		}
		if !containsString(emails, email) {
			emails = append(emails, email)
		}
	}
	invitees, err := s.in.Store.InviteMembers(c.Context(), emails)
	if err != nil {
		return err
	}
	out := make([]inviteResult, len(invitees))
	for i, inv := range invitees {
		out[i].User.Email = inv.Email
		if inv.User == nil {
			out[i].User.Error = "There is already an account with this email"
			continue
		}
		out[i].User.ID = &inv.User.ID
		if err := s.sendInvitation(c, me, inv.User); err != nil {
			s.log.Error("invitation mail failed", "inviteeId", inv.User.ID, "err", err)
			out[i].User.Error = "Email could not be sent"
		}
	}
	return respond(c, out)
}

// inviteAddress extracts and checks the address of an invitation entry.
func inviteAddress(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	addr := raw
	if strings.Contains(raw, "<") {
		a, err := mail.ParseAddress(raw)
		if err != nil {
			return "", badRequest(fmt.Sprintf("%s is not a valid email", raw))
		}
		addr = a.Address
	}
	email, err := auth.NormalizeEmail(addr)
	if err != nil {
		return "", badRequest(fmt.Sprintf("%s is not a valid email", raw))
	}
	return email, nil
}

func containsString(list []string, v string) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

// invitationTTL is how long an invitation link works.
const invitationTTL = 7 * 24 * time.Hour

// sendInvitation mails invitee the sign-up link of inviter's invitation. The link carries a new
// random single-use token (only its hash is stored); it replaces the invitee's earlier links.
func (s *server) sendInvitation(c fiber.Ctx, inviter, invitee *store.User) error {
	raw, hash := auth.NewToken()
	if err := s.in.Store.ReplaceAuthToken(c.Context(), invitee.ID, auth.TokenInvitation, hash, s.now().Add(invitationTTL)); err != nil {
		return err
	}
	link := s.cfg.PublicURL + "signup?" + url.Values{"inviterId": {inviter.ID}, "inviteeId": {invitee.ID}, "token": {raw}}.Encode()
	return s.mailer.Send(c.Context(), mailer.Invitation(deref(invitee.Email), link, s.cfg.PublicURL))
}

// postReinvite sends a pending user's invitation again.
func (s *server) postReinvite(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	if !s.mailer.Configured() {
		return badRequest("Email sending must be set up in order to invite other users")
	}
	u, err := s.in.Store.GetUser(c.Context(), c.Params("id"))
	if errors.Is(err, store.ErrNotFound) {
		return notFound("Could not find user")
	}
	if err != nil {
		return err
	}
	if !u.IsPending() || u.GlobalRole != store.RoleMember {
		return badRequest("User has already accepted the invite")
	}
	if err := s.sendInvitation(c, sessionUser(c), u); err != nil {
		return &apiError{Status: fiber.StatusBadGateway, Message: "Failed to send email to " + deref(u.Email), cause: err}
	}
	return respond(c, fiber.Map{"success": true})
}

// resolveInvitation checks an invitation's inviter and invitee ids and its token: the inviter
// is the set-up owner, the invitee a pending member holding this unused, unexpired token. Every
// failure is the same 400, so the check reveals nothing about which ids exist.
func (s *server) resolveInvitation(c fiber.Ctx, inviterID, inviteeID, token string) (inviter, invitee *store.User, err error) {
	if inviterID == "" || inviteeID == "" || token == "" {
		return nil, nil, badRequest("inviterId, inviteeId and token are all required")
	}
	invalid := badRequest("Invalid invite URL: the link is wrong, was replaced by a newer invitation or has expired")
	inviter, err = s.in.Store.GetUser(c.Context(), inviterID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, invalid
	}
	if err != nil {
		return nil, nil, err
	}
	invitee, err = s.in.Store.GetUser(c.Context(), inviteeID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, invalid
	}
	if err != nil {
		return nil, nil, err
	}
	if inviter.GlobalRole != store.RoleOwner || inviter.IsPending() || invitee.GlobalRole != store.RoleMember {
		return nil, nil, invalid
	}
	if !invitee.IsPending() {
		return nil, nil, badRequest("This invite has been accepted already")
	}
	err = s.in.Store.CheckAuthToken(c.Context(), invitee.ID, auth.TokenInvitation, auth.HashToken(token), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, invalid
	}
	if err != nil {
		return nil, nil, err
	}
	return inviter, invitee, nil
}

// getResolveSignupToken validates an invitation link and names the inviter.
func (s *server) getResolveSignupToken(c fiber.Ctx) error {
	inviter, _, err := s.resolveInvitation(c, c.Query("inviterId"), c.Query("inviteeId"), c.Query("token"))
	if err != nil {
		return err
	}
	return respond(c, fiber.Map{"inviter": fiber.Map{"firstName": inviter.FirstName, "lastName": inviter.LastName}})
}

type signUpRequest struct {
	InviterID string `json:"inviterId"`
	Token     string `json:"token"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
	Password  string `json:"password"`
}

// postSignUp finishes an invited account and signs the browser in as it.
func (s *server) postSignUp(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	var req signUpRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	_, invitee, err := s.resolveInvitation(c, req.InviterID, c.Params("id"), req.Token)
	if err != nil {
		return err
	}
	first, err := auth.ValidateName("firstName", req.FirstName)
	if err != nil {
		return policyError(err)
	}
	last, err := auth.ValidateName("lastName", req.LastName)
	if err != nil {
		return policyError(err)
	}
	hash, err := hashNewPassword(req.Password)
	if err != nil {
		return err
	}
	var u *store.User
	err = s.in.Store.UseAuthToken(c.Context(), invitee.ID, auth.TokenInvitation, auth.HashToken(req.Token), s.now(), func(tx *store.Store) error {
		u, err = tx.CompleteSignUp(c.Context(), invitee.ID, first, last, hash)
		return err
	})
	switch {
	case errors.Is(err, store.ErrAlreadySetUp):
		return badRequest("This invite has been accepted already")
	case errors.Is(err, store.ErrNotFound):
		return badRequest("Invalid invite URL: the link is wrong, was replaced by a newer invitation or has expired")
	case err != nil:
		return err
	}
	if err := s.signIn(c, u, false); err != nil {
		return err
	}
	return respond(c, toUserResponse(u))
}

// deleteUser deletes a user, passing their workflows and credentials to transferId or, without
// it, deleting them.
func (s *server) deleteUser(c fiber.Ctx) error {
	id, transferTo := c.Params("id"), c.Query("transferId")
	if id == sessionUser(c).ID {
		return badRequest("Cannot delete your own user")
	}
	if transferTo == id {
		return badRequest("The user to delete and the user to transfer to must differ")
	}
	err := s.in.Store.DeleteUser(c.Context(), id, transferTo)
	if errors.Is(err, store.ErrNotFound) {
		return notFound("The user to delete or the user to transfer to does not exist")
	}
	if err != nil {
		return err
	}
	return respond(c, fiber.Map{"success": true})
}
