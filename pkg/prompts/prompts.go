// Package prompts is the built-in prompts host: it tells the editor whether to show a user the
// contact prompt or the value survey (n8n's GET /prompts) and keeps their answers in the
// database, where the owner reads them. It is used only when prompts are enabled and no outside
// prompts host is set (FLOWMILL_PROMPTS_ENABLED, FLOWMILL_PROMPTS_HOST).
//
// The rules: the contact prompt is offered once, to a user who never left an address; the value
// survey, when no contact prompt is due, at most once per SurveyInterval (an answer counts as an
// offer). Offering is recorded when GET /prompts says so, so a prompt closed without an answer is
// not shown again at every page load.
package prompts

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/store"
)

// Limits of the built-in host (documented in README.md, "Limits").
const (
	// SurveyInterval is how long after offering the value survey (or after an answer) it is not
	// offered again: 90 days.
	SurveyInterval = 90 * 24 * time.Hour
	// MaxEmailLength is the longest e-mail address kept: 254 characters (RFC 5321).
	MaxEmailLength = 254
	// MaxAnswersListed is how many answers the owner's list shows, newest first: 200.
	MaxAnswersListed = 200
	// EmailStepWindow is how long after a value survey score its e-mail step may follow and
	// complete that answer (the editor sends the score at once, then the address): 1 hour.
	EmailStepWindow = time.Hour
)

// ErrInvalid is an answer that cannot be kept; errors.Is finds it in the error, whose message
// says what is wrong.
var ErrInvalid = errors.New("invalid answer")

type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

func invalid(format string, args ...any) error {
	return &invalidError{msg: fmt.Sprintf(format, args...)}
}

// Prompts is what GET /prompts answers (n8n's IN8nPrompts).
type Prompts struct {
	Title             string `json:"title,omitempty"`
	Message           string `json:"message,omitempty"`
	ShowContactPrompt bool   `json:"showContactPrompt"`
	ShowValueSurvey   bool   `json:"showValueSurvey"`
}

// The contact prompt's words: the built-in host passes the address on to nobody but the owner.
const (
	contactTitle   = "Stay in touch"
	contactMessage = "Leave your e-mail address so the owner of this Flowmill instance can reach you about changes and your feedback."
)

// Host is the built-in prompts host.
type Host struct {
	store *store.Store
	now   func() time.Time
}

// Config is what a Host needs.
type Config struct {
	// Store keeps the offers and answers. Required.
	Store *store.Store
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// New builds a Host.
func New(cfg Config) (*Host, error) {
	if cfg.Store == nil {
		return nil, errors.New("prompts: a store is required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Host{store: cfg.Store, now: cfg.Now}, nil
}

// Next decides which prompt the user gets now and records the offer.
func (h *Host) Next(ctx context.Context, userID string) (Prompts, error) {
	now := h.now()
	_, err := h.store.LastPromptEvent(ctx, userID, store.PromptContact, store.PromptOffered)
	switch {
	case errors.Is(err, store.ErrNotFound):
		answered, err := h.happened(ctx, userID, store.PromptContact, store.PromptAnswered, time.Time{})
		if err != nil {
			return Prompts{}, err
		}
		if !answered {
			if err := h.offer(ctx, userID, store.PromptContact, now); err != nil {
				return Prompts{}, err
			}
			return Prompts{Title: contactTitle, Message: contactMessage, ShowContactPrompt: true}, nil
		}
	case err != nil:
		return Prompts{}, err
	}
	since := now.Add(-SurveyInterval)
	for _, action := range []string{store.PromptOffered, store.PromptAnswered} {
		recent, err := h.happened(ctx, userID, store.PromptValueSurvey, action, since)
		if err != nil || recent {
			return Prompts{}, err
		}
	}
	if err := h.offer(ctx, userID, store.PromptValueSurvey, now); err != nil {
		return Prompts{}, err
	}
	return Prompts{ShowValueSurvey: true}, nil
}

// SubmitContact keeps the address a user left in the contact prompt.
func (h *Host) SubmitContact(ctx context.Context, userID, email string) error {
	email, err := checkEmail(email, true)
	if err != nil {
		return err
	}
	return h.store.RecordPromptEvent(ctx, &store.PromptEvent{UserID: userID, Kind: store.PromptContact,
		Action: store.PromptAnswered, Email: email, CreatedAt: h.now()})
}

// SubmitValueSurvey keeps a value survey answer: a score from 0 to 10 and an optional address.
func (h *Host) SubmitValueSurvey(ctx context.Context, userID string, score int, email string) error {
	if score < 0 || score > 10 {
		return invalid("value must be a whole number from 0 to 10, got %d", score)
	}
	email, err := checkEmail(email, false)
	if err != nil {
		return err
	}
	now := h.now()
	if email != "" {
		last, err := h.store.LastPromptEvent(ctx, userID, store.PromptValueSurvey, store.PromptAnswered)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if last != nil && last.Email == "" && last.Score != nil && *last.Score == score && now.Sub(last.CreatedAt) <= EmailStepWindow {
			err := h.store.SetPromptEmail(ctx, last.ID, email)
			if !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
	}
	return h.store.RecordPromptEvent(ctx, &store.PromptEvent{UserID: userID, Kind: store.PromptValueSurvey,
		Action: store.PromptAnswered, Email: email, Score: &score, CreatedAt: now})
}

// Answers lists the answers for the owner, newest first (at most MaxAnswersListed).
func (h *Host) Answers(ctx context.Context) ([]store.PromptAnswer, error) {
	return h.store.ListPromptAnswers(ctx, MaxAnswersListed)
}

func (h *Host) offer(ctx context.Context, userID, kind string, now time.Time) error {
	return h.store.RecordPromptEvent(ctx, &store.PromptEvent{UserID: userID, Kind: kind, Action: store.PromptOffered, CreatedAt: now})
}

// happened tells whether the user's prompt of kind had action at or after since.
func (h *Host) happened(ctx context.Context, userID, kind, action string, since time.Time) (bool, error) {
	last, err := h.store.LastPromptEvent(ctx, userID, kind, action)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !last.CreatedAt.Before(since), nil
}

// checkEmail trims an address and checks it is one plain address (no display name).
func checkEmail(raw string, required bool) (string, error) {
	email := strings.TrimSpace(raw)
	if email == "" {
		if required {
			return "", invalid("email is required")
		}
		return "", nil
	}
	if len(email) > MaxEmailLength {
		return "", invalid("email must be at most %d characters long", MaxEmailLength)
	}
	if addr, err := mail.ParseAddress(email); err != nil || addr.Address != email || !strings.Contains(email[strings.LastIndex(email, "@"):], ".") {
		return "", invalid("%q is not a valid email", email)
	}
	return email, nil
}
