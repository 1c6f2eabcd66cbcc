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

// The Gemini CLI driver reads each verdict as it happened: the call a
// user policy allows ran (its file exists), the call it denies and the
// call no rule allows (headless: denied) did not.
func TestGeminiDriverVerdicts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := GeminiWorkspace(dir)
	touch := func(id, name string) Call {
		return Call{ID: id, Tool: "run_shell_command", Args: map[string]any{"command": "touch " + name}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	o, err := GeminiRun{
		NodeModules: nodeModules(t),
		Policies: map[string]string{"user.toml": `[[rule]]
toolName = "run_shell_command"
commandPrefix = "touch ran.txt"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "touch denied.txt"
decision = "deny"
priority = 100
`},
		Script: []Turn{{Calls: []Call{touch("c_ran", "ran.txt"), touch("c_denied", "denied.txt"), touch("c_unruled", "unruled.txt")}}},
		Files:  map[string]string{"README": "e2e\n"},
		Dir:    dir,
	}.Run(ctx)
	require.NoError(t, err)
	got := map[string]Verdict{}
	for _, id := range []string{"c_ran", "c_denied", "c_unruled"} {
		r, ok := o.Results[id]
		got[id] = GeminiVerdict(r, ok)
	}
	require.Equal(t, map[string]Verdict{"c_ran": Ran, "c_denied": Denied, "c_unruled": Denied}, got)
	for name, want := range map[string]bool{"ran.txt": true, "denied.txt": false, "unruled.txt": false} {
		_, err := os.Stat(filepath.Join(ws, name))
		require.Equal(t, want, err == nil, "%s exists", name)
	}
}
