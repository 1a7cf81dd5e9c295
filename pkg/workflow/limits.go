package workflow

import (
	"errors"
	"fmt"
)

// Default workflow limits: far above any workflow built by hand (n8n workflows of a few hundred
// nodes are already rare), low enough that one workflow cannot take a worker's memory.
const (
	DefaultMaxNodes = 2000
	DefaultMaxBytes = 4 << 20
)

// ErrTooLarge is matched (errors.Is) by every *LimitError.
var ErrTooLarge = errors.New("workflow over a limit")

// LimitError says which workflow limit a document is over. Size is true for the document size
// limit (an HTTP caller gets 413) and false for the node count (400).
type LimitError struct {
	Size  bool
	Have  int
	Limit int
}

func (e *LimitError) Error() string {
	if e.Size {
		return fmt.Sprintf("The workflow is %d bytes of JSON, more than the limit of %d bytes per workflow (FLOWMILL_WORKFLOW_MAX_SIZE)", e.Have, e.Limit)
	}
	return fmt.Sprintf("The workflow has %d nodes, more than the limit of %d nodes per workflow (FLOWMILL_WORKFLOW_MAX_NODES)", e.Have, e.Limit)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *LimitError) Is(target error) bool { return target == ErrTooLarge }

// Limits bound a workflow wherever one enters: saved, imported, run unsaved, run as a
// sub-workflow or from the command line. Zero fields take the defaults; a negative field turns
// that limit off (benchmarks).
type Limits struct {
	// MaxNodes is the most nodes a workflow may have. Default DefaultMaxNodes (2,000).
	MaxNodes int
	// MaxBytes is the largest workflow document, in bytes of JSON. Default DefaultMaxBytes (4 MiB).
	MaxBytes int
}

func (l Limits) maxNodes() int {
	if l.MaxNodes == 0 {
		return DefaultMaxNodes
	}
	return l.MaxNodes
}

func (l Limits) maxBytes() int {
	if l.MaxBytes == 0 {
		return DefaultMaxBytes
	}
	return l.MaxBytes
}

// CheckSize refuses a document larger than MaxBytes.
func (l Limits) CheckSize(doc []byte) error {
	if m := l.maxBytes(); m > 0 && len(doc) > m {
		return &LimitError{Size: true, Have: len(doc), Limit: m}
	}
	return nil
}

// CheckNodes refuses a workflow with more than MaxNodes nodes.
func (l Limits) CheckNodes(wf *Workflow) error {
	if m := l.maxNodes(); m > 0 && len(wf.Nodes) > m {
		return &LimitError{Have: len(wf.Nodes), Limit: m}
	}
	return nil
}

// Parse checks the document's size, parses it (see Parse) and checks its node count: the one
// way a workflow from outside is read.
func (l Limits) Parse(doc []byte) (*Workflow, error) {
	if err := l.CheckSize(doc); err != nil {
		return nil, err
	}
	wf, err := Parse(doc)
	if err != nil {
		return nil, err
	}
	if err := l.CheckNodes(wf); err != nil {
		return nil, err
	}
	return wf, nil
}
