package cli

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/corpus"
	"github.com/tooleval/tooleval/internal/diff"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestDiffReplaysAnOPADecisionLog: decisions logged by a real OPA server
// (console decision logs, with the bundle's mask) replay under a
// candidate. A masked call that both policies let through by name is
// listed as not replayable, with why, never compared; a masked call the
// candidate refuses by name (here denied) is a change whatever its
// arguments held; a name-level change of an unmasked request is found.
func TestDiffReplaysAnOPADecisionLog(t *testing.T) {
	t.Parallel()
	// The server's bundle has a revision of its own, so that its logged
	// verdicts never stand for the base's (TestDiffUsesTheLoggedVerdict
	// covers that): the base's verdicts here are replayed, on any checkout.
	logged := harness.WriteFile(t, "logged.tar.gz", harness.BuildBundle(t, harness.PoliciesDir(), "logged-elsewhere"))
	server := harness.StartOPA(t, "--log-level", "info", "--bundle", logged, "--set", "decision_logs.console=true")
	requests := []string{
		`{"declared": [{"name": "read_file"}, {"name": "web_search"}], "workspace": {"root": "/ws"},
		  "calls": [{"id": "log_1", "name": "read_file", "args": {"path": "/etc/passwd"}}, {"id": "log_2", "name": "web_search", "args": {"query": "x"}}]}`,
		`{"declared": [{"name": "web_search"}, {"name": "grep"}], "calls": [{"id": "log_3", "name": "web_search"}, {"id": "log_4", "name": "grep"}]}`,
	}
	log := opaDecisionLog(t, server, requests, requests[1])

	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, "--candidate", candidate, log)
	require.Equal(t, 1, code)
	require.Equal(t, 2, r.Requests, "the tools event is not replayed")
	require.Len(t, r.NotReplayable, 1, "read_file is allowed by name on both sides and its arguments were masked: %+v", r.NotReplayable)
	u := r.NotReplayable[0]
	require.Equal(t, "log_1", u.ID)
	require.Contains(t, u.Why, "/input/calls/0/args")
	require.Contains(t, u.Why, "the candidate allows the call by name and checks its arguments")
	require.Len(t, r.Changes, 2, "%+v", r.Changes)
	require.Equal(t, "log_2", r.Changes[0].ID, "a name-level refusal is certain whatever the masked arguments")
	require.Equal(t, diff.Verdict{Allowed: true, Outcome: "allow", Masked: true}, r.Changes[0].Before)
	require.Equal(t, diff.Verdict{Outcome: "deny", Reason: "denied", Layer: "global_policy"}, r.Changes[0].After)
	require.Equal(t, "log_3", r.Changes[1].ID)
	require.Equal(t, diff.Verdict{Allowed: true, Outcome: "allow"}, r.Changes[1].Before)
	require.Equal(t, diff.Verdict{Outcome: "deny", Reason: "denied", Layer: "global_policy"}, r.Changes[1].After)

	out, stderr, code := harness.CLI(t, "", "diff", "--candidate", candidate, log)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, out, "passes the name-level checks (arguments masked)  refused by global_policy (denied)")
	require.Contains(t, out, "1 call not replayable (not compared):")
	require.Contains(t, out, " log_1 read_file: the log masked /input/calls/0/args")
}

