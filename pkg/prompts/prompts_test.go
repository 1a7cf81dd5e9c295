package prompts_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/prompts"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// clock is a settable time for the host.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func newUser(t *testing.T, s *store.Store, email string) *store.User {
	t.Helper()
	now := time.Now().UTC()
	u := &store.User{ID: store.NewUUID(), Email: &email, GlobalRole: store.RoleMember, CreatedAt: now, UpdatedAt: now}
	require.NoError(t, s.DB.Create(u).Error)
	return u
}

func TestOffersContactPromptOnceThenValueSurveyPerInterval(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		host, err := prompts.New(prompts.Config{Store: s, Now: c.Now})
		require.NoError(t, err)
		user := newUser(t, s, "mia@example.com")

		p, err := host.Next(ctx, user.ID)
		require.NoError(t, err)
		require.True(t, p.ShowContactPrompt)
		require.False(t, p.ShowValueSurvey)
		require.NotEmpty(t, p.Title)
		require.NotEmpty(t, p.Message)

		// Closed without an answer: not offered again; the survey comes next.
		p, err = host.Next(ctx, user.ID)
		require.NoError(t, err)
		require.Equal(t, prompts.Prompts{ShowValueSurvey: true}, p)

		// Within the interval nothing more is asked, answered or not.
		require.NoError(t, host.SubmitValueSurvey(ctx, user.ID, 9, ""))
		c.now = c.now.Add(prompts.SurveyInterval - time.Hour)
		p, err = host.Next(ctx, user.ID)
		require.NoError(t, err)
		require.Equal(t, prompts.Prompts{}, p)

		c.now = c.now.Add(2 * time.Hour)
		p, err = host.Next(ctx, user.ID)
		require.NoError(t, err)
		require.Equal(t, prompts.Prompts{ShowValueSurvey: true}, p)

		// Every user has prompts of their own.
		other := newUser(t, s, "olga@example.com")
		p, err = host.Next(ctx, other.ID)
		require.NoError(t, err)
		require.True(t, p.ShowContactPrompt)
	})
}

func TestAnswersAreCheckedAndListedNewestFirst(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
		host, err := prompts.New(prompts.Config{Store: s, Now: c.Now})
		require.NoError(t, err)
		user := newUser(t, s, "mia@example.com")

		for _, tt := range []struct {
			name    string
			submit  func() error
			wantErr string
		}{
			{"contact without an address", func() error { return host.SubmitContact(ctx, user.ID, "  ") }, "email is required"},
			{"contact with a bad address", func() error { return host.SubmitContact(ctx, user.ID, "not-an-address") }, `"not-an-address" is not a valid email`},
			{"contact with a display name", func() error { return host.SubmitContact(ctx, user.ID, "Mia <mia@example.com>") }, "is not a valid email"},
			{"score below 0", func() error { return host.SubmitValueSurvey(ctx, user.ID, -1, "") }, "from 0 to 10, got -1"},
			{"score above 10", func() error { return host.SubmitValueSurvey(ctx, user.ID, 11, "") }, "from 0 to 10, got 11"},
			{"survey with a bad address", func() error { return host.SubmitValueSurvey(ctx, user.ID, 5, "a@b") }, "is not a valid email"},
		} {
			err := tt.submit()
			require.ErrorIs(t, err, prompts.ErrInvalid, tt.name)
			require.ErrorContains(t, err, tt.wantErr, tt.name)
		}

		require.NoError(t, host.SubmitContact(ctx, user.ID, " mia@example.com "))
		c.now = c.now.Add(time.Minute)
		// The score comes first, its e-mail step completes the same answer.
		require.NoError(t, host.SubmitValueSurvey(ctx, user.ID, 7, ""))
		c.now = c.now.Add(time.Minute)
		require.NoError(t, host.SubmitValueSurvey(ctx, user.ID, 7, "mia.work@example.com"))
		c.now = c.now.Add(prompts.EmailStepWindow + time.Minute)
		require.NoError(t, host.SubmitValueSurvey(ctx, user.ID, 0, ""))

		answers, err := host.Answers(ctx)
		require.NoError(t, err)
		require.Len(t, answers, 3)
		require.Equal(t, store.PromptValueSurvey, answers[0].Kind)
		require.Equal(t, 0, *answers[0].Score)
		require.Empty(t, answers[0].Email)
		require.Equal(t, 7, *answers[1].Score)
		require.Equal(t, "mia.work@example.com", answers[1].Email)
		require.Equal(t, store.PromptContact, answers[2].Kind)
		require.Equal(t, "mia@example.com", answers[2].Email)
		require.Nil(t, answers[2].Score)
		require.Equal(t, "mia@example.com", *answers[2].UserEmail)

		// An address left in the contact prompt means it is not offered.
		p, err := host.Next(ctx, user.ID)
		require.NoError(t, err)
		require.False(t, p.ShowContactPrompt)
	})
}
