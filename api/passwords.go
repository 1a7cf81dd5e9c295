package main

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/auth"
	mailer "github.com/flowmill/flowmill/pkg/mail"
	"github.com/flowmill/flowmill/pkg/store"
)

// resetTokenTTL is how long a password-reset link works.
const resetTokenTTL = 2 * time.Hour

// postForgotPassword mails a single-use reset link to the account with that address. The answer
// is the same whether or not the account exists, and the mail goes out after the answer, so
// neither the answer nor its timing reveals accounts.
func (s *server) postForgotPassword(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	if !s.mailer.Configured() {
		return badRequest("Email sending must be set up in order to request a password reset email")
	}
	var req struct {
		Email string `json:"email"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.Email == "" {
		return badRequest("Email is mandatory")
	}
	email, err := auth.NormalizeEmail(req.Email)
	if err != nil {
		return policyError(err)
	}
	if err := s.limit(c, s.limits.resetIP, s.clientIP(c)); err != nil {
		return err
	}
	if err := s.limit(c, s.limits.resetAccount, email); err != nil {
		return err
	}
	u, err := s.in.Store.GetUserByEmail(c.Context(), email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if u != nil && !u.IsPending() && !u.Disabled {
		raw, hash := auth.NewToken()
		if err := s.in.Store.CreateAuthToken(c.Context(), u.ID, auth.TokenPasswordReset, hash, s.now().Add(resetTokenTTL)); err != nil {
			return err
		}
		link := s.cfg.PublicURL + "change-password?" + url.Values{"token": {raw}, "userId": {u.ID}}.Encode()
		msg := mailer.PasswordReset(email, deref(u.FirstName), link, s.cfg.PublicURL, "2 hours")
		s.background.Go(func() {
			if err := s.mailer.Send(context.Background(), msg); err != nil {
				s.log.Error("password reset mail failed", "userId", u.ID, "err", err)
			}
		})
	}
	return respond(c, fiber.Map{})
}

// getResolvePasswordToken checks a reset link before the page asks for the new password.
func (s *server) getResolvePasswordToken(c fiber.Ctx) error {
	token, userID := c.Query("token"), c.Query("userId")
	if token == "" || userID == "" {
		return badRequest("token and userId are both required")
	}
	err := s.in.Store.CheckAuthToken(c.Context(), userID, auth.TokenPasswordReset, auth.HashToken(token), s.now())
	if errors.Is(err, store.ErrNotFound) {
		return notFound("This password reset link is invalid or has expired")
	}
	if err != nil {
		return err
	}
	return respond(c, fiber.Map{})
}

type resetRequest struct {
	Token    string `json:"token"`
	UserID   string `json:"userId"`
	Password string `json:"password"`
}

// postChangePassword sets a new password with a reset link's token (once) and signs the
// browser in; every older session of the user ends.
func (s *server) postChangePassword(c fiber.Ctx) error {
	if err := s.requireUserManagement(); err != nil {
		return err
	}
	var req resetRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.Token == "" || req.UserID == "" || req.Password == "" {
		return badRequest("Missing user ID or password or reset password token")
	}
	hash, err := hashNewPassword(req.Password)
	if err != nil {
		return err
	}
	err = s.in.Store.UseAuthToken(c.Context(), req.UserID, auth.TokenPasswordReset, auth.HashToken(req.Token), s.now(),
		func(tx *store.Store) error { return tx.SetPassword(c.Context(), req.UserID, hash) })
	if errors.Is(err, store.ErrNotFound) {
		return notFound("This password reset link is invalid or has expired")
	}
	if err != nil {
		return err
	}
	u, err := s.in.Store.GetUser(c.Context(), req.UserID)
	if err != nil {
		return err
	}
	if err := s.signIn(c, u, false); err != nil {
		return err
	}
	return respond(c, fiber.Map{})
}