// opaDecisionLog queries the server's decision entry point with each
// request (and its tools entry point with tools, which is not
// replayed) and writes its console decision log events to a file.
func opaDecisionLog(t *testing.T, server *harness.OPAServer, requests []string, tools string) string {
	t.Helper()
	for _, r := range requests {
		_, ok, err := server.Query("tooleval/decision", []byte(r))
		require.NoError(t, err)
		require.True(t, ok)
	}
	_, _, err := server.Query("tooleval/tools", []byte(tools))
	require.NoError(t, err)
	var lines []string
	require.Eventually(t, func() bool {
		lines = lines[:0]
		for _, l := range strings.Split(server.Output.String(), "\n") {
			if strings.Contains(l, `"Decision Log"`) {
				lines = append(lines, l)
			}
		}
		return len(lines) >= len(requests)+1
	}, 10*time.Second, 50*time.Millisecond)
	log := filepath.Join(t.TempDir(), "decisions.log")
	require.NoError(t, os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	return log
}

// TestDiffUsesTheLoggedVerdict: when the base is the bundle revision
// that wrote the log (an OPA server running bundle revision r27), the
// verdict the log recorded stands for the base's where the arguments
// were masked: a path refusal the replay cannot see is the "before" of a
// name-level change. Against another revision, the base's verdict is
// the replayed one, marked masked, and the not-replayable calls say the
// log was written by another revision.
func TestDiffUsesTheLoggedVerdict(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundles := map[string]string{}
	for _, rev := range []string{"r27", "r26"} {
		bundles[rev] = filepath.Join(dir, rev+".tar.gz")
		_, stderr, code := harness.CLI(t, "", "bundle", "build", "--revision", rev, "-o", bundles[rev])
		require.Equal(t, 0, code, stderr)
	}
	server := harness.StartOPA(t, "--log-level", "info", "--bundle", bundles["r27"], "--set", "decision_logs.console=true")
	request := `{"declared": [{"name": "read_file"}, {"name": "web_search"}], "workspace": {"root": "/ws"},
	  "calls": [{"id": "a1", "name": "read_file", "args": {"path": "/etc/passwd"}}, {"id": "a2", "name": "web_search", "args": {"query": "x"}}]}`
	log := opaDecisionLog(t, server, []string{request}, request)
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"read_file"}}})

	r, code := runDiffJSON(t, "--base", "bundle:"+bundles["r27"], "--candidate", candidate, log)
	require.Equal(t, 1, code)
	require.Equal(t, 2, r.BaseFromLog)
	require.Len(t, r.Changes, 1, "%+v", r)
	c := r.Changes[0]
	require.Equal(t, "a1", c.ID)
	require.Equal(t, diff.Verdict{Outcome: "deny", Reason: "path", Layer: "workspace", Rule: "not_readable", From: "log"}, c.Before, "the logged path refusal")
	require.Equal(t, diff.Verdict{Outcome: "deny", Reason: "denied", Layer: "global_policy"}, c.After)
	require.Equal(t, "config.tools.deny[0]", c.AfterWhy[0].Source)
	require.Len(t, r.NotReplayable, 1)
	require.Equal(t, "a2", r.NotReplayable[0].ID)
	require.Equal(t, diff.Verdict{Allowed: true, Outcome: "allow", From: "log"}, r.NotReplayable[0].Before)
	require.Contains(t, r.NotReplayable[0].Why, "the base's logged verdict (allowed) is no refusal by name either")
	require.Equal(t, "r27", r.BasePolicy.BundleRevision)

	r, code = runDiffJSON(t, "--base", "bundle:"+bundles["r26"], "--candidate", candidate, log)
	require.Equal(t, 1, code)
	require.Zero(t, r.BaseFromLog)
	require.Len(t, r.Changes, 1)
	require.Equal(t, diff.Verdict{Allowed: true, Outcome: "allow", Masked: true}, r.Changes[0].Before, "replayed without the arguments: only its name-level checks are certain")
	require.Len(t, r.NotReplayable, 1)
	require.Contains(t, r.NotReplayable[0].Why, `the log was written by bundle revision "r27", the base is "r26"`)
}

// TestDiffCorpus replays generated requests from a JSON Lines file and
// holds the report to the engines' own decisions, call by call.
func TestDiffCorpus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n, err := corpus.Scaled(100)
	require.NoError(t, err)
	if s := os.Getenv("TOOLEVAL_DIFF_CORPUS"); s != "" { // make soak: 10,000
		require.NoError(t, json.Unmarshal([]byte(s), &n))
	}
	gen := corpus.New(99)
	var lines []string
	for _, doc := range gen.Decisions(n) {
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		lines = append(lines, string(data))
	}
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o600))
	candidateConfig := engine.Config{"tools": map[string]any{"deny": []any{"write_file", "mcp__github__*"}}}
	candidate := harness.ConfigFile(t, "", candidateConfig)

	start := time.Now()
	r, code := runDiffJSON(t, "--candidate", candidate, path)
	elapsed := time.Since(start)
	require.Equal(t, n, r.Requests)
	require.Equal(t, 1, code)

	base, err := engine.New(ctx)
	require.NoError(t, err)
	cand, err := engine.New(ctx, engine.WithConfig(candidateConfig))
	require.NoError(t, err)
	changed := 0
	for _, line := range lines {
		b, err := base.Decide(ctx, engine.JSON([]byte(line)))
		require.NoError(t, err)
		c, err := cand.Decide(ctx, engine.JSON([]byte(line)))
		require.NoError(t, err)
		for i := range b.Decisions {
			x, y := b.Decisions[i], c.Decisions[i]
			if x.Allowed != y.Allowed || x.Reason != y.Reason || x.Layer != y.Layer || x.Rule != y.Rule {
				changed++
			}
		}
	}
	require.Equal(t, changed, r.ChangedCalls)
	t.Logf("diff of %d generated requests (%d calls): %d calls in %d requests change, %s (%.2f ms per request, both policies, decision and catalog)",
		n, r.Calls, r.ChangedCalls, r.ChangedRequests, elapsed.Round(time.Millisecond), float64(elapsed.Microseconds())/1000/float64(n))
}

