package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// maskedDecisionLog sends requests to a live OPA server with console
// decision logs and the bundle's mask, and returns each request's log
// line, keyed by a call id the request carries.
func maskedDecisionLog(t *testing.T, requests map[string]string) map[string]string {
	t.Helper()
	server := harness.StartOPA(t, "--log-level", "info", "--bundle", harness.BundlePath(t), "--set", "decision_logs.console=true")
	for _, r := range requests {
		_, ok, err := server.Query("tooleval/decision", []byte(r))
		require.NoError(t, err)
		require.True(t, ok)
	}
	lines := map[string]string{}
	require.Eventually(t, func() bool {
		for _, l := range strings.Split(server.Output.String(), "\n") {
			var ev struct {
				Msg    string `json:"msg"`
				Result struct {
					Decisions []struct {
						ID any `json:"id"`
					} `json:"decisions"`
				} `json:"result"`
			}
			if json.Unmarshal([]byte(l), &ev) != nil || ev.Msg != "Decision Log" {
				continue
			}
			for _, d := range ev.Result.Decisions {
				if id, ok := d.ID.(string); ok {
					if _, want := requests[id]; want {
						lines[id] = l
					}
				}
			}
		}
		return len(lines) == len(requests)
	}, 20*time.Second, 100*time.Millisecond, "events dropped:\n%s", server.Output.String())
	return lines
}

// TestEvalRefusesMaskedDecisionLogEvents: tooleval eval on an OPA decision
// log event whose mask removed what a call's decision reads does not
// re-decide it (a read_file whose arguments and workspace were erased
// would replay as allowed): it names the call on standard error and exits
// 2; an event whose calls were erased whole is not replayable either,
// and tooleval diff lists it. An event whose mask removed nothing the
// decision reads is decided as usual.
func TestEvalRefusesMaskedDecisionLogEvents(t *testing.T) {
	t.Parallel()
	lines := maskedDecisionLog(t, map[string]string{
		"log_args": `{"declared": [{"name": "read_file"}], "workspace": {"root": "/ws"},
			"calls": [{"id": "log_args", "name": "read_file", "args": {"path": "/etc/passwd"}}]}`,
		"log_clean":  `{"declared": [{"name": "web_search"}], "calls": [{"id": "log_clean", "name": "web_search"}]}`,
		"log_array":  `{"declared": [{"name": "read_file"}], "calls": [{"id": "log_array", "name": "read_file"}, ["read_file", "/home/alice/x"]]}`,
		"log_caller": `{"declared": [{"name": "web_search"}], "caller": "alice@example.com", "calls": [{"id": "log_caller", "name": "web_search"}]}`,
	})
	require.Contains(t, lines["log_args"], `"/input/calls/0/args"`)
	require.Contains(t, lines["log_array"], `"/input/calls"`)
	require.NotContains(t, lines["log_array"], "alice")
	require.Contains(t, lines["log_caller"], `"/input/caller"`)
	dir := t.TempDir()
	file := func(name string, ids ...string) string {
		var content []string
		for _, id := range ids {
			content = append(content, lines[id])
		}
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(strings.Join(content, "\n")+"\n"), 0o600))
		return p
	}

	// The read_file the log masked would be decided as allowed.
	out, stderr, code := harness.CLI(t, "", "eval", "--format", "json", file("args.log", "log_args"))
	require.Equal(t, 2, code, "stdout %s\nstderr %s", out, stderr)
	require.Empty(t, out, "no decision is printed for an event that is not replayable")
	require.Contains(t, stderr, `call 0 (id log_args, name read_file) is not replayable: the log masked /input/calls/0/args, /input/workspace`)

	out, stderr, code = harness.CLI(t, "", "eval", "--format", "json", file("clean.log", "log_clean"))
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, `"log_clean"`)

	all := file("all.log", "log_args", "log_clean", "log_array", "log_caller")
	out, stderr, code = harness.CLI(t, "", "eval", "--format", "json", all)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, out, `"log_clean"`, "the replayable event is decided")
	for _, id := range []string{"log_args", "log_array", "log_caller"} {
		require.NotContains(t, out, `"`+id+`"`)
	}
	require.Contains(t, stderr, "not replayable: the log masked /input/calls: the request's calls are not known")
	require.Contains(t, stderr, `call 0 (id log_caller, name web_search) is not replayable: the log masked /input/caller`)

	// tools reads no call arguments, but the workspace and who is asking.
	_, stderr, code = harness.CLI(t, "", "tools", "--format", "json", all)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "the log masked /input/workspace, which the tools document reads")
	require.Contains(t, stderr, "the log masked /input/caller, which the tools document reads")

	// diff lists the event whose calls were erased.
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, _ := runDiffJSON(t, "--candidate", candidate, all)
	var whole []string
	for _, u := range r.NotReplayable {
		if u.Call == -1 {
			whole = append(whole, u.Why)
		}
	}
	require.Equal(t, []string{"the log masked /input/calls: the request's calls are not known"}, whole)
}
