package nodes

import (
	"errors"
	"os"
)

// errNoFileAccess refuses every path when the process gave nodes no file access (Host.Files).
var errNoFileAccess = errors.New("File nodes cannot use files in this process: no files folder is set up (FLOWMILL_FILES_DIR)")

// ResolveFile returns the file path stands for when this instance lets file nodes use it
// (Host.Files), or the refusal, which says why and names the setting.
func (ex *Execution) ResolveFile(path string) (string, error) {
	if ex.cfg.Host.Files == nil {
		return "", errNoFileAccess
	}
	return ex.cfg.Host.Files.Resolve(path)
}

// OpenFile opens path for a file node as os.OpenFile does, when this instance lets file nodes
// use it (Host.Files); otherwise it returns the refusal.
func (ex *Execution) OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	if ex.cfg.Host.Files == nil {
		return nil, errNoFileAccess
	}
	return ex.cfg.Host.Files.Open(path, flag, perm)
}
