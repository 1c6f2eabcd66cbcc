package tests

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
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
		Kind     string `json:"kind"`
		Calls    int    `json:"calls"`
		Requests int    `json:"requests"`
	} `json:"groups"`
	Changes []struct {
		Request   string             `json:"request"`
		ID        any                `json:"id"`
		Name      any                `json:"name"`
		Before    diff.Verdict       `json:"before"`
		After     diff.Verdict       `json:"after"`
		Group     string             `json:"group"`
		Kind      string             `json:"kind"`
		BeforeWhy []engine.TraceStep `json:"before_why"`
		AfterWhy  []engine.TraceStep `json:"after_why"`
	} `json:"changes"`
	Effective []struct {
		Request string   `json:"request"`
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
	} `json:"effective"`
	NotReplayable []struct {
		Request string       `json:"request"`
		Call    int          `json:"call"`
		ID      any          `json:"id"`
		Name    any          `json:"name"`
		Why     string       `json:"why"`
		Before  diff.Verdict `json:"before"`
		After   diff.Verdict `json:"after"`
	} `json:"not_replayable"`
	BaseFromLog     int           `json:"base_from_log"`
	BasePolicy      diff.Identity `json:"base_policy"`
	CandidatePolicy diff.Identity `json:"candidate_policy"`
	GeneratedAt     string        `json:"generated_at"`
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
	t.Parallel()
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
		require.Equal(t, diff.Verdict{Outcome: "deny", Reason: "not_allowed", Layer: "tenant"}, c.After, "%+v", c)
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
	t.Parallel()
	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, append([]string{"--candidate", candidate}, exampleInputs(t, "../inputs/*.json")...)...)
	require.Equal(t, 1, code)
	require.NotZero(t, r.ChangedCalls)
	for _, c := range r.Changes {
		require.Equal(t, "web_search", c.Name)
		require.Equal(t, diff.Verdict{Outcome: "deny", Reason: "denied", Layer: "global_policy"}, c.After)
		// Why: the deny entry that refused it, and where it comes from.
		require.Len(t, c.AfterWhy, 1, "%+v", c)
		require.Equal(t, engine.TraceStep{Check: "stage", Name: "global_policy", List: "deny", Outcome: "refused", Reason: "denied", Layer: "global_policy", Entry: "web_search", Source: "config.tools.deny[0]"}, c.AfterWhy[0])
		require.NotNil(t, c.BeforeWhy)
	}
}

// TestDiffShowsWhy: each changed call says, on both sides, the check
// that refused it or the entries that allowed it, with their sources,
// in the JSON report and in the terminal table.
func TestDiffShowsWhy(t *testing.T) {
	t.Parallel()
	inputs := exampleInputs(t, "../inputs/*.json")
	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"write_file"}}})
	r, code := runDiffJSON(t, append([]string{"--candidate", candidate}, inputs...)...)
	require.Equal(t, 1, code)
	var sawAllowEntry bool
	for _, c := range r.Changes {
		require.Equal(t, "config.tools.deny[0]", c.AfterWhy[0].Source, "%+v", c)
		if c.Before.Allowed {
			for _, s := range c.BeforeWhy {
				if s.Entry != nil && s.Source != "" && s.Outcome == "pass" {
					sawAllowEntry = true
				}
			}
		} else if c.Before.Outcome == "ask" {
			// an ask: the entries that let it through, then the one that asked
			require.NotEmpty(t, c.BeforeWhy, "%+v", c)
			require.Equal(t, "ask", c.BeforeWhy[len(c.BeforeWhy)-1].Outcome, "%+v", c)
		} else if c.Before.Reason != "" {
			require.Len(t, c.BeforeWhy, 1, "%+v", c)
			require.Equal(t, "refused", c.BeforeWhy[0].Outcome)
			require.Equal(t, c.Before.Reason, c.BeforeWhy[0].Reason)
		}
	}
	require.True(t, sawAllowEntry, "an allowed call names the allow entry that let it through")
	out, stderr, code := cli(t, "", append([]string{"diff", "--candidate", candidate}, inputs...)...)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, out, "\nwhy:\n")
	require.Contains(t, out, "after:  stage global_policy deny refused: entry write_file (config.tools.deny[0])")
	require.Regexp(t, `before: layer agent allow pass: entry group:edit \(layers\[0\]\.allow\[1\]\), member write_file \(groups\.edit\[0\]\)`, out)
}

