package tests

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// maxGoFileLines is the most lines a Go file of the repository may have:
// a file that outgrows it holds more than one thing, and is split by
// what it does.
const maxGoFileLines = 500

// TestNoGoFileOver500Lines walks the repository (build outputs and
// installed packages aside) and names every Go file over maxGoFileLines.
func TestNoGoFileOver500Lines(t *testing.T) {
	t.Parallel()
	var over []string
	files := walkSources(t, func(path string) bool { return strings.HasSuffix(path, ".go") }, func(path string, data []byte) {
		if n := bytes.Count(data, []byte("\n")); n > maxGoFileLines {
			over = append(over, path)
		}
	})
	require.Greater(t, files, 100, "the walk saw the repository's Go files")
	require.Empty(t, over, "Go files over %d lines: split each by what it does", maxGoFileLines)
}

// TestEveryRegoFileHasItsTests: every policy file X.rego has X_test.rego
// beside it (Gatekeeper's require-suites). Other test files (a feature
// across files, a preset's rows, shared helpers) may sit beside them.
func TestEveryRegoFileHasItsTests(t *testing.T) {
	t.Parallel()
	var missing []string
	files := 0
	require.NoError(t, filepath.WalkDir(harness.PoliciesDir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") || strings.HasSuffix(path, "_test.rego") {
			return err
		}
		files++
		if _, statErr := os.Stat(strings.TrimSuffix(path, ".rego") + "_test.rego"); statErr != nil {
			rel, err := filepath.Rel(harness.PoliciesDir(), path)
			if err != nil {
				return err
			}
			missing = append(missing, rel)
		}
		return nil
	}))
	require.Greater(t, files, 50, "the walk saw the policy files")
	require.Empty(t, missing, "policy files without their X_test.rego beside them: write one")
}

// issueReference is a reference to the project's issue tracker ("issue"
// and a number): history, which belongs in git.
var issueReference = regexp.MustCompile(`(?i)\bissues? #?[0-9]+`)

// TestNoIssueNumbersInTheSources: no Go, Rego or Markdown file and no
// Makefile names an issue by its number. What a change was for is its
// commit's; the code and the pages say what holds now.
func TestNoIssueNumbersInTheSources(t *testing.T) {
	t.Parallel()
	var found []string
	sources := func(path string) bool {
		switch filepath.Ext(path) {
		case ".go", ".rego", ".md":
			return true
		}
		return filepath.Base(path) == "Makefile"
	}
	files := walkSources(t, sources, func(path string, data []byte) {
		for i, line := range strings.Split(string(data), "\n") {
			if m := issueReference.FindString(line); m != "" {
				found = append(found, fmt.Sprintf("%s:%d: %q", path, i+1, m))
			}
		}
	})
	require.Greater(t, files, 200, "the walk saw the repository's sources")
	require.Empty(t, found, "say what holds, not which issue asked for it (git log keeps that)")
}

// walkSources reads each file of the repository (build outputs, installed
// packages and git's own files aside) that keep accepts and hands it to
// visit; it returns how many it read.
func walkSources(t *testing.T, keep func(path string) bool, visit func(path string, data []byte)) int {
	t.Helper()
	files := 0
	require.NoError(t, filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "build", "node_modules", "bundle":
				return filepath.SkipDir
			}
			return nil
		}
		if !keep(path) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		visit(path, data)
		return nil
	}))
	return files
}
