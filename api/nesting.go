package main

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/nesting"
)

// boundedNesting refuses a REST or public API body nested deeper than nesting.Max with 400
// before any handler decodes it: the bodies carry workflows and run data, which are stored and
// encoded again by recursive encoders.
func boundedNesting(c fiber.Ctx) error {
	if err := nesting.JSON(c.Body()); err != nil {
		return badRequest("The body is not accepted: " + err.Error())
	}
	return c.Next()
}

// carriesJSON tells the routes whose bodies are JSON documents (the REST and public API
// routes); webhook bodies are read by the webhook node, which checks them itself.
func carriesJSON(path string) bool {
	return strings.HasPrefix(path, "/rest/") || strings.HasPrefix(path, "/api/")
}
