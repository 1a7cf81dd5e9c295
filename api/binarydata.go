package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/binaryref"
)

// getBinaryData answers the base64 data of one binary entry of a saved execution, to callers
// who may see that execution.
func (s *server) getBinaryData(c fiber.Ctx) error {
	id := c.Params("id")
	if !strings.HasPrefix(id, binaryref.Prefix) {
		// The id was sent percent-encoded as one path segment.
		if unescaped, err := url.PathUnescape(id); err == nil {
			id = unescaped
		}
	}
	ref, err := binaryref.Parse(id)
	if err != nil {
		return badRequest("Invalid binary data id: " + err.Error())
	}
	if err := s.checkExecutionVisible(c, ref.ExecutionID); err != nil {
		return err
	}
	d, err := s.in.Store.GetExecutionData(c.Context(), ref.ExecutionID)
	if err != nil {
		return executionNotFound(ref.ExecutionID, err)
	}
	data, ok := binaryref.Find(d.Data, ref)
	if !ok {
		return notFound(fmt.Sprintf("Binary data %q could not be found in execution %d", ref.Key, ref.ExecutionID))
	}
	return respond(c, data)
}
