package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// TestFailedWriteLeavesTheOldFile: a writer that fails after writing
// part of its content leaves the existing file byte for byte as it was,
// and no temporary behind.
func TestFailedWriteLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bundle.tar.gz")
	require.NoError(t, os.WriteFile(path, []byte("the good bundle"), 0o640))
	boom := errors.New("refused")
	err := Write(path, 0o644, func(w io.Writer) error {
		_, err := w.Write([]byte("half of a new"))
		require.NoError(t, err)
		return boom
	})
	require.ErrorIs(t, err, boom)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "the good bundle", string(data))
	require.Equal(t, []string{"bundle.tar.gz"}, entries(t, dir), "no temporary is left")

	// Nor is a file created when there was none.
	fresh := filepath.Join(dir, "report.html")
	require.ErrorIs(t, Write(fresh, 0o644, func(io.Writer) error { return boom }), boom)
	require.NoFileExists(t, fresh)
	require.Equal(t, []string{"bundle.tar.gz"}, entries(t, dir))
}

// TestWriteReplacesTheFile: a write that succeeds replaces the content
// (keeping an existing file's permissions, giving a new one perm) and
// leaves no temporary; through a symbolic link, the target is replaced
// and the link stays.
func TestWriteReplacesTheFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	require.NoError(t, os.WriteFile(path, []byte("old, and longer than the new"), 0o600))
	require.NoError(t, Write(path, 0o644, func(w io.Writer) error {
		_, err := w.Write([]byte("new"))
		return err
	}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(data))
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	fresh := filepath.Join(dir, "fresh.json")
	require.NoError(t, Write(fresh, 0o640, func(w io.Writer) error { _, err := w.Write([]byte("{}")); return err }))
	info, err = os.Stat(fresh)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), info.Mode().Perm())

	link := filepath.Join(dir, "latest.json")
	require.NoError(t, os.Symlink("report.json", link))
	require.NoError(t, Write(link, 0o644, func(w io.Writer) error { _, err := w.Write([]byte("via link")); return err }))
	target, err := os.Readlink(link)
	require.NoError(t, err)
	require.Equal(t, "report.json", target, "the link stays a link")
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "via link", string(data))
	require.ElementsMatch(t, []string{"report.json", "fresh.json", "latest.json"}, entries(t, dir))
}

// TestWriteToADevice: a path that is not a regular file (here a named
// pipe's stand-in, /dev/null) is written in place, not replaced.
func TestWriteToADevice(t *testing.T) {
	require.NoError(t, Write(os.DevNull, 0o644, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err }))
	info, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	require.NotZero(t, info.Mode()&os.ModeDevice)
}

// A file in a directory that does not exist is an error that names the
// file and the directory, never the temporary the write would have used;
// nothing is created.
func TestWriteIntoAMissingDirectory(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "reports", "r.html")
	err := Write(path, 0o644, func(w io.Writer) error {
		_, err := w.Write([]byte("report"))
		return err
	})
	require.ErrorContains(t, err, "write "+path+": the directory "+filepath.Join(root, "reports")+" does not exist (create it first)")
	require.NotContains(t, err.Error(), ".tmp")
	require.Empty(t, entries(t, root))
}
