package hostpath

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// tree makes a real workspace in a temporary directory and returns its
// root with symbolic links resolved (the temporary directory itself may
// sit behind one).
func tree(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws := filepath.Join(dir, "ws")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "src"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "outside"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "src", "main.go"), []byte("package main"), 0o644))
	return ws
}

func TestResolvePlainPaths(t *testing.T) {
	ws := tree(t)
	for in, want := range map[string]string{
		"src/main.go":             ws + "/src/main.go",
		"./src//main.go":          ws + "/src/main.go",
		ws + "/src/../src/x.go":   ws + "/src/x.go",
		"new/dir/file.txt":        ws + "/new/dir/file.txt",
		"new/../README.md":        ws + "/README.md",
		"../outside/x":            filepath.Dir(ws) + "/outside/x",
		"/":                       "/",
		ws + "/src/main.go/../..": ws,
	} {
		got, err := Resolve(ws, in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
}

func TestResolveFollowsSymlinksOutOfTheWorkspace(t *testing.T) {
	ws := tree(t)
	outside := filepath.Join(filepath.Dir(ws), "outside")
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "escape")))
	require.NoError(t, os.Symlink("../outside/secret", filepath.Join(ws, "relative_escape")))
	require.NoError(t, os.Symlink("src", filepath.Join(ws, "inside")))

	got, err := Resolve(ws, "escape/authorized_keys")
	require.NoError(t, err)
	require.Equal(t, outside+"/authorized_keys", got)

	got, err = Resolve(ws, ws+"/relative_escape")
	require.NoError(t, err)
	require.Equal(t, outside+"/secret", got)

	got, err = Resolve(ws, "inside/main.go")
	require.NoError(t, err)
	require.Equal(t, ws+"/src/main.go", got)
}

func TestResolveRefusesLoops(t *testing.T) {
	ws := tree(t)
	require.NoError(t, os.Symlink("b", filepath.Join(ws, "a")))
	require.NoError(t, os.Symlink("a", filepath.Join(ws, "b")))
	_, err := Resolve(ws, "a/file")
	require.ErrorIs(t, err, ErrLoop)

	require.NoError(t, os.Symlink("self", filepath.Join(ws, "self")))
	_, err = Resolve(ws, "self")
	require.ErrorIs(t, err, ErrLoop)
}

// chain makes link0 -> link1 -> ... -> linkN-1 -> src, n links in all.
func chain(t *testing.T, ws string, n int) {
	t.Helper()
	for i := range n {
		target := "link" + strconv.Itoa(i+1)
		if i == n-1 {
			target = "src"
		}
		require.NoError(t, os.Symlink(target, filepath.Join(ws, "link"+strconv.Itoa(i))))
	}
}

func TestResolveFollowsEightHops(t *testing.T) {
	ws := tree(t)
	chain(t, ws, 8)
	got, err := Resolve(ws, "link0/main.go")
	require.NoError(t, err)
	require.Equal(t, ws+"/src/main.go", got)
}

func TestResolveRefusesNineHops(t *testing.T) {
	ws := tree(t)
	chain(t, ws, 9)
	_, err := Resolve(ws, "link0/main.go")
	require.ErrorIs(t, err, ErrTooManyHops)
}

func TestResolveRefusesUnreadableComponents(t *testing.T) {
	if os.Geteuid() == 0 {
		// root reads every directory; a file used as a directory still fails.
		ws := tree(t)
		_, err := Resolve(ws, "src/main.go/child")
		require.Error(t, err)
		return
	}
	ws := tree(t)
	locked := filepath.Join(ws, "locked")
	require.NoError(t, os.Mkdir(locked, 0o000))
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	_, err := Resolve(ws, "locked/x")
	require.Error(t, err)
}

func TestResolveRejectsInvalidInput(t *testing.T) {
	for _, tc := range []struct{ root, p string }{
		{"/ws", ""},
		{"/ws", "a\x00b"},
		{"relative-root", "file"},
	} {
		_, err := Resolve(tc.root, tc.p)
		require.ErrorIs(t, err, ErrInvalid, "%q %q", tc.root, tc.p)
	}
}