// TestDiffShowsLookAlikes: names with an invisible character, padding
// white space or a non-ASCII letter are escaped or quoted in the
// terminal table (the JSON report keeps them as they are).
func TestDiffShowsLookAlikes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for file, name := range map[string]string{"a.json": "se\u200barch", "b.json": " search ", "c.json": "\u0455earch"} {
		doc := map[string]any{"declared": []any{map[string]any{"name": name}}, "calls": []any{map[string]any{"id": "c", "name": name}}}
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, file), data, 0o600))
	}
	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"search", "\u0455earch"}}})
	r, code := runDiffJSON(t, "--candidate", candidate, dir)
	require.Equal(t, 1, code)
	var names []any
	for _, c := range r.Changes {
		names = append(names, c.Name)
	}
	require.ElementsMatch(t, []any{"se\u200barch", " search ", "\u0455earch"}, names, "JSON keeps names raw")
	out, stderr, code := cli(t, "", "diff", "--candidate", candidate, dir)
	require.Equal(t, 1, code, stderr)
	for _, shown := range []string{`c +se\\u200barch +allowed`, `c +" search " +allowed`, `c +\\u0455earch +allowed`, `entry \\u0455earch \(config\.tools\.deny\[1\]\)`, `removed \[" search "\]`} {
		require.Regexp(t, shown, out)
	}
	for _, raw := range []string{"\u200b", "\u0455"} {
		require.NotContains(t, out, raw, "no raw look-alike reaches the terminal")
	}
}

// TestDiffNamesThePolicies: the report names both policies by resolved
// revision (the git commit of git:REV, the bundle revision, the
// configuration's digest) and the time it was made.
func TestDiffNamesThePolicies(t *testing.T) {
	t.Parallel()
	head, err := exec.Command("git", "-C", "..", "rev-parse", "HEAD").Output()
	require.NoError(t, err)
	config := map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}}
	candidate := overlay(t, "", config)
	canonical, err := json.Marshal(config)
	require.NoError(t, err)
	sum := sha256.Sum256(canonical)
	// The digest is of the canonical JSON: the same overlay written
	// otherwise has the same digest.
	spaced := filepath.Join(t.TempDir(), "spaced.json")
	require.NoError(t, os.WriteFile(spaced, []byte("{\n  \"tools\" : { \"deny\": [ \"web_search\" ] }\n}\n"), 0o600))

	start := time.Now().UTC().Truncate(time.Second)
	// The working directory of the diff is the repository's root.
	for _, c := range []string{candidate, spaced} {
		bin, err := buildCLI()
		require.NoError(t, err)
		cmd := exec.Command(bin, "diff", "--format", "json", "--base", "git:HEAD", "--candidate", c, "inputs/subagent_depth_cap.json")
		cmd.Dir = ".."
		out, err := cmd.Output()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			require.NoError(t, err)
		}
		var r diffReport
		require.NoError(t, json.Unmarshal(out, &r), string(out))
		require.Equal(t, diff.Identity{Spec: "git:HEAD", Kind: "git", Commit: strings.TrimSpace(string(head)), BundleRevision: "dev"}, r.BasePolicy)
		require.Equal(t, "config", r.CandidatePolicy.Kind)
		require.Equal(t, "sha256:"+hex.EncodeToString(sum[:]), r.CandidatePolicy.ConfigDigest)
		require.NotEmpty(t, r.CandidatePolicy.BundleRevision)
		made, err := time.Parse(time.RFC3339, r.GeneratedAt)
		require.NoError(t, err)
		require.False(t, made.Before(start), "made %s, test started %s", made, start)
		require.WithinDuration(t, time.Now(), made, time.Minute)
	}
	out, stderr, code := cli(t, "", "diff", "--candidate", candidate, "../inputs/subagent_depth_cap.json")
	require.Equal(t, 1, code, stderr)
	require.Regexp(t, `(?m)^base:      embedded \(.*bundle revision \S+\)\ncandidate: \S+ \(.*bundle revision \S+, configuration sha256:`+hex.EncodeToString(sum[:])+`\)\nmade:      \d{4}-\d\d-\d\dT`, out)
}

