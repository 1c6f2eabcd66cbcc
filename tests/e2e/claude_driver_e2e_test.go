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

// The Claude Code driver reads each kind of verdict as it happened: a call
// an allow rule lets through ran (its file exists, its result is not an
// error), a call a deny rule refuses and a call nobody approved (headless,
// default mode) did not run, and are told apart.
func TestClaudeDriverVerdicts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := ClaudeWorkspace(dir)
	touch := func(id, name string) Call {
		return Call{ID: id, Tool: "Bash", Args: map[string]any{"command": "touch " + name}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	o, err := ClaudeRun{
		Binary:   ClaudeBinary(nodeModules(t)),
		Settings: `{"permissions": {"allow": ["Bash(touch ran.txt)"], "deny": ["Bash(touch denied.txt)"], "ask": []}}`,
		Mode:     "default",
		Script:   []Turn{{Calls: []Call{touch("toolu_ran", "ran.txt"), touch("toolu_denied", "denied.txt"), touch("toolu_asked", "asked.txt")}}},
		Files:    map[string]string{"README": "e2e\n"},
		Dir:      dir,
	}.Run(ctx)
	require.NoError(t, err)
	v := ClaudeVerdicts(o.Log)
	require.Equal(t, map[string]Verdict{"toolu_ran": Ran, "toolu_denied": Denied, "toolu_asked": Asked}, v)
	for name, want := range map[string]bool{"ran.txt": true, "denied.txt": false, "asked.txt": false} {
		_, err := os.Stat(filepath.Join(ws, name))
		require.Equal(t, want, err == nil, "%s exists", name)
	}
	res := o.Server.Results()
	require.False(t, res["toolu_ran"].IsError, "the model server got the result of the call that ran")
	require.True(t, res["toolu_denied"].IsError)
	require.True(t, res["toolu_asked"].IsError)
}