// TestResolveRevisitsALinkThatIsNoLoop: a path may pass through the same
// link twice without looping; filepath.EvalSymlinks resolves it, and so
// must Resolve.
func TestResolveRevisitsALinkThatIsNoLoop(t *testing.T) {
	ws := tree(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "src", "pkg"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "src", "pkg", "x.go"), nil, 0o644))
	require.NoError(t, os.Symlink("src", filepath.Join(ws, "inside")))
	require.NoError(t, os.Symlink("inside", filepath.Join(ws, "again")))
	require.NoError(t, os.Symlink("src/pkg", filepath.Join(ws, "deep")))
	for _, p := range []string{
		"inside/../inside/main.go",
		"inside/../inside/../inside/main.go",
		"again/../again/../inside/main.go",
		"inside/../again/main.go",
		"again/../src/pkg/../main.go",
	} {
		got, err := Resolve(ws, p)
		require.NoError(t, err, p)
		// Not filepath.Join: it would clean "link/.." away lexically.
		want, err := filepath.EvalSymlinks(ws + "/" + p)
		require.NoError(t, err, p)
		require.Equal(t, want, got, p)
	}
}

// TestResolveRefusesTwoReadingsOfDotDot: a ".." after a link names one
// file when links are followed first (the kernel) and another when ".."
// is applied first (path.Clean, Node's path.resolve, the MCP filesystem
// server). Such a path is refused, never guessed; a ".." both readings
// agree on is resolved.
func TestResolveRefusesTwoReadingsOfDotDot(t *testing.T) {
	ws := tree(t)
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "a", "b"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "src", "pkg"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(ws, "a", "b"), filepath.Join(ws, "L")))
	require.NoError(t, os.Symlink("src/pkg", filepath.Join(ws, "deep")))
	for _, p := range []string{
		"L/../../outside/s.txt", // physical: ws/outside/s.txt; lexical: ../outside/s.txt
		ws + "/L/../../outside/s.txt",
		"L/../x",               // physical: ws/a/x; lexical: ws/x
		"deep/../../deep/x.go", // physical: ws/src/pkg/x.go; lexical: ../deep/x.go
		"deep/../pkg/../../deep/../main.go",
	} {
		_, err := Resolve(ws, p)
		require.ErrorIs(t, err, ErrLexical, p)
	}
	require.NoError(t, os.Symlink("a", filepath.Join(ws, "sibling")))
	for p, want := range map[string]string{
		"sibling/../x": ws + "/x",
		"a/b/../../x":  ws + "/x",
		"L/b2/../c":    ws + "/a/b/c", // the ".." undoes a component that is no link
	} {
		got, err := Resolve(ws, p)
		require.NoError(t, err, p)
		require.Equal(t, want, got, p)
	}
}

// TestResolveRefusesUnicodeEquivalentEntries: a component that is not on
// disk while its directory holds an entry equal to it under NFC (the MCP
// filesystem server opens that entry) is refused; the exact entry, or no
// equivalent one, resolves.
func TestResolveRefusesUnicodeEquivalentEntries(t *testing.T) {
	ws := tree(t)
	outside := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "Kdocs")))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "de\u0301tour")))
	require.NoError(t, os.Mkdir(filepath.Join(ws, "caf\u00e9"), 0o755))
	for _, p := range []string{
		"\u212adocs/secret.txt",  // KELVIN SIGN: NFC is K
		"d\u00e9tour/secret.txt", // composed request, decomposed entry
		"cafe\u0301/new.txt",     // decomposed request, composed entry
		ws + "/\u212adocs",
	} {
		_, err := Resolve(ws, p)
		require.ErrorIs(t, err, ErrEquivalent, p)
	}
	got, err := Resolve(ws, "caf\u00e9/new.txt")
	require.NoError(t, err)
	require.Equal(t, ws+"/caf\u00e9/new.txt", got)
	got, err = Resolve(ws, "other/\u212a")
	require.NoError(t, err, "no entry is equivalent: the request is judged as written (the policy refuses it as not NFC)")
	require.Equal(t, ws+"/other/\u212a", got)
}

// TestResolveNeverExpandsHomeOrVariables: "~" and "$VAR" mean something
// only to a shell; a path starting with them is refused, not taken
// relative to the workspace root.
func TestResolveNeverExpandsHomeOrVariables(t *testing.T) {
	ws := tree(t)
	require.NoError(t, os.Mkdir(filepath.Join(ws, "~"), 0o755)) // even when such a directory exists
	for _, p := range []string{"~", "~/.bashrc", "~root/.ssh/authorized_keys", "$HOME/.bashrc", "${HOME}/.ssh", "$PWD"} {
		_, err := Resolve(ws, p)
		require.ErrorIs(t, err, ErrInvalid, p)
	}
	// Elsewhere in a path they are ordinary characters.
	got, err := Resolve(ws, "src/~backup")
	require.NoError(t, err)
	require.Equal(t, ws+"/src/~backup", got)
}
