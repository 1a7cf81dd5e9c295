package main

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// apiError is an error with the HTTP status and texts the client should see.
type apiError struct {
	Status  int
	Message string
	Hint    string
	cause   error
}

func (e *apiError) Error() string { return e.Message }
func (e *apiError) Unwrap() error { return e.cause }

// errorBody is the JSON every failed /rest call answers with.
type errorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

func badRequest(msg string) error   { return &apiError{Status: http.StatusBadRequest, Message: msg} }
func unauthorized(msg string) error { return &apiError{Status: http.StatusUnauthorized, Message: msg} }
func notFound(msg string) error     { return &apiError{Status: http.StatusNotFound, Message: msg} }

// errorHandler is the one place errors become responses; it logs unexpected ones once.
func errorHandler(log *slog.Logger) fiber.ErrorHandler {
	return func(c fiber.Ctx, err error) error {
		if written, werr := writeWebhookError(c, err); written {
			return werr
		}
		body := toErrorBody(err)
		switch {
		case body.Code == http.StatusServiceUnavailable:
			c.Set(fiber.HeaderRetryAfter, retryAfter)
			log.Warn("request failed: a backing service is unavailable", "method", c.Method(), "path", c.Path(), "err", err)
		case body.Code >= 500:
			log.Error("request failed", "method", c.Method(), "path", c.Path(), "err", err)
		}
		if isOAuthCallback(c.Path()) {
			return oauthErrorPage(c, body)
		}
		if public, _ := c.Locals(localsPublicAPI).(bool); public {
			return c.Status(body.Code).JSON(fiber.Map{"message": body.Message})
		}
		return c.Status(body.Code).JSON(body)
	}
}

// toErrorBody maps error kinds to a status and the texts the client sees. Unexpected errors
// show a generic message: their details stay in the log.
func toErrorBody(err error) errorBody {
	var (
		ae *apiError
		fe *fiber.Error
		we *webhook.Error
		le *workflow.LimitError
	)
	switch {
	case errors.As(err, &ae):
		return errorBody{Code: ae.Status, Message: ae.Message, Hint: ae.Hint}
	case errors.As(err, &we):
		return errorBody{Code: webhookErrorStatus[we.Kind], Message: we.Message, Hint: we.Hint}
	case errors.As(err, &fe):
		return errorBody{Code: fe.Code, Message: fiberMessage(fe)}
	case errors.As(err, &le):
		if le.Size {
			return errorBody{Code: http.StatusRequestEntityTooLarge, Message: le.Error()}
		}
		return errorBody{Code: http.StatusBadRequest, Message: le.Error()}
	case errors.Is(err, workflow.ErrInvalid):
		return errorBody{Code: http.StatusUnprocessableEntity, Message: err.Error()}
	case errors.Is(err, store.ErrNotFound):
		return errorBody{Code: http.StatusNotFound, Message: "Not found"}
	case errors.Is(err, store.ErrConflict):
		return errorBody{Code: http.StatusConflict, Message: "Conflict"}
	case errors.Is(err, execution.ErrNotQueued):
		return errorBody{Code: http.StatusServiceUnavailable, Message: "The execution is stored but could not be queued; it will start shortly"}
	case store.IsUnavailable(err):
		return errorBody{Code: http.StatusServiceUnavailable, Message: "The database is unavailable; try again shortly"}
	case isNetworkFailure(err):
		return errorBody{Code: http.StatusServiceUnavailable, Message: "A service the server depends on is unavailable; try again shortly"}
	}
	return errorBody{Code: http.StatusInternalServerError, Message: "Internal server error"}
}

// retryAfter is the Retry-After (seconds) of every 503: outages the client cannot fix but
// that pass.
var retryAfter = strconv.Itoa(int(execution.RetryAfter.Seconds()))

// isNetworkFailure reports whether err is a connection to a backing service (Redis, the
// database) that failed or timed out.
func isNetworkFailure(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

func statusOf(err error) int { return toErrorBody(err).Code }

func fiberMessage(fe *fiber.Error) string {
	switch fe.Code {
	case http.StatusRequestEntityTooLarge:
		return "Request body is too large"
	case http.StatusNotFound:
		return "Not found"
	case http.StatusMethodNotAllowed:
		return "Method not allowed"
	}
	return fe.Message
}
