package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/diff"
	"github.com/tooleval/tooleval/tests/harness"
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
	out, stderr, code := harness.CLI(t, "", append([]string{"diff", "--format", "json"}, args...)...)
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
	base := "../../../inputs/configured/tenants/config.json"
	var config map[string]any
	data, err := os.ReadFile(base)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &config))
	tenants := config["tenants"].(map[string]any)
	tenants["acme"] = map[string]any{"tools": []any{"search", "researcher", "mcp__github__*"}}
	candidate := harness.ConfigFile(t, base, map[string]any{"tenants": tenants})

	r, code := runDiffJSON(t, append([]string{"--base", "config:" + base, "--candidate", "config:" + candidate}, exampleInputs(t, "../../../inputs/configured/tenants/*_*.json")...)...)
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
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}})
	r, code := runDiffJSON(t, append([]string{"--candidate", candidate}, exampleInputs(t, "../../../inputs/*.json")...)...)
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
	inputs := exampleInputs(t, "../../../inputs/*.json")
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"write_file"}}})
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
	out, stderr, code := harness.CLI(t, "", append([]string{"diff", "--candidate", candidate}, inputs...)...)
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
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": []any{"search", "\u0455earch"}}})
	r, code := runDiffJSON(t, "--candidate", candidate, dir)
	require.Equal(t, 1, code)
	var names []any
	for _, c := range r.Changes {
		names = append(names, c.Name)
	}
	require.ElementsMatch(t, []any{"se\u200barch", " search ", "\u0455earch"}, names, "JSON keeps names raw")
	out, stderr, code := harness.CLI(t, "", "diff", "--candidate", candidate, dir)
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
	head, err := exec.Command("git", "-C", harness.Root(), "rev-parse", "HEAD").Output()
	require.NoError(t, err)
	config := map[string]any{"tools": map[string]any{"deny": []any{"web_search"}}}
	candidate := harness.ConfigFile(t, "", config)
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
		bin, err := harness.BuildCLI()
		require.NoError(t, err)
		cmd := exec.Command(bin, "diff", "--format", "json", "--base", "git:HEAD", "--candidate", c, "inputs/subagent_depth_cap.json")
		cmd.Dir = harness.Root()
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
	out, stderr, code := harness.CLI(t, "", "diff", "--candidate", candidate, "../../../inputs/subagent_depth_cap.json")
	require.Equal(t, 1, code, stderr)
	require.Regexp(t, `(?m)^base:      embedded \(.*bundle revision \S+\)\ncandidate: \S+ \(.*bundle revision \S+, configuration sha256:`+hex.EncodeToString(sum[:])+`\)\nmade:      \d{4}-\d\d-\d\dT`, out)
}

// TestDiffCandidateWithConfigErrors: a candidate whose configuration has
// errors is said up front, nothing is replayed, and the exit status is 3.
func TestDiffCandidateWithConfigErrors(t *testing.T) {
	t.Parallel()
	candidate := harness.ConfigFile(t, "", map[string]any{"tools": map[string]any{"deny": "web_search"}})
	for _, format := range []string{"table", "json", "html"} {
		out, stderr, code := harness.CLI(t, "", "diff", "--format", format, "--candidate", candidate, "../../../inputs/subagent_depth_cap.json")
		require.Equal(t, 3, code, "%s: %s", format, stderr)
		require.Empty(t, out)
		require.Contains(t, stderr, "has 1 configuration error")
		require.Contains(t, stderr, "config.tools.deny")
	}
	// A base with errors is noted; the comparison still runs.
	_, stderr, code := harness.CLI(t, "", "diff", "--base", candidate, "--candidate", "embedded", "../../../inputs/subagent_depth_cap.json")
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "note: the base")
}

// TestDiffPresetSwitch: the Qwen Code deployment's examples under the
// Claude Code preset change, and switching back changes them back.
func TestDiffPresetSwitch(t *testing.T) {
	t.Parallel()
	qwen := "../../../inputs/configured/qwen_code/config.json"
	claude := harness.ConfigFile(t, qwen, map[string]any{"preset": "claude_code"})
	inputs := exampleInputs(t, "../../../inputs/configured/qwen_code/*_*.json")
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
	inputs := exampleInputs(t, "../../../inputs/*.json")
	r, code := runDiffJSON(t, append([]string{"--candidate", "config:" + harness.ConfigFile(t, "", nil)}, inputs...)...)
	require.Equal(t, 0, code)
	require.Zero(t, r.ChangedRequests)
	require.Equal(t, len(inputs), r.Requests)

	out, stderr, code := harness.CLI(t, "", append([]string{"diff", "--candidate", "bundle:" + harness.PoliciesDir()}, inputs...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "0 calls in 0 requests change")
}

func TestDiffUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"diff", "../../../inputs/run_budget.json"},                                        // no candidate
		{"diff", "--candidate", "embedded"},                                                // no corpus
		{"diff", "--candidate", "git:no-such-revision", "../../../inputs/run_budget.json"}, // bad revision
		{"diff", "--candidate", "bundle:/nonexistent", "../../../inputs/run_budget.json"},  // no bundle
		{"diff", "--candidate", "embedded", "--format", "xml", "../../../inputs"},          // bad format
		{"diff", "--candidate", "embedded", "/nonexistent.jsonl"},                          // no corpus file
	} {
		_, stderr, code := harness.CLI(t, "", args...)
		require.Equal(t, 2, code, "%v: %s", args, stderr)
		require.NotEmpty(t, stderr)
	}
}
