package hostpath

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve: resolution never panics, always ends (loops and long
// chains are errors), and what it returns is absolute and clean.
func FuzzResolve(f *testing.F) {
	dir, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{"ws/src", "outside"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"ws/escape": "../outside", "ws/abs": "/", "ws/loop_a": "loop_b", "ws/loop_b": "loop_a",
		"ws/self": "self", "ws/up": "..", "ws/src/back": "../..",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			f.Fatal(err)
		}
	}
	for _, seed := range []string{"src/a", "escape/x", "abs/etc/passwd", "loop_a/x", "self", "up/up/x",
		"src/back/ws/escape", "../../..", "/", "a\x00b", "", "./././a//b/../c", ws + "/src/../escape"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := Resolve(ws, p)
		if err != nil {
			return
		}
		if !path.IsAbs(got) || path.Clean(got) != got || strings.ContainsRune(got, 0) {
			t.Fatalf("Resolve(%q) = %q: not absolute and clean", p, got)
		}
	})
}
