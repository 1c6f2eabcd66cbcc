package tests

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if n := bytes.Count(data, []byte("\n")); n > maxGoFileLines {
			over = append(over, path)
		}
		return nil
	}))
	require.Greater(t, files, 100, "the walk saw the repository's Go files")
	require.Empty(t, over, "Go files over %d lines: split each by what it does", maxGoFileLines)
}

// regoWithoutTests are the policy files without an X_test.rego of their
// own, tested through their package's other test files for now. The list
// only shrinks: TestEveryRegoFileHasItsTests fails on a file missing from
// it, and on a listed file that has its tests now.
var regoWithoutTests = map[string]bool{
	"tooleval/configuration/errors.rego": true,
}

// TestEveryRegoFileHasItsTests: every policy file X.rego has X_test.rego
// beside it (Gatekeeper's require-suites), but for regoWithoutTests.
func TestEveryRegoFileHasItsTests(t *testing.T) {
	t.Parallel()
	var missing, listedButTested []string
	files := 0
	require.NoError(t, filepath.WalkDir(policiesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") || strings.HasSuffix(path, "_test.rego") {
			return err
		}
		files++
		rel, err := filepath.Rel(policiesDir, path)
		if err != nil {
			return err
		}
		_, statErr := os.Stat(strings.TrimSuffix(path, ".rego") + "_test.rego")
		switch tested := statErr == nil; {
		case !tested && !regoWithoutTests[filepath.ToSlash(rel)]:
			missing = append(missing, rel)
		case tested && regoWithoutTests[filepath.ToSlash(rel)]:
			listedButTested = append(listedButTested, rel)
		}
		return nil
	}))
	require.Greater(t, files, 50, "the walk saw the policy files")
	require.Empty(t, missing, "policy files without their X_test.rego beside them: write one")
	require.Empty(t, listedButTested, "these have their tests now: take them off regoWithoutTests")
}
