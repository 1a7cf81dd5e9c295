package main

import (
	"errors"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/wellformed"
)

// wellFormedText refuses a REST or public API request whose body, query parameters or path
// carry text that is not UTF-8 or holds the NUL character, with 400 naming the place, before
// any handler decodes it: Postgres refuses NUL (a 500 deep in a save) and the JSON decoder
// would silently rewrite what is not UTF-8, so names would change without telling.
func wellFormedText(c fiber.Ctx) error {
	if err := wellformed.String(string(c.Request().URI().Path()), "the path"); err != nil {
		return textError("The path", err)
	}
	var bad error
	c.Request().URI().QueryArgs().VisitAll(func(k, v []byte) {
		where := "the query parameter " + string(k)
		if bad == nil {
			bad = wellformed.String(string(k)+string(v), where)
		}
		if bad == nil && len(v) > 0 && (v[0] == '{' || v[0] == '[') { // a filter: JSON escapes count
			if err := wellformed.JSON(v); err != nil {
				bad = &wellformed.Error{Err: errors.Unwrap(err), Where: where}
			}
		}
	})
	if bad != nil {
		return textError("The query string", bad)
	}
	if err := wellformed.JSON(c.Body()); err != nil {
		return textError("The request body", err)
	}
	return c.Next()
}

// textError is the 400 of a failed check: what is wrong and where.
func textError(subject string, err error) error {
	var we *wellformed.Error
	where := ""
	if errors.As(err, &we) && we.Where != "" {
		where = " (at " + we.Where + ")"
	}
	if errors.Is(err, wellformed.ErrNUL) {
		return badRequest(wellformed.ErrNUL.Error() + where)
	}
	return badRequest(subject + " is not valid UTF-8" + where)
}
