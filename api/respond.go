package main

import "github.com/gofiber/fiber/v3"

// envelope wraps every successful /rest response.
type envelope struct {
	Data any `json:"data"`
}

func respond(c fiber.Ctx, data any) error { return c.JSON(envelope{Data: data}) }
