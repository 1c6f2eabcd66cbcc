package tests

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestCLIHelpExamplesRun runs every example of every command's --help,
// as a reader would paste it, in a copy of the repository's layout
// (exampleWorkdir). Each must exit 0, 1 or 3 (a decision), never 2.
func TestCLIHelpExamplesRun(t *testing.T) {
	t.Parallel()
	dir, bin := exampleWorkdir(t)
	examples := 0
	for _, command := range []string{"eval", "tools", "launch", "check", "diff", "import", "bundle", "verify", "version"} {
		help, _, code := harness.CLI(t, "", command, "--help")
		require.Equal(t, 0, code)
		_, section, found := strings.Cut(help, "\nExamples:\n")
		require.True(t, found, "%s --help has no examples", command)
		for _, line := range strings.Split(section, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "tooleval ") && !strings.HasPrefix(line, "cat ") {
				continue
			}
			examples++
			runExample(t, dir, bin, command+" --help", line)
		}
	}
	require.GreaterOrEqual(t, examples, 20)
}

// TestREADMEExamplesRun runs every tooleval command the README shows (a
// line of a code block that starts with "$ tooleval" or "bin/tooleval",
// with its continuation lines) the same way.
func TestREADMEExamplesRun(t *testing.T) {
	t.Parallel()
	dir, bin := exampleWorkdir(t)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	require.NoError(t, os.Symlink(bin, filepath.Join(dir, "bin", "tooleval")))
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	examples, outputs := 0, 0
	inBlock := false
	var pending string
	// ran is the last "$ tooleval" command of the block and shown the
	// lines the block shows after it, its output.
	var ran string
	var shown []string
	finish := func() {
		if ran == "" {
			return
		}
		out := runExample(t, dir, bin, "README", ran)
		if len(shown) > 0 {
			outputs++
			requireShownOutput(t, "README", ran, shown, out)
		}
		ran, shown = "", nil
	}
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "```") {
			if inBlock {
				finish()
			}
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		if pending != "" {
			pending += " " + strings.TrimSpace(strings.TrimSuffix(line, "\\"))
			if !strings.HasSuffix(line, "\\") {
				examples++
				runExample(t, dir, bin, "README", pending)
				pending = ""
			}
			continue
		}
		command, ok := strings.CutPrefix(line, "$ ")
		dollar := ok
		if !ok && strings.HasPrefix(line, "bin/tooleval ") {
			command, ok = line, true
		}
		if !ok || !(strings.HasPrefix(command, "tooleval ") || strings.HasPrefix(command, "bin/tooleval ")) {
			if ran != "" && !dollar {
				shown = append(shown, line)
			}
			continue
		}
		if strings.HasSuffix(command, "\\") {
			pending = strings.TrimSpace(strings.TrimSuffix(command, "\\"))
			continue
		}
		examples++
		finish()
		if dollar {
			ran = command // its output follows in the block
			continue
		}
		runExample(t, dir, bin, "README", command)
	}
	require.GreaterOrEqual(t, examples, 3)
	require.GreaterOrEqual(t, outputs, 2, "the README shows the output of its $ commands")
}

// exampleWorkdir is a copy of the repository's layout (a git repository
// with inputs/ and policies/) where the files examples stand in for
// exist: request.json, deploy/config.json, the bundles prod.tar.gz and
// review.tar.gz, and decisions.log (events of an OPA decision log).
func exampleWorkdir(t *testing.T) (dir, bin string) {
	t.Helper()
	bin, err := harness.BuildCLI()
	require.NoError(t, err)
	dir = t.TempDir()
	copyTree(t, "../inputs", filepath.Join(dir, "inputs"))
	copyTree(t, "../inputs/verify/invariants", filepath.Join(dir, "policy", "invariants"))
	copyTree(t, harness.PoliciesDir(), filepath.Join(dir, "policies"))
	bundle, err := os.ReadFile(harness.BundlePath(t))
	require.NoError(t, err)
	request, err := os.ReadFile("../inputs/fork_tools.json")
	require.NoError(t, err)
	config, err := os.ReadFile("../inputs/configured/tenants/config.json")
	require.NoError(t, err)
	event, err := json.Marshal(map[string]any{"decision_id": "d1", "path": "tooleval/decision", "input": json.RawMessage(request), "erased": []string{"/input/calls/0/args"}})
	require.NoError(t, err)
	privateKey, _ := signingKey(t)
	signing, err := os.ReadFile(privateKey)
	require.NoError(t, err)
	for name, data := range map[string][]byte{
		"request.json": request, "deploy/config.json": config, "prod.tar.gz": bundle, "review.tar.gz": bundle, "decisions.log": append(event, '\n'),
		"live.tar.gz": bundle, "candidate.tar.gz": bundle, "catalog.json": request,
		"signing.pem": signing,
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o600))
	}
	for _, sub := range []string{"build", "bundle"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, sub), 0o755))
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	git("init", "-q")
	git("add", "policies", "inputs")
	git("commit", "-q", "-m", "examples")
	return dir, bin
}

// runExample runs one example command line in dir with the built
// command line first on PATH; it must exit 0, 1 or 3 (a decision), never
// 2.
func runExample(t *testing.T, dir, bin, where, line string) string {
	t.Helper()
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err, line)
	}
	require.Contains(t, []int{0, 1, 3}, code, "%s example %q exits %d:\n%s", where, line, code, out)
	return string(out)
}

// requireShownOutput checks that the lines a document shows under a
// command are its output: each shown line, "..." standing for any text,
// matches a line of out, in order (lines may be left out between them).
func requireShownOutput(t *testing.T, where, command string, shown []string, out string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	next := 0
	for _, want := range shown {
		if strings.TrimSpace(want) == "" || strings.TrimSpace(want) == "..." {
			continue
		}
		pattern := "^" + strings.ReplaceAll(regexp.QuoteMeta(strings.TrimRight(want, " ")), `\.\.\.`, ".*") + "\\s*$"
		re := regexp.MustCompile(pattern)
		found := false
		for next < len(lines) {
			line := lines[next]
			next++
			if re.MatchString(line) {
				found = true
				break
			}
		}
		require.True(t, found, "%s shows %q under %q, which its output does not have (in that order):\n%s", where, want, command, out)
	}
}

// copyTree copies a directory's regular files.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	}))
}
