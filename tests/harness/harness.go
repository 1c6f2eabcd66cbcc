// Package harness holds what the test rooms share: the repository's
// example inputs, a stock OPA (its executable, a built bundle, `opa
// eval` and `opa run --server`) and the built command line. Paths it
// returns are relative to the test's package directory when they are
// the repository's, as a test would write them.
package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Root is the repository's root directory: the nearest directory above
// the working directory (a test's package directory) holding go.mod.
func Root() string {
	wd, err := os.Getwd()
	if err != nil {
		panic(fmt.Sprintf("harness: the working directory: %v", err))
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			panic("harness: no go.mod above " + wd + ": run the tests from the repository")
		}
	}
}

// Path is the repository's file or directory at rel (slash-separated),
// relative to the working directory (a test's package directory) when
// it can be.
func Path(rel string) string {
	abs := filepath.Join(Root(), filepath.FromSlash(rel))
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if r, err := filepath.Rel(wd, abs); err == nil {
		return r
	}
	return abs
}

// PoliciesDir is the policy bundle's source.
func PoliciesDir() string { return Path("policies") }

// WriteFile writes data to a new file in the test's temporary directory
// and returns its path.
func WriteFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}

// SyncBuffer collects a process's output safely across goroutines.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
