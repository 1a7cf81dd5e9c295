package filefence_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/filefence"
)

// layout is a data folder holding the files folder, the key and SQLite files, and a folder
// outside both.
type layout struct {
	data, files, outside string
}

func newLayout(t *testing.T) layout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	l := layout{data: filepath.Join(base, "data"), outside: filepath.Join(base, "outside")}
	l.files = filepath.Join(l.data, "files")
	require.NoError(t, os.MkdirAll(l.outside, 0o700))
	require.NoError(t, os.MkdirAll(l.data, 0o700))
	for _, f := range []string{"config", "database.sqlite", "database.sqlite-wal", "database.sqlite-shm"} {
		require.NoError(t, os.WriteFile(filepath.Join(l.data, f), []byte("secret"), 0o600))
	}
	require.NoError(t, os.WriteFile(filepath.Join(l.outside, "secret.txt"), []byte("x"), 0o600))
	return l
}

func TestNewCreatesTheFolder(t *testing.T) {
	t.Parallel()
	l := newLayout(t)
	f, err := filefence.New(filefence.Options{Root: l.files, DataDir: l.data})
	require.NoError(t, err)
	info, err := os.Stat(l.files)
	require.NoError(t, err)
	require.True(t, info.IsDir())
	require.Equal(t, os.FileMode(0o700), info.Mode().Perm())
	require.Equal(t, l.files, f.Root())

	_, err = filefence.New(filefence.Options{})
	require.ErrorContains(t, err, "FLOWMILL_FILES_DIR")
}

