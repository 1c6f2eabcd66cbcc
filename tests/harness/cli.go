package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// BuildCLI builds the command line as `make tooleval` does, with the
// revision of the checkout linked in (see [GitRevision]), once per test
// binary, and returns the executable's path.
var BuildCLI = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "tooleval-cli-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "tooleval")
	args := []string{"build", "-o", bin}
	if rev, err := GitRevision(); err == nil {
		args = append(args, "-ldflags", "-X github.com/tooleval/tooleval/engine.linkedRevision="+rev)
	}
	cmd := exec.Command("go", append(args, "./cmd/tooleval")...)
	cmd.Dir = Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
})

// GitRevision is the revision `make tooleval` links in: the commit, 12
// hex digits, with "-dirty" when the working tree has changes.
func GitRevision() (string, error) {
	head, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "", err
	}
	status, err := exec.Command("git", "status", "--porcelain").Output()
	if err != nil {
		return "", err
	}
	rev := strings.TrimSpace(string(head))
	if len(bytes.TrimSpace(status)) > 0 {
		rev += "-dirty"
	}
	return rev, nil
}

// CLI runs the tooleval binary and returns its stdout, stderr and exit
// code.
func CLI(t testing.TB, stdin string, args ...string) (string, string, int) {
	t.Helper()
	bin, err := BuildCLI()
	require.NoError(t, err)
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

// CLIEach runs the command line once with args and then every input
// file, and returns each input's document in order (with several inputs,
// --format json prints one {"result", "source"} line per input) and the
// exit code.
func CLIEach(t testing.TB, args []string, inputs []string) ([]json.RawMessage, int) {
	t.Helper()
	out, stderr, code := CLI(t, "", append(append([]string{}, args...), inputs...)...)
	require.Contains(t, []int{0, 1, 3}, code, "tooleval %v: %s", args, stderr)
	if len(inputs) == 1 {
		return []json.RawMessage{json.RawMessage(out)}, code
	}
	var results []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Result json.RawMessage `json:"result"`
			Source string          `json:"source"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &r), "tooleval %v: %s", args, line)
		require.Equal(t, inputs[len(results)], r.Source, "tooleval %v answers out of order", args)
		results = append(results, r.Result)
	}
	require.Len(t, results, len(inputs), "tooleval %v: %s", args, out)
	return results, code
}

// ConfigFile writes a configuration overlay to a new file and returns its
// path: the JSON file at base (if any) with members replaced.
func ConfigFile(t testing.TB, base string, members map[string]any) string {
	t.Helper()
	config := map[string]any{}
	if base != "" {
		data, err := os.ReadFile(base)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &config))
	}
	for k, v := range members {
		config[k] = v
	}
	path := filepath.Join(t.TempDir(), "config.json")
	data, err := json.Marshal(config)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	return path
}
