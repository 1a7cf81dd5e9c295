// Package filefence decides which files file nodes may touch: only paths under one folder
// (FLOWMILL_FILES_DIR), judged after symbolic links are resolved, and never /proc, /sys, /dev or
// Flowmill's data folder (its encryption key and SQLite database), whatever that folder is.
package filefence

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// systemTrees are never available to file nodes: they expose the process's environment (which
// holds the settings and their secrets), memory and devices.
var systemTrees = []string{"/proc", "/sys", "/dev"}

// maxLinks bounds how many dangling symbolic links one path may go through, as the kernel does.
const maxLinks = 40

// Options configure a Fence.
type Options struct {
	// Root is the only folder file nodes may use (FLOWMILL_FILES_DIR); relative paths are
	// relative to it. New creates it with mode 0700 when it is missing.
	Root string
	// DataDir is Flowmill's data folder. It is never available, except Root's own subtree when
	// Root lies inside it (the default, DataDir/files).
	DataDir string
}

// Fence is the instance's nodes.FileAccess. It is safe for concurrent use and lives as long as
// its process (it keeps the files folder open).
type Fence struct {
	// shown is Root as configured, for messages; root is it with symbolic links resolved.
	shown, root string
	// data is DataDir resolved; never is every tree refused whatever Root is.
	data  string
	never []string
	// dir opens files beneath root only, so a link swapped in after Resolve cannot lead out.
	dir *os.Root
}

var _ nodes.FileAccess = (*Fence)(nil)

// New creates the files folder when missing and returns the fence around it.
func New(o Options) (*Fence, error) {
	if o.Root == "" {
		return nil, errors.New("filefence: the files folder is not set (FLOWMILL_FILES_DIR)")
	}
	shown, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, fmt.Errorf("files folder (FLOWMILL_FILES_DIR): %w", err)
	}
	if err := os.MkdirAll(shown, 0o700); err != nil {
		return nil, fmt.Errorf("create the files folder (FLOWMILL_FILES_DIR): %w", err)
	}
	root, err := filepath.EvalSymlinks(shown)
	if err != nil {
		return nil, fmt.Errorf("files folder (FLOWMILL_FILES_DIR): %w", err)
	}
	dir, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("files folder (FLOWMILL_FILES_DIR): %w", err)
	}
	f := &Fence{shown: shown, root: root, dir: dir}
	for _, t := range systemTrees {
		f.never = append(f.never, t)
		if r, err := filepath.EvalSymlinks(t); err == nil && r != t {
			f.never = append(f.never, r)
		}
	}
	if o.DataDir != "" {
		data, err := filepath.Abs(o.DataDir)
		if err != nil {
			return nil, fmt.Errorf("data folder: %w", err)
		}
		if f.data, err = resolve(data, 0); err != nil {
			return nil, fmt.Errorf("data folder: %w", err)
		}
	}
	return f, nil
}

// Root is the files folder as configured (absolute).
func (f *Fence) Root() string { return f.shown }

// Resolve returns the file path stands for, with every symbolic link resolved, when file nodes
// may use it; a relative path is relative to the files folder. A file that does not exist yet
// is judged by its nearest existing parent. Open the returned path, not the original, so that
// what was checked is what is opened. Refusals are *RefusedError.
func (f *Fence) Resolve(path string) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", errors.New("The file path is empty")
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(f.root, abs)
	}
	abs = filepath.Clean(abs)
	real, err := resolve(abs, 0)
	if err != nil {
		if !within(abs, f.root) {
			return "", f.refuse(path, false)
		}
		return "", fmt.Errorf("The path %q cannot be used: %w", path, err)
	}
	for _, t := range f.never {
		if within(real, t) {
			return "", f.refuse(path, true)
		}
	}
	if !within(real, f.root) {
		return "", f.refuse(path, false)
	}
	rootInsideData := f.data != "" && f.root != f.data && within(f.root, f.data)
	if f.data != "" && within(real, f.data) && !rootInsideData {
		return "", f.refuse(path, true)
	}
	return real, nil
}

// Open opens the file path stands for as os.OpenFile does, when Resolve allows it. It opens the
// resolved path beneath the files folder (os.Root), so a link put in its way after the check
// cannot lead out of the folder.
func (f *Fence) Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	real, err := f.Resolve(path)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(f.root, real)
	if err != nil {
		return nil, err
	}
	return f.dir.OpenFile(rel, flag, perm)
}

func (f *Fence) refuse(path string, never bool) error {
	return &RefusedError{Path: path, Root: f.shown, Never: never}
}

// RefusedError is a path file nodes may not use.
type RefusedError struct {
	// Path is the path as the node was given it.
	Path string
	// Root is the files folder.
	Root string
	// Never is set for system and Flowmill data files, which no files folder opens.
	Never bool
}

func (e *RefusedError) Error() string {
	if e.Never {
		return fmt.Sprintf("The path %q is never available to file nodes (system files and Flowmill's data folder); file nodes may only use paths under %s (FLOWMILL_FILES_DIR).", e.Path, e.Root)
	}
	return fmt.Sprintf("The path %q is outside the files folder; file nodes may only use paths under %s (FLOWMILL_FILES_DIR).", e.Path, e.Root)
}

// within reports whether path is dir or lies under it; both are clean and absolute.
func within(path, dir string) bool {
	if dir == string(filepath.Separator) {
		return true
	}
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// resolve resolves the symbolic links of the clean absolute path p. For a path that does not
// exist it resolves the nearest existing parent and appends the rest; a dangling link on the way
// is followed to where a new file would be created.
func resolve(p string, links int) (string, error) {
	rest := ""
	cur := p
	for {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			if links >= maxLinks {
				return "", fmt.Errorf("too many symbolic links")
			}
			target, err := os.Readlink(cur)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(target) {
				dir, err := filepath.EvalSymlinks(filepath.Dir(cur))
				if err != nil {
					return "", err
				}
				target = filepath.Join(dir, target)
			}
			return resolve(filepath.Join(target, rest), links+1)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", err
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