func TestResolve(t *testing.T) {
	t.Parallel()
	l := newLayout(t)
	f, err := filefence.New(filefence.Options{Root: l.files, DataDir: l.data})
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(l.files, "sub"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(l.files, "sub", "a.txt"), []byte("a"), 0o600))
	// Links out of the folder, and a link from outside into it.
	require.NoError(t, os.Symlink(filepath.Join(l.outside, "secret.txt"), filepath.Join(l.files, "secret-link")))
	require.NoError(t, os.Symlink(l.outside, filepath.Join(l.files, "outdir")))
	require.NoError(t, os.Symlink(filepath.Join(l.data, "config"), filepath.Join(l.files, "key-link")))
	require.NoError(t, os.Symlink(filepath.Join(l.files, "sub"), filepath.Join(l.files, "subdir")))
	require.NoError(t, os.Symlink(filepath.Join(l.files, "sub"), filepath.Join(l.outside, "in")))
	require.NoError(t, os.Symlink(filepath.Join(l.outside, "new.txt"), filepath.Join(l.files, "dangling")))
	require.NoError(t, os.Symlink("/proc/self", filepath.Join(l.files, "proc")))

	outside := func(p string) string {
		return `The path "` + p + `" is outside the files folder; file nodes may only use paths under ` + l.files + ` (FLOWMILL_FILES_DIR).`
	}
	never := func(p string) string {
		return `The path "` + p + `" is never available to file nodes (system files and Flowmill's data folder); file nodes may only use paths under ` + l.files + ` (FLOWMILL_FILES_DIR).`
	}
	tests := []struct {
		name, path, want, err string
	}{
		{"absolute inside", filepath.Join(l.files, "sub", "a.txt"), filepath.Join(l.files, "sub", "a.txt"), ""},
		{"relative is under the folder", "sub/a.txt", filepath.Join(l.files, "sub", "a.txt"), ""},
		{"the folder itself", ".", l.files, ""},
		{"new file inside", "sub/new.txt", filepath.Join(l.files, "sub", "new.txt"), ""},
		{"new file in new folders inside", "x/y/new.txt", filepath.Join(l.files, "x", "y", "new.txt"), ""},
		{"new file under a linked folder inside", "subdir/new.txt", filepath.Join(l.files, "sub", "new.txt"), ""},
		{"inside through a link from outside", filepath.Join(l.outside, "in", "a.txt"), filepath.Join(l.files, "sub", "a.txt"), ""},
		{".. escape", "../config", "", outside("../config")},
		{".. escape out of the data folder", "../../outside/secret.txt", "", outside("../../outside/secret.txt")},
		{"absolute outside", filepath.Join(l.outside, "secret.txt"), "", outside(filepath.Join(l.outside, "secret.txt"))},
		{"/etc/passwd", "/etc/passwd", "", outside("/etc/passwd")},
		{"link to a file outside", "secret-link", "", outside("secret-link")},
		{"new file under a linked folder outside", "outdir/new.txt", "", outside("outdir/new.txt")},
		{"dangling link leading outside", "dangling", "", outside("dangling")},
		{"link to the key file", "key-link", "", outside("key-link")},
		{"the key file", filepath.Join(l.data, "config"), "", outside(filepath.Join(l.data, "config"))},
		{"/proc/self/environ", "/proc/self/environ", "", never("/proc/self/environ")},
		{"link to /proc", "proc/environ", "", never("proc/environ")},
		{"empty", " ", "", "The file path is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := f.Resolve(tc.path)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// Even a files folder of / keeps system files and the data folder (key, database) closed.
func TestResolveRootFolder(t *testing.T) {
	t.Parallel()
	l := newLayout(t)
	f, err := filefence.New(filefence.Options{Root: "/", DataDir: l.data})
	require.NoError(t, err)
	got, err := f.Resolve(filepath.Join(l.outside, "secret.txt"))
	require.NoError(t, err)
	require.Equal(t, filepath.Join(l.outside, "secret.txt"), got)
	for _, p := range []string{
		"/proc/self/environ", "/sys/kernel", "/dev/null", "proc/self/environ",
		filepath.Join(l.data, "config"), filepath.Join(l.data, "database.sqlite"),
		filepath.Join(l.data, "database.sqlite-wal"), filepath.Join(l.data, "database.sqlite-shm"),
		filepath.Join(l.data, "files", "x"), l.data,
	} {
		_, err := f.Resolve(p)
		var refused *filefence.RefusedError
		require.ErrorAs(t, err, &refused, p)
		require.True(t, refused.Never, p)
		require.ErrorContains(t, err, "(FLOWMILL_FILES_DIR)")
	}
}

// A files folder beside the data folder leaves the data folder closed; one inside it opens only
// itself.
func TestResolveDataFolder(t *testing.T) {
	t.Parallel()
	l := newLayout(t)
	f, err := filefence.New(filefence.Options{Root: filepath.Dir(l.data), DataDir: l.data})
	require.NoError(t, err)
	_, err = f.Resolve(filepath.Join(l.outside, "secret.txt"))
	require.NoError(t, err)
	_, err = f.Resolve("data/database.sqlite")
	require.ErrorContains(t, err, "is never available")

	f, err = filefence.New(filefence.Options{Root: l.files, DataDir: l.data})
	require.NoError(t, err)
	_, err = f.Resolve("a.txt")
	require.NoError(t, err)
}

func TestOpen(t *testing.T) {
	t.Parallel()
	l := newLayout(t)
	f, err := filefence.New(filefence.Options{Root: l.files, DataDir: l.data})
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(l.files, "sub"), 0o700))
	require.NoError(t, os.Symlink(filepath.Join(l.files, "sub"), filepath.Join(l.files, "in")))
	require.NoError(t, os.Symlink(l.outside, filepath.Join(l.files, "out")))

	w, err := f.Open("in/new.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	require.NoError(t, err)
	_, err = w.WriteString("new")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	b, err := os.ReadFile(filepath.Join(l.files, "sub", "new.txt"))
	require.NoError(t, err)
	require.Equal(t, "new", string(b))

	for _, p := range []string{"out/new.txt", "../config", "/proc/self/environ"} {
		_, err = f.Open(p, os.O_WRONLY|os.O_CREATE, 0o600)
		var refused *filefence.RefusedError
		require.ErrorAs(t, err, &refused, p)
	}
	_, err = os.Stat(filepath.Join(l.outside, "new.txt"))
	require.ErrorIs(t, err, os.ErrNotExist)
	_, err = f.Open("missing.txt", os.O_RDONLY, 0)
	require.ErrorIs(t, err, os.ErrNotExist)
}
