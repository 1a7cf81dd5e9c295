package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// The prompts of the built-in prompts host and what can happen to them.
const (
	// PromptContact is the contact prompt: the user leaves an e-mail address.
	PromptContact = "contact"
	// PromptValueSurvey is the value survey: a 0–10 score and an optional e-mail address.
	PromptValueSurvey = "valueSurvey"

	// PromptOffered records that the host asked the editor to show a prompt.
	PromptOffered = "offered"
	// PromptAnswered records an answer.
	PromptAnswered = "answered"
)

// PromptEvent is one thing that happened to a prompt of a user: offered or answered.
type PromptEvent struct {
	ID     int64 `gorm:"primaryKey"`
	UserID string
	Kind   string
	Action string
	// Email is the address the user left; empty when offered or when the survey had none.
	Email string
	// Score is the value survey's 0–10 answer; nil for everything else.
	Score     *int
	CreatedAt time.Time
}

// TableName keeps the table name of the schema.
func (PromptEvent) TableName() string { return "prompt_events" }

// PromptAnswer is an answer with the e-mail of the user who gave it, for the owner's list.
type PromptAnswer struct {
	PromptEvent
	UserEmail *string
}

// RecordPromptEvent stores an offer or an answer.
func (s *Store) RecordPromptEvent(ctx context.Context, e *PromptEvent) error {
	if e.Kind != PromptContact && e.Kind != PromptValueSurvey {
		return fmt.Errorf("%w: prompt kind %q", ErrInvalid, e.Kind)
	}
	if e.Action != PromptOffered && e.Action != PromptAnswered {
		return fmt.Errorf("%w: prompt action %q", ErrInvalid, e.Action)
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = time.Now()
	}
	e.CreatedAt = e.CreatedAt.UTC()
	if err := s.DB.WithContext(ctx).Create(e).Error; err != nil {
		return fmt.Errorf("record prompt %s %s of user %s: %w", e.Kind, e.Action, e.UserID, err)
	}
	return nil
}

// LastPromptEvent returns the user's latest event of a prompt kind and action, or ErrNotFound.
func (s *Store) LastPromptEvent(ctx context.Context, userID, kind, action string) (*PromptEvent, error) {
	var e PromptEvent
	err := s.DB.WithContext(ctx).Where("user_id = ? AND kind = ? AND action = ?", userID, kind, action).
		Order("created_at DESC, id DESC").Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read prompt %s of user %s: %w", kind, userID, err)
	}
	return &e, nil
}

// SetPromptEmail sets the e-mail address of an answer that has none yet; ErrNotFound when there
// is no such answer.
func (s *Store) SetPromptEmail(ctx context.Context, id int64, email string) error {
	res := s.DB.WithContext(ctx).Model(&PromptEvent{}).Where("id = ? AND email = ''", id).Update("email", email)
	if res.Error != nil {
		return fmt.Errorf("set the e-mail of prompt answer %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// ListPromptAnswers returns the answers, newest first, at most limit of them.
func (s *Store) ListPromptAnswers(ctx context.Context, limit int) ([]PromptAnswer, error) {
	var out []PromptAnswer
	err := s.DB.WithContext(ctx).Table("prompt_events").
		Select("prompt_events.*, users.email AS user_email").
		Joins("LEFT JOIN users ON users.id = prompt_events.user_id").
		Where("prompt_events.action = ?", PromptAnswered).
		Order("prompt_events.created_at DESC, prompt_events.id DESC").Limit(limit).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list prompt answers: %w", err)
	}
	return out, nil
}
