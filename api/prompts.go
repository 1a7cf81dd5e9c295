package main

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/prompts"
)

// The built-in prompts host speaks the protocol of an outside one (n8n's: GET /prompts, POST
// /prompt, POST /value-survey, bodies not wrapped in "data"), so the editor calls either the same
// way. It takes the user from the session, not from the n8n-user-id header the editor also sends.

// promptsSettings are FLOWMILL_PROMPTS_*: whether the editor asks for prompts and where.
type promptsSettings struct {
	Enabled bool   `json:"enabled"`
	Host    string `json:"host"`
}

// promptsHostPath is where the built-in host is mounted, under the base path.
const promptsHostPath = "rest/prompts-host"

// contactRequest is the body of POST /prompt.
type contactRequest struct {
	Email string `json:"email"`
}

// valueSurveyRequest is the body of POST /value-survey.
type valueSurveyRequest struct {
	Value *int   `json:"value"`
	Email string `json:"email"`
}

// promptResponse is what both POSTs answer (n8n's IN8nPromptResponse).
type promptResponse struct {
	Updated bool `json:"updated"`
}

// promptAnswerResponse is one answer in the owner's list.
type promptAnswerResponse struct {
	ID        int64     `json:"id"`
	Kind      string    `json:"kind"`
	UserEmail string    `json:"userEmail"`
	Email     string    `json:"email"`
	Value     *int      `json:"value,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

func (s *server) promptsSettings() promptsSettings {
	host := s.cfg.PromptsHost
	if host == "" {
		host = s.cfg.BasePath + promptsHostPath
	}
	return promptsSettings{Enabled: s.cfg.PromptsEnabled, Host: host}
}

// builtInPrompts is the built-in host, or a 404 when prompts are off or an outside host is set.
func (s *server) builtInPrompts() (*prompts.Host, error) {
	if s.prompts == nil {
		return nil, notFound("The built-in prompts host is off: set FLOWMILL_PROMPTS_ENABLED=true and leave FLOWMILL_PROMPTS_HOST empty to use it")
	}
	return s.prompts, nil
}

// getPrompts tells the editor which prompt to show the signed-in user.
func (s *server) getPrompts(c fiber.Ctx) error {
	host, err := s.builtInPrompts()
	if err != nil {
		return err
	}
	p, err := host.Next(c.Context(), sessionUser(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(p)
}

// postPromptContact keeps the address the user left in the contact prompt.
func (s *server) postPromptContact(c fiber.Ctx) error {
	host, err := s.builtInPrompts()
	if err != nil {
		return err
	}
	var req contactRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("The body must be JSON: " + err.Error())
	}
	if err := host.SubmitContact(c.Context(), sessionUser(c).ID, req.Email); err != nil {
		return promptError(err)
	}
	return c.JSON(promptResponse{Updated: true})
}

// postValueSurvey keeps a value survey answer.
func (s *server) postValueSurvey(c fiber.Ctx) error {
	host, err := s.builtInPrompts()
	if err != nil {
		return err
	}
	var req valueSurveyRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("The body must be JSON: " + err.Error())
	}
	if req.Value == nil {
		return badRequest("value is missing: a whole number from 0 to 10")
	}
	if err := host.SubmitValueSurvey(c.Context(), sessionUser(c).ID, *req.Value, req.Email); err != nil {
		return promptError(err)
	}
	return c.JSON(promptResponse{Updated: true})
}

// getPromptAnswers lists the answers the built-in host kept, newest first, for the owner.
func (s *server) getPromptAnswers(c fiber.Ctx) error {
	host, err := s.builtInPrompts()
	if err != nil {
		return err
	}
	answers, err := host.Answers(c.Context())
	if err != nil {
		return err
	}
	out := make([]promptAnswerResponse, len(answers))
	for i, a := range answers {
		out[i] = promptAnswerResponse{ID: a.ID, Kind: a.Kind, Email: a.Email, Value: a.Score, CreatedAt: a.CreatedAt.UTC()}
		if a.UserEmail != nil {
			out[i].UserEmail = *a.UserEmail
		}
	}
	return respond(c, out)
}

func promptError(err error) error {
	if errors.Is(err, prompts.ErrInvalid) {
		return badRequest(err.Error())
	}
	return err
}
