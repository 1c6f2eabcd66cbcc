package tests

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShownBenchmarksRun holds the benchmark commands the docs show to
// the benchmarks they name: each names a package of this repository and
// a -bench pattern that matches at least one of its benchmark functions.
// With TOOLEVAL_RUN_SHOWN_BENCHMARKS=1 (make soak) it runs each command
// as written but once (-benchtime 1x -count 1), which must exit 0 and
// report a benchmark: the figures come from the commands as written, by
// hand (docs/performance.md records them with the command).
func TestShownBenchmarksRun(t *testing.T) {
	t.Parallel()
	run := os.Getenv("TOOLEVAL_RUN_SHOWN_BENCHMARKS") == "1"
	shown := 0
	for _, c := range shownCommands(t) {
		if !strings.Contains(c.command, "go test") || !strings.Contains(c.command, "-bench") {
			continue
		}
		shown++
		pattern, pkg := benchmarkTarget(t, c.command)
		names := benchmarkFunctions(t, pkg)
		matched := false
		first := strings.Split(pattern, "/")[0] // go test matches sub-benchmarks by the rest
		re, err := regexp.Compile(first)
		require.NoError(t, err, "%s: %q: -bench %q", c.page, c.command, pattern)
		for _, name := range names {
			matched = matched || re.MatchString(name)
		}
		require.True(t, matched, "%s: %q: -bench %q matches none of %s's benchmarks %v", c.page, c.command, pattern, pkg, names)
		require.Regexp(t, `-benchtime[ =]\S+`, c.command, "%s: %q: a shown benchmark says how long it runs", c.page, c.command)
		if !run {
			continue
		}
		once := regexp.MustCompile(`-benchtime[ =]\S+`).ReplaceAllString(c.command, "-benchtime 1x")
		once = regexp.MustCompile(`-count[ =]\d+`).ReplaceAllString(once, "-count 1")
		cmd := exec.Command("sh", "-c", once)
		cmd.Dir = ".."
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %q:\n%s", c.page, once, out)
		require.Regexp(t, `(?m)^Benchmark\S+\s+1\s`, string(out), "%s: %q reports no benchmark:\n%s", c.page, once, out)
	}
	require.GreaterOrEqual(t, shown, 3, "the benchmark commands the docs show")
}

// benchmarkTarget returns the -bench pattern and the package directory
// (relative to the repository) of a go test command.
func benchmarkTarget(t *testing.T, command string) (pattern, pkg string) {
	t.Helper()
	fields := strings.Fields(command[strings.Index(command, "go test"):])
	for i, f := range fields {
		switch {
		case f == "-bench" && i+1 < len(fields):
			pattern = strings.Trim(fields[i+1], `'"`)
		case strings.HasPrefix(f, "-bench="):
			pattern = strings.Trim(strings.TrimPrefix(f, "-bench="), `'"`)
		case strings.HasPrefix(f, "./"):
			pkg = strings.TrimSuffix(f, "/")
		}
	}
	require.NotEmpty(t, pattern, "%q: no -bench", command)
	require.NotEmpty(t, pkg, "%q: no package", command)
	return pattern, pkg
}

// benchmarkFunctions lists the benchmark functions of a package directory.
func benchmarkFunctions(t *testing.T, pkg string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", pkg, "*_test.go"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "%s has no test files", pkg)
	declared := regexp.MustCompile(`(?m)^func (Benchmark\w*)\(b \*testing\.B\)`)
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range declared.FindAllStringSubmatch(string(data), -1) {
			names = append(names, m[1])
		}
	}
	return names
}