// TestDiffCandidateWithConfigErrors: a candidate whose configuration has
// errors is said up front, nothing is replayed, and the exit status is 3.
func TestDiffCandidateWithConfigErrors(t *testing.T) {
	t.Parallel()
	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": "web_search"}})
	for _, format := range []string{"table", "json", "html"} {
		out, stderr, code := cli(t, "", "diff", "--format", format, "--candidate", candidate, "../inputs/subagent_depth_cap.json")
		require.Equal(t, 3, code, "%s: %s", format, stderr)
		require.Empty(t, out)
		require.Contains(t, stderr, "has 1 configuration error")
		require.Contains(t, stderr, "config.tools.deny")
	}
	// A base with errors is noted; the comparison still runs.
	_, stderr, code := cli(t, "", "diff", "--base", candidate, "--candidate", "embedded", "../inputs/subagent_depth_cap.json")
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "note: the base")
}

// TestDiffPresetSwitch: the Qwen Code deployment's examples under the
// Claude Code preset change, and switching back changes them back.
func TestDiffPresetSwitch(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
// candidate. A masked call that both policies let through by name is
// listed as not replayable, with why, never compared; a masked call the
// candidate refuses by name (here denied) is a change whatever its
// arguments held; a name-level change of an unmasked request is found.
func TestDiffReplaysAnOPADecisionLog(t *testing.T) {
	t.Parallel()
	// The server's bundle has a revision of its own, so that its logged
	// verdicts never stand for the base's (TestDiffUsesTheLoggedVerdict
	// covers that): the base's verdicts here are replayed, on any checkout.
	logged := writeFile(t, "logged.tar.gz", buildBundle(t, policiesDir, "logged-elsewhere"))
	server := startOPA(t, "--log-level", "info", "--bundle", logged, "--set", "decision_logs.console=true")
	requests := []string{
		`{"declared": [{"name": "read_file"}, {"name": "web_search"}], "workspace": {"root": "/ws"},
		  "calls": [{"id": "log_1", "name": "read_file", "args": {"path": "/etc/passwd"}}, {"id": "log_2", "name": "web_search", "args": {"query": "x"}}]}`,
		`{"declared": [{"name": "web_search"}, {"name": "grep"}], "calls": [{"id": "log_3", "name": "web_search"}, {"id": "log_4", "name": "grep"}]}`,
	}
	log := opaDecisionLog(t, server, requests, requests[1])

	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
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

	out, stderr, code := cli(t, "", "diff", "--candidate", candidate, log)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, out, "passes the name-level checks (arguments masked)  refused by global_policy (denied)")
	require.Contains(t, out, "1 call not replayable (not compared):")
	require.Contains(t, out, " log_1 read_file: the log masked /input/calls/0/args")
}

// opaDecisionLog queries the server's decision entry point with each
// request (and its tools entry point with tools, which is not
// replayed) and writes its console decision log events to a file.
func opaDecisionLog(t *testing.T, server *opaServer, requests []string, tools string) string {
	t.Helper()
	for _, r := range requests {
		_, ok, err := server.query("tooleval/decision", []byte(r))
		require.NoError(t, err)
		require.True(t, ok)
	}
	_, _, err := server.query("tooleval/tools", []byte(tools))
	require.NoError(t, err)
	var lines []string
	require.Eventually(t, func() bool {
		lines = lines[:0]
		for _, l := range strings.Split(server.output.String(), "\n") {
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
		_, stderr, code := cli(t, "", "bundle", "build", "--revision", rev, "-o", bundles[rev])
		require.Equal(t, 0, code, stderr)
	}
	server := startOPA(t, "--log-level", "info", "--bundle", bundles["r27"], "--set", "decision_logs.console=true")
	request := `{"declared": [{"name": "read_file"}, {"name": "web_search"}], "workspace": {"root": "/ws"},
	  "calls": [{"id": "a1", "name": "read_file", "args": {"path": "/etc/passwd"}}, {"id": "a2", "name": "web_search", "args": {"query": "x"}}]}`
	log := opaDecisionLog(t, server, []string{request}, request)
	candidate := overlay(t, "", map[string]any{"tools": map[string]any{"deny": []any{"read_file"}}})

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
	n := scaled(t, 100)
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
	candidate := overlay(t, "", map[string]any{"rule_arguments": map[string]any{
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