// TestDiffReplaysTheEnginesAuditLog: the embedded engine's audit records
// carry an OPA decision log event's members, masked by the same mask,
// so tooleval diff replays them as it replays a server's log.
func TestDiffReplaysTheEnginesAuditLog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	log := filepath.Join(t.TempDir(), "audit.log")
	f, err := os.Create(log)
	require.NoError(t, err)
	e, err := engine.New(ctx, engine.WithAuditLogger(slog.New(slog.NewJSONHandler(f, nil))))
	require.NoError(t, err)
	for _, r := range []string{
		`{"declared": [{"name": "read_file"}, {"name": "web_search"}], "workspace": {"root": "/ws"},
		  "calls": [{"id": "log_1", "name": "read_file", "args": {"path": "/etc/passwd"}}, {"id": "log_2", "name": "web_search"}]}`,
		`{"declared": [{"name": "web_search"}, {"name": "grep"}], "calls": [{"id": "log_3", "name": "web_search"}, {"id": "log_4", "name": "grep"}]}`,
	} {
		_, err := e.Decide(ctx, engine.JSON([]byte(r)))
		require.NoError(t, err)
	}
	_, err = e.Launch(ctx, engine.JSON([]byte(`{"fork_tools": []}`))) // another entry point: not replayed
	require.NoError(t, err)
	require.NoError(t, f.Close())

	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, "--candidate", candidate, log)
	require.Equal(t, 1, code)
	require.Equal(t, 2, r.Requests)
	require.Len(t, r.NotReplayable, 1)
	require.Equal(t, "log_1", r.NotReplayable[0].ID)
	require.Len(t, r.Changes, 2)
	require.Equal(t, "log_2", r.Changes[0].ID)
	require.Equal(t, "log_3", r.Changes[1].ID)
}

// TestDiffAskKinds: a candidate configuration that names another
// argument for run_shell_command's command leaves its commands unread:
// a call an ask rule did not bite on is now asked (allow -> ask), and a
// call an allow rule allowed is now refused (allow -> deny), each a kind
// and a group of its own.
func TestDiffAskKinds(t *testing.T) {
	t.Parallel()
	request := map[string]any{
		"declared": []any{map[string]any{"name": "run_shell_command"}, map[string]any{"name": "bash"}},
		"layers": []any{map[string]any{
			"name":  "team",
			"allow": []any{"run_shell_command", map[string]any{"tool": "bash", "command_prefix": "ls"}},
			"ask":   []any{map[string]any{"tool": "run_shell_command", "command_prefix": "rm"}},
		}},
		"calls": []any{
			map[string]any{"id": "1", "name": "run_shell_command", "args": map[string]any{"command": "ls"}},
			map[string]any{"id": "2", "name": "bash", "args": map[string]any{"command": "ls"}},
			map[string]any{"id": "3", "name": "run_shell_command", "args": map[string]any{"command": "rm x"}},
		},
	}
	input := filepath.Join(t.TempDir(), "request.json")
	data, err := json.Marshal(request)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(input, data, 0o600))
	candidate := harness.ConfigFile(t, "", map[string]any{"rule_arguments": map[string]any{
		"run_shell_command": map[string]any{"command": "cmd"},
		"bash":              map[string]any{"command": "cmd"},
	}})
	r, code := runDiffJSON(t, "--candidate", candidate, input)
	require.Equal(t, 1, code)
	kinds := map[string]string{}
	for _, c := range r.Changes {
		kinds[c.ID.(string)] = c.Kind
	}
	require.Equal(t, map[string]string{"1": "allow → ask", "2": "allow → deny"}, kinds, "call 3 is asked on both sides")
	groups := map[string]string{}
	for _, g := range r.Groups {
		groups[g.Kind] = g.Change
	}
	require.Equal(t, map[string]string{
		"allow → ask":  "allowed → asks a person (team: argument command)",
		"allow → deny": "allowed → refused by team (not_allowed: argument command)",
	}, groups)
}
