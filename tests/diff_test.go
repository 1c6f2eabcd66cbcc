package tests

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
)

// diffReport is the JSON report of tooleval diff.
type diffReport struct {
	Requests        int `json:"requests"`
	Calls           int `json:"calls"`
	ChangedRequests int `json:"changed_requests"`
	ChangedCalls    int `json:"changed_calls"`
	Groups          []struct {
		Change   string `json:"change"`
		Calls    int    `json:"calls"`
		Requests int    `json:"requests"`
	} `json:"groups"`
	Changes []struct {
		Request string       `json:"request"`
		ID      any          `json:"id"`
		Name    any          `json:"name"`
		Before  diff.Verdict `json:"before"`
		After   diff.Verdict `json:"after"`
		Group   string       `json:"group"`
	} `json:"changes"`
	Effective []struct {
		Request string   `json:"request"`
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
	} `json:"effective"`
	NotReplayable []struct {
		Request string `json:"request"`
		Call    int    `json:"call"`
		Name    any    `json:"name"`
		Why     string `json:"why"`
	} `json:"not_replayable"`
}

func runDiffJSON(t *testing.T, args ...string) (diffReport, int) {
	t.Helper()
	out, stderr, code := cli(t, "", append([]string{"diff", "--format", "json"}, args...)...)
	require.Contains(t, []int{0, 1}, code, stderr)
	var r diffReport
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	// The groups count exactly the changed calls.
	sum := 0
	for _, g := range r.Groups {
		sum += g.Calls
	}
	require.Equal(t, r.ChangedCalls, sum)
	require.Len(t, r.Changes, r.ChangedCalls)
	require.Equal(t, code == 1, r.ChangedRequests > 0, "exit code %d with %d changed requests", code, r.ChangedRequests)
	return r, code
}

// overlay writes a configuration overlay: the JSON file at base (if
// any) with members replaced.
func overlay(t *testing.T, base string, members map[string]any) string {
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

func exampleInputs(t *testing.T, glob string) []string {
	t.Helper()
	files, err := filepath.Glob(glob)
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// TestDiffRemovedAllowEntry: dropping read_file from tenant acme's plan
// refuses exactly acme's read_file calls, by the tenant stage, and takes
// read_file out of its requests' effective tools.
func TestDiffRemovedAllowEntry(t *testing.T) {
	base := "../inputs/configured/tenants/config.json"
	var config map[string]any
	data, err := os.ReadFile(base)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &config))
	tenants := config["tenants"].(map[string]any)
	tenants["acme"] = map[string]any{"tools": []any{"search", "researcher", "mcp__github__*"}}
	candidate := overlay(t, base, map[string]any{"tenants": tenants})

	r, code := runDiffJSON(t, append([]string{"--base", "config:" + base, "--candidate", "config:" + candidate}, exampleInputs(t, "../inputs/configured/tenants/*_*.json")...)...)
	require.Equal(t, 1, code)
	require.NotZero(t, r.ChangedCalls)
	for _, c := range r.Changes {
		require.Equal(t, "read_file", c.Name, "%+v", c)
		require.Equal(t, diff.Verdict{Reason: "not_allowed", Layer: "tenant"}, c.After, "%+v", c)
	}
	require.NotEmpty(t, r.Effective)
	for _, e := range r.Effective {
		require.Equal(t, []string{"read_file"}, e.Removed)
		require.Empty(t, e.Added)
	}
}

// TestDiffAddedDeny: a global deny of web_search refuses every
// web_search call that was allowed, and nothing else changes.
func TestDiffAddedDeny(t *testing.T) {
	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, append([]string{"--candidate", candidate}, exampleInputs(t, "../inputs/*.json")...)...)
	require.Equal(t, 1, code)
	require.NotZero(t, r.ChangedCalls)
	for _, c := range r.Changes {
		require.Equal(t, "web_search", c.Name)
		require.Equal(t, diff.Verdict{Reason: "denied", Layer: "global_policy"}, c.After)
	}
}

// TestDiffPresetSwitch: the Qwen Code deployment's examples under the
// Claude Code preset change, and switching back changes them back.
func TestDiffPresetSwitch(t *testing.T) {
	qwen := "../inputs/configured/qwen_code/config.json"
	claude := overlay(t, qwen, map[string]any{"preset": "claude_code"})
	inputs := exampleInputs(t, "../inputs/configured/qwen_code/*_*.json")
	forward, code := runDiffJSON(t, append([]string{"--base", qwen, "--candidate", claude}, inputs...)...)
	require.Equal(t, 1, code)
	require.NotZero(t, forward.ChangedCalls)
	back, _ := runDiffJSON(t, append([]string{"--base", claude, "--candidate", qwen}, inputs...)...)
	require.Equal(t, forward.ChangedCalls, back.ChangedCalls)
	for i, c := range forward.Changes {
		require.Equal(t, c.Before, back.Changes[i].After)
		require.Equal(t, c.After, back.Changes[i].Before)
	}
}

