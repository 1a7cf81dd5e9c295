package nodes

import (
	"fmt"
	"strconv"
	"strings"
)

// UnknownTypeError refuses a node whose type name no registered node type has.
type UnknownTypeError struct {
	// Type is the node's type name.
	Type string
}

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("The node type %q is not known: install it, or replace the node", e.Type)
}

// UnknownVersionError refuses a node whose type is known but not in its typeVersion, such as a
// workflow from a newer n8n.
type UnknownVersionError struct {
	// Type is the node's type name.
	Type string
	// Version is the node's typeVersion (1 when the node had none).
	Version float64
	// Known lists the versions this instance implements, ascending.
	Known []float64
}

func (e *UnknownVersionError) Error() string {
	known := make([]string, len(e.Known))
	for i, v := range e.Known {
		known[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	word := "versions"
	if len(known) == 1 {
		word = "version"
	}
	return fmt.Sprintf("The node type %q has no version %s here (known %s: %s): upgrade Flowmill, or replace the node",
		e.Type, strconv.FormatFloat(e.Version, 'f', -1, 64), word, strings.Join(known, ", "))
}
