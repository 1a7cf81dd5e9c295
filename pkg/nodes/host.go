package nodes

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Host is what the instance lets nodes reach beyond their items: files on disk and the network.
// The engine hands the same Host to every node run; its policies come from the settings.
type Host struct {
	// Files decides which paths file nodes may read and write; nil refuses every path.
	Files FileAccess
	// HTTP is the client for every request a node sends, built by egress: its dialer applies
	// the egress policy (FLOWMILL_EGRESS_ALLOW/DENY) to every connection, and nodes that need
	// their own transport options derive them from its policy (egress.PolicyOf). nil means the
	// built-in refusals only (tests: processes always set it).
	HTTP *http.Client
	// IdempotencyHeader is the header the HTTP Request node sends a key in that is stable per
	// execution, node run and item (see Execution.IdempotencyKey); "" sends none.
	IdempotencyHeader string
	// Workflows bounds the workflows a node reads to run (Execute Workflow); the zero value has
	// the default limits.
	Workflows workflow.Limits
	// UnpackMaxBytes caps what one file a node reads may unpack to (FLOWMILL_UNPACK_MAX_SIZE);
	// 0 means DefaultUnpackMaxBytes.
	UnpackMaxBytes int64
}

// DefaultUnpackMaxBytes is the unpacking cap of a Host that sets none: 256 MiB.
const DefaultUnpackMaxBytes = 256 << 20

// UnpackMaxBytes is the most bytes one file this node reads may unpack to.
func (ex *Execution) UnpackMaxBytes() int64 {
	if n := ex.cfg.Host.UnpackMaxBytes; n > 0 {
		return n
	}
	return DefaultUnpackMaxBytes
}

// FileAccess resolves the path a file node was given to the file it may touch, or refuses it
// with an error that says why and which setting decides.
type FileAccess interface {
	Resolve(path string) (string, error)
	// Open opens the file path stands for as os.OpenFile does, refusing what Resolve refuses;
	// links changed after the check cannot make it open anything else.
	Open(path string, flag int, perm os.FileMode) (*os.File, error)
}

// Host returns what the instance lets this node reach.
func (ex *Execution) Host() Host { return ex.cfg.Host }

// HTTPClient is the client a node sends its requests with.
func (ex *Execution) HTTPClient() *http.Client {
	if ex.cfg.Host.HTTP != nil {
		return ex.cfg.Host.HTTP
	}
	return builtInHTTP()
}

// builtInHTTP is the client of runs given no Host: the built-in egress refusals, no settings.
var builtInHTTP = sync.OnceValue(func() *http.Client { return egress.New(nil, nil).Client(egress.Options{}) })

// IdempotencyKey is a key for the side effect this node run has for one item: the same for
// the same execution, node, run and item, so a worker taking the execution over and running
// the node again produces it again, and different for every other item, run or execution.
// "" when the run belongs to no stored execution (an expression preview, a poll).
func (ex *Execution) IdempotencyKey(itemIndex int) string {
	id := ex.cfg.Expr.Execution.ID
	if id == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%s\x00%d\x00%d", id, ex.cfg.Node.Name, ex.cfg.RunIndex, itemIndex)))
	return hex.EncodeToString(sum[:])
}
