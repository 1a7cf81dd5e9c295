package expr

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"
)

// luxonSource is Luxon's global build; see luxon/README.md for its version and how to update it.
//
//go:embed luxon/luxon.min.js
var luxonSource string

// luxonProgram compiles Luxon once per process, on first use rather than at start-up (it
// takes some 20 ms), and is run once in every runtime.
var luxonProgram = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("luxon.min.js", luxonSource, false)
})
