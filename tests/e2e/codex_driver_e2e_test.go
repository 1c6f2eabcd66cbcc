//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The Codex driver reads each verdict as it happened: a command no rule
// forbids ran (approval_policy never); one a forbidden rule matches was
// denied, one a prompt rule matches needed an approval (never: refused);
// neither ran. Codex 0.171.0
// declares exec_command as its shell tool to this model provider.
func TestCodexDriverVerdicts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := CodexWorkspace(dir)
	touch := func(id, name string) Call {
		return Call{ID: id, Tool: "exec_command", Args: map[string]any{"cmd": "touch " + name}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	o, err := CodexRun{
		Binary: CodexBinary(nodeModules(t)),
		Rules: `prefix_rule(pattern = ["touch", "denied.txt"], decision = "forbidden")
prefix_rule(pattern = ["touch", "prompted.txt"], decision = "prompt")
`,
		Script: []Turn{{Calls: []Call{touch("c_ran", "ran.txt"), touch("c_denied", "denied.txt"), touch("c_prompted", "prompted.txt")}}},
		Files:  map[string]string{"README": "e2e\n"},
		Dir:    dir,
	}.Run(ctx)
	require.NoError(t, err)
	got := map[string]Verdict{}
	for _, id := range []string{"c_ran", "c_denied", "c_prompted"} {
		r, ok := o.Results[id]
		got[id] = CodexVerdict(r, ok)
	}
	require.Equal(t, map[string]Verdict{"c_ran": Ran, "c_denied": Denied, "c_prompted": Asked}, got, "%s", tail(o.Log, 3000))
	for name, want := range map[string]bool{"ran.txt": true, "denied.txt": false, "prompted.txt": false} {
		_, err := os.Stat(filepath.Join(ws, name))
		require.Equal(t, want, err == nil, "%s exists", name)
	}
}
