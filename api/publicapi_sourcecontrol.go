package main

import "github.com/gofiber/fiber/v3"

// apiSourceControlPull answers n8n's error for an instance whose source control is not
// connected to a repository: Flowmill has no source-control setting, so it never is.
func (s *server) apiSourceControlPull(c fiber.Ctx) error {
	if err := apiOwnerOnly(c); err != nil {
		return err
	}
	return badRequest("Source Control is not connected to a repository")
}