// TestDiffNoChange: the same policy twice (the embedded bundle, and the
// working tree's policies at this commit) changes nothing: exit 0.
func TestDiffNoChange(t *testing.T) {
	inputs := exampleInputs(t, "../inputs/*.json")
	r, code := runDiffJSON(t, append([]string{"--candidate", "config:" + overlay(t, "", nil)}, inputs...)...)
	require.Equal(t, 0, code)
	require.Zero(t, r.ChangedRequests)
	require.Equal(t, len(inputs), r.Requests)

	out, stderr, code := cli(t, "", append([]string{"diff", "--candidate", "bundle:" + policiesDir}, inputs...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "0 calls in 0 requests change")
}

func TestDiffUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"diff", "../inputs/run_budget.json"},                                        // no candidate
		{"diff", "--candidate", "embedded"},                                          // no corpus
		{"diff", "--candidate", "git:no-such-revision", "../inputs/run_budget.json"}, // bad revision
		{"diff", "--candidate", "bundle:/nonexistent", "../inputs/run_budget.json"},  // no bundle
		{"diff", "--candidate", "embedded", "--format", "xml", "../inputs"},          // bad format
		{"diff", "--candidate", "embedded", "/nonexistent.jsonl"},                    // no corpus file
	} {
		_, stderr, code := cli(t, "", args...)
		require.Equal(t, 2, code, "%v: %s", args, stderr)
		require.NotEmpty(t, stderr)
	}
}

// TestDiffReplaysAnOPADecisionLog: decisions logged by a real OPA server
// (console decision logs, with the bundle's mask) replay under a
// candidate; a masked call that reaches the argument checks is listed
// as not replayable, never compared, and a name-level change is found.
func TestDiffReplaysAnOPADecisionLog(t *testing.T) {
	server := startOPA(t, "--log-level", "info", "--bundle", bundlePath(t), "--set", "decision_logs.console=true")
	requests := []string{
		`{"declared": [{"name": "read_file"}, {"name": "web_search"}], "workspace": {"root": "/ws"},
		  "calls": [{"id": "log_1", "name": "read_file", "args": {"path": "/etc/passwd"}}, {"id": "log_2", "name": "web_search"}]}`,
		`{"declared": [{"name": "web_search"}, {"name": "grep"}], "calls": [{"id": "log_3", "name": "web_search"}, {"id": "log_4", "name": "grep"}]}`,
	}
	for _, r := range requests {
		_, ok, err := server.query("tooleval/decision", []byte(r))
		require.NoError(t, err)
		require.True(t, ok)
	}
	_, _, err := server.query("tooleval/tools", []byte(requests[1])) // another entry point: not replayed
	require.NoError(t, err)
	var lines []string
	require.Eventually(t, func() bool {
		lines = lines[:0]
		for _, l := range strings.Split(server.output.String(), "\n") {
			if strings.Contains(l, `"Decision Log"`) {
				lines = append(lines, l)
			}
		}
		return len(lines) >= 3
	}, 10*time.Second, 50*time.Millisecond)
	log := filepath.Join(t.TempDir(), "decisions.log")
	require.NoError(t, os.WriteFile(log, []byte(strings.Join(lines, "\n")+"\n"), 0o600))

	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, "--candidate", candidate, log)
	require.Equal(t, 1, code)
	require.Equal(t, 2, r.Requests, "the tools event is not replayed")
	require.Len(t, r.NotReplayable, 2, "the masked request's calls reach the argument checks: %+v", r.NotReplayable)
	for _, u := range r.NotReplayable {
		require.Contains(t, u.Why, "/input/calls/0/args")
	}
	require.Len(t, r.Changes, 1)
	require.Equal(t, "log_3", r.Changes[0].ID)
	require.Equal(t, diff.Verdict{Reason: "denied", Layer: "global_policy"}, r.Changes[0].After)
}

// TestDiffCorpus replays generated requests from a JSON Lines file and
// holds the report to the engines' own decisions, call by call.
func TestDiffCorpus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	n := 1000
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
	candidate := overlay(t, "", candidateConfig)

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
		b, err := base.DecideJSON(ctx, []byte(line))
		require.NoError(t, err)
		c, err := cand.DecideJSON(ctx, []byte(line))
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
		_, err := e.DecideJSON(ctx, []byte(r))
		require.NoError(t, err)
	}
	_, err = e.LaunchJSON(ctx, []byte(`{"fork_tools": []}`)) // another entry point: not replayed
	require.NoError(t, err)
	require.NoError(t, f.Close())

	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, "--candidate", candidate, log)
	require.Equal(t, 1, code)
	require.Equal(t, 2, r.Requests)
	require.Len(t, r.NotReplayable, 2)
	require.Len(t, r.Changes, 1)
	require.Equal(t, "log_3", r.Changes[0].ID)
}
