package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestCLIEqualsOPAEval: for every example, `tooleval eval --format json`
// (and `tooleval tools`, `tooleval launch`) prints the document `go tool opa eval` computes
// on the built bundle.
func TestCLIEqualsOPAEval(t *testing.T) {
	t.Parallel()
	bundle := harness.BundlePath(t)
	for query, exs := range harness.ExamplesByQuery(t) {
		command := map[string][]string{
			"data.tooleval.decision": {"eval"},
			"data.tooleval.explain":  {"eval", "--explain"},
			"data.tooleval.tools":    {"tools"},
			"data.tooleval.launch":   {"launch"},
		}[query]
		require.NotNil(t, command, query)
		got, _ := harness.CLIEach(t, append(command, "--format", "json"), harness.InputsOf(exs))
		want := harness.OPAEvalEach(t, bundle, query, harness.InputsOf(exs))
		for i, ex := range exs {
			require.JSONEq(t, string(want[i]), string(got[i]), ex.Input)
		}
	}
	// One input given with -i prints the bare document, as opa eval does.
	ex := harness.Examples(t)[0]
	out, stderr, code := harness.CLI(t, "", "eval", "-i", ex.Input, "--format", "json")
	require.Contains(t, []int{0, 1, 3}, code, stderr)
	require.JSONEq(t, string(harness.OPAEvalEach(t, bundle, ex.Query, []string{ex.Input})[0]), out, ex.Input)
}

func TestCLIExitCodes(t *testing.T) {
	t.Parallel()
	allowed := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`
	refused := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "write_file"}]}`
	configError := `{"layers": [{"name": "a", "allow": ["*"]}]}`
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
	}{
		{"all allowed", allowed, []string{"eval"}, 0},
		{"one refused", refused, []string{"eval", "-f", "table"}, 1},
		{"errors without calls", configError, []string{"eval"}, 3},
		{"errors in a catalog", configError, []string{"tools"}, 3},
		{"a refused tool", `{"agent": {"role": "fork", "depth": 1}, "declared": [{"name": "agent"}]}`, []string{"tools"}, 1},
		{"every tool allowed", allowed, []string{"tools"}, 0},
		{"input and arguments", allowed, []string{"eval", "-i", "-", "../../../inputs/run_budget.json"}, 2},
		{"several inputs, the worst", "", []string{"eval", "../../../inputs/run_budget.json", "../../../inputs/malformed.json"}, 3},
		{"several inputs, refused", "", []string{"eval", "../../../inputs/run_budget.json", "../../../inputs/tenant_layers.json"}, 1},
		{"check warnings, strict", "", []string{"check", "--strict", "--config", "../../../inputs/configured/agents/config.json", "../../../inputs/configured/agents/custom_agent.json"}, 1},
		{"check warnings", "", []string{"check", "--config", "../../../inputs/configured/agents/config.json", "../../../inputs/configured/agents/custom_agent.json"}, 0},
		{"check an allow of a misspelt tool, strict", `{"preset": "claude_code", "tools": {"allow": ["Raed"]}}`, []string{"check", "--strict", "--config", "-"}, 1},
		{"check an allow of a misspelt tool", `{"preset": "claude_code", "tools": {"allow": ["Raed"]}}`, []string{"check", "--config", "-"}, 0},
		{"check an allow of a tool of one's own, strict", `{"preset": "claude_code", "builtin_tools": ["Raed"], "tools": {"allow": ["Raed"]}}`, []string{"check", "--strict", "--config", "-"}, 0},
		{"check format", "", []string{"check", "--format", "xml"}, 2},
		{"invalid JSON", `{"calls": [`, []string{"eval"}, 2},
		{"missing file", "", []string{"eval", "-i", "/nonexistent/x.json"}, 2},
		{"unknown format", allowed, []string{"eval", "--format", "xml"}, 2},
		{"unknown flag", allowed, []string{"eval", "--frobnicate"}, 2},
		{"positional argument", allowed, []string{"eval", "input.json"}, 2},
		{"missing bundle", allowed, []string{"eval", "--bundle", "/nonexistent"}, 2},
		{"unknown command", "", []string{"frobnicate"}, 2},
		{"no command", "", nil, 2},
		{"valid launch", `{"subagent_type": "fork", "fork_tools": []}`, []string{"launch"}, 0},
		{"invalid launch", `{"subagent_type": "x", "fork_tools": []}`, []string{"launch"}, 3},
		{"check clean", "", []string{"check", "../../../inputs/tenant_layers.json"}, 0},
		{"check problems", "", []string{"check", "../../../inputs/malformed.json"}, 3},
		{"version", "", []string{"version"}, 0},
		{"bundle without build", "", []string{"bundle"}, 2},
		{"verify holds", "", []string{"verify"}, 0},
		{"verify, configuration errors", `{"tenants": {"a": {"tool": []}}}`, []string{"verify", "--config", "-"}, 3},
		{"verify, an argument", "", []string{"verify", "config.json"}, 2},
		{"verify, no invariants there", "", []string{"verify", "--invariants", "/nonexistent"}, 2},
		{"verify, no tools file", "", []string{"verify", "--tools", "/nonexistent/tools.json"}, 2},
	} {
		_, stderr, code := harness.CLI(t, tc.stdin, tc.args...)
		require.Equal(t, tc.code, code, "%s: %s", tc.name, stderr)
		if code == 2 {
			require.NotEmpty(t, stderr, "%s: a usage error names the problem", tc.name)
		}
	}
}

func TestCLIHelpOnEveryCommand(t *testing.T) {
	t.Parallel()
	// hook's and serve's examples are run by TestHooksDocRuns.
	for _, command := range []string{"eval", "tools", "launch", "check", "diff", "import", "bundle", "verify", "version", "hook", "serve"} {
		out, _, code := harness.CLI(t, "", command, "--help")
		require.Equal(t, 0, code, command)
		require.Contains(t, out, "Usage:", command)
		require.Contains(t, out, "Examples:", command)
	}
	// mcp proxy's examples start servers: TestMCPGatewayDocExample and the
	// TestMCPProxy tests run what they show.
	out, _, code := harness.CLI(t, "", "mcp", "proxy", "--help")
	require.Equal(t, 0, code)
	require.Contains(t, out, "Usage:")
	require.Contains(t, out, "Examples:")
	out, _, code = harness.CLI(t, "", "--help")
	require.Equal(t, 0, code)
	require.Contains(t, out, "Commands:")
}

func TestCLIWireFormatsMatchGolden(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"gemini", "openai", "openai-responses", "anthropic"} {
		out, _, code := harness.CLI(t, "", "eval", "-i", "../../../inputs/fork_tools.json", "--format", format)
		require.Equal(t, 1, code)
		golden, err := os.ReadFile(harness.Path("engine/wire/testdata/" + format + ".json"))
		require.NoError(t, err)
		require.JSONEq(t, string(golden), out, format)
	}
}

func TestCLIResolvePaths(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.Symlink("/etc", filepath.Join(dir, "etc")))
	in := `{"declared": [{"name": "write_file"}], "workspace": {"root": "` + dir + `"},
		"calls": [{"id": "a", "name": "write_file", "args": {"path": "etc/passwd"}}]}`
	out, _, code := harness.CLI(t, in, "eval", "--format", "json")
	require.Equal(t, 1, code)
	require.Contains(t, out, `"rule": "unresolved"`)
	out, _, code = harness.CLI(t, in, "eval", "--format", "json", "--resolve-paths")
	require.Equal(t, 1, code)
	require.Contains(t, out, `"rule": "outside_workspace"`)
	require.Contains(t, out, `path \"/etc/passwd\"`)
}

// TestCLIBundleBuild: the tarball `tooleval bundle build` writes loads in
// a stock OPA and decides like the one `make bundle` builds.
func TestCLIBundleBuild(t *testing.T) {
	t.Parallel()
	tarball := filepath.Join(t.TempDir(), "b.tar.gz")
	_, stderr, code := harness.CLI(t, "", "bundle", "build", "-o", tarball, "--revision", "cli-test")
	require.Equal(t, 0, code, stderr)
	input := harness.Path("inputs/path_checks.json")
	got := harness.OPA(t, "eval", "--format", "raw", "--bundle", tarball, "--input", input, "data.tooleval.decision")
	want := harness.OPA(t, "eval", "--format", "raw", "--bundle", harness.BundlePath(t), "--input", input, "data.tooleval.decision")
	require.JSONEq(t, string(want), string(got))
	out, _, code := harness.CLI(t, "", "eval", "--bundle", tarball, "-i", input, "--format", "json")
	require.Equal(t, 1, code)
	require.JSONEq(t, string(want), out)
}

// TestCLIWireFormatRefusesCallsWithoutAStringID: a refused call whose id
// is a number has no valid OpenAI or Anthropic tool result; the command
// exits 2 naming the call instead of printing an invalid tool_call_id.
func TestCLIWireFormatRefusesCallsWithoutAStringID(t *testing.T) {
	t.Parallel()
	in := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "nope"}, {"id": 7, "name": "read_file"}]}`
	for _, format := range []string{"openai", "anthropic"} {
		out, stderr, code := harness.CLI(t, in, "eval", "--format", format)
		require.Equal(t, 2, code, "%s: %s%s", format, out, stderr)
		require.Empty(t, out, format)
		require.Contains(t, stderr, "call 1:", format)
		require.Contains(t, stderr, "--format json", format)
	}
}

// TestCLITimeoutFailsClosed: an evaluation past --timeout exits 2 and
// says what to do; without a limit the same input decides.
func TestCLITimeoutFailsClosed(t *testing.T) {
	t.Parallel()
	var declared []string
	for i := range 10000 {
		declared = append(declared, fmt.Sprintf(`{"name": "tool_%d"}`, i))
	}
	in := `{"declared": [` + strings.Join(declared, ",") + `], "calls": [{"id": "a", "name": "tool_1"}]}`
	out, stderr, code := harness.CLI(t, in, "eval", "--timeout", "20ms")
	require.Equal(t, 2, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "deadline")
	require.Contains(t, stderr, "--timeout")
	_, stderr, code = harness.CLI(t, in, "eval", "--timeout", "0")
	require.Equal(t, 0, code, stderr)
}

// TestCLIReadsInputLikeOPAEval: a UTF-8 byte order mark before the
// document is accepted, as opa eval accepts it; data after the document
// is an error (exit 2), as it is for opa eval, never ignored.
func TestCLIReadsInputLikeOPAEval(t *testing.T) {
	t.Parallel()
	doc := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "nope"}]}`
	launch := `{"subagent_type": "fork", "fork_tools": ["read_file"]}`
	bom := "\xef\xbb\xbf"
	for _, tc := range []struct {
		name, input, command, query string
		ok                          bool
	}{
		{"BOM", bom + doc, "eval", "data.tooleval.decision", true},
		{"BOM launch", bom + launch, "launch", "data.tooleval.launch", true},
		{"white space after", doc + "\n\t \r\n", "eval", "data.tooleval.decision", true},
		{"second document", doc + "\n" + `{"calls": []}`, "eval", "data.tooleval.decision", false},
		{"second launch", launch + launch, "launch", "data.tooleval.launch", false},
		{"trailing garbage", doc + " x", "eval", "data.tooleval.decision", false},
		{"trailing bracket", doc + "]", "eval", "data.tooleval.decision", false},
	} {
		path := harness.WriteFile(t, "input.json", []byte(tc.input))
		bin, err := harness.OPABinary()
		require.NoError(t, err)
		cmd := exec.Command(bin, "eval", "--format", "raw", "--bundle", harness.BundlePath(t), "--input", path, tc.query)
		want, opaErr := cmd.Output()
		require.Equal(t, tc.ok, opaErr == nil, "%s: opa eval accepted=%v", tc.name, opaErr == nil)
		out, stderr, code := harness.CLI(t, "", tc.command, "-i", path, "--format", "json")
		if !tc.ok {
			require.Equal(t, 2, code, "%s: %s", tc.name, out)
			require.Contains(t, stderr, "input", tc.name)
			continue
		}
		require.Contains(t, []int{0, 1, 3}, code, "%s: %s", tc.name, stderr)
		require.JSONEq(t, string(want), out, tc.name)
		_, stderr, code = harness.CLI(t, "", "check", path)
		require.NotEqual(t, 2, code, "%s: check: %s", tc.name, stderr)
	}
	// What opa eval reads only because it falls back to YAML is refused:
	// tooleval inputs are JSON.
	for name, input := range map[string]string{
		"two BOMs":          bom + bom + doc,
		"empty":             "",
		"YAML document end": doc + "\n---\n" + doc,
	} {
		_, stderr, code := harness.CLI(t, input, "eval", "--format", "json")
		require.Equal(t, 2, code, name)
		require.Contains(t, stderr, "standard input", name)
	}
}

// TestCLIStampsTheBuildRevision: a binary built as `make tooleval`
// builds it reports the commit as the embedded bundle's revision (every
// binary said "dev"), in `tooleval version`, in its decisions' audit
// records and in the bundles `bundle build` writes.
func TestCLIStampsTheBuildRevision(t *testing.T) {
	t.Parallel()
	want, err := harness.GitRevision()
	require.NoError(t, err, "the tests run in a git checkout")
	out, _, code := harness.CLI(t, "", "version")
	require.Equal(t, 0, code)
	require.Contains(t, out, "\nbundle revision "+want+"\n")

	tarball := filepath.Join(t.TempDir(), "b.tar.gz")
	_, stderr, code := harness.CLI(t, "", "bundle", "build", "-o", tarball)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "(revision "+want+")")
	e, err := engine.New(context.Background(), engine.WithBundle(tarball))
	require.NoError(t, err)
	require.Equal(t, want, e.Revision())
}

// TestCLIBundleBuildRefusesInvalidConfig: a configuration that check
// reports errors for is not built into a bundle (every decision of it
// would be invalid_config); the command exits 2, says why and what to
// run, and writes nothing.
func TestCLIBundleBuildRefusesInvalidConfig(t *testing.T) {
	t.Parallel()
	config := harness.WriteFile(t, "config.json", []byte(`{"tools": {"profile": "codign"}}`))
	tarball := filepath.Join(t.TempDir(), "b.tar.gz")
	_, stderr, code := harness.CLI(t, "", "bundle", "build", "--config", config, "-o", tarball)
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "unknown_profile")
	require.Contains(t, stderr, "tooleval check --config")
	_, err := os.Stat(tarball)
	require.ErrorIs(t, err, os.ErrNotExist)

	valid := harness.WriteFile(t, "valid.json", []byte(`{"tools": {"profile": "coding"}}`))
	_, stderr, code = harness.CLI(t, "", "bundle", "build", "--config", valid, "-o", tarball)
	require.Equal(t, 0, code, stderr)
}

// TestCLIToolsTableAndExitCodes: tooleval tools prints one row per
// declared tool and the effective list, and exits 1 when the catalog has
// errors (every tool refused).
func TestCLIToolsTableAndExitCodes(t *testing.T) {
	t.Parallel()
	in := `{"agent": {"role": "subagent", "depth": 1}, "declared": [{"name": "read_file"}, {"name": "gateway"}], "calls": "ignored"}`
	out, stderr, code := harness.CLI(t, in, "tools", "--format", "table")
	require.Equal(t, 1, code, stderr)
	require.Regexp(t, `(?m)^read_file\s+allowed`, out)
	require.Regexp(t, `(?m)^gateway\s+refused\s+excluded\s+subagent_hard_deny`, out)
	require.Contains(t, out, "effective: read_file\n")

	out, _, code = harness.CLI(t, `{"declared": [{"name": "a"}, {"name": "A"}]}`, "tools", "--format", "json")
	require.Equal(t, 3, code)
	require.Contains(t, out, `"duplicate_declaration"`)
}

// TestCLIExplainTable: eval --explain prints, after the decision table,
// every check of every call with the entry that matched and its source;
// an explanation has no wire format.
func TestCLIExplainTable(t *testing.T) {
	t.Parallel()
	out, stderr, code := harness.CLI(t, "", "eval", "-i", "../../../inputs/deny_and_groups.json", "--explain", "--format", "table")
	require.Equal(t, 1, code, stderr)
	require.Contains(t, out, `call g2 debug_dump: refused: denied by agent`)
	require.Regexp(t, `layer\s+agent\s+deny\s+refused\s+debug_\*\s+layers\[0\]\.deny\[0\]`, out)
	require.Regexp(t, `layer\s+agent\s+allow\s+pass\s+group:read_only > grep\s+layers\[0\]\.allow\[0\] > groups\.read_only\[\d+\]`, out)
	require.Regexp(t, `exclusion\s+subagent_hard_deny\s+-\s+pass`, out)

	_, stderr, code = harness.CLI(t, "", "eval", "-i", "../../../inputs/deny_and_groups.json", "--explain", "--format", "anthropic")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "unknown format")
}

// TestCLIToolsMatrix: tools --matrix gives every declared tool against
// every name-level check, and agrees with the catalog's verdicts.
func TestCLIToolsMatrix(t *testing.T) {
	t.Parallel()
	out, stderr, code := harness.CLI(t, "", "tools", "-i", "../../../inputs/delegation_chain.json", "--matrix", "--format", "json")
	require.Equal(t, 1, code, stderr)
	var m struct {
		Checks []string `json:"checks"`
		Rows   []struct {
			Tool    string   `json:"tool"`
			Allowed bool     `json:"allowed"`
			Cells   []string `json:"cells"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &m))
	catalog, _, _ := harness.CLI(t, "", "tools", "-i", "../../../inputs/delegation_chain.json", "--format", "json")
	var c struct {
		Tools []struct {
			Name    string `json:"name"`
			Allowed bool   `json:"allowed"`
			Layer   string `json:"layer"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal([]byte(catalog), &c))
	require.Len(t, m.Rows, len(c.Tools))
	column := map[string]int{}
	for i, check := range m.Checks {
		column[check] = i
	}
	for i, row := range m.Rows {
		require.Equal(t, c.Tools[i].Name, row.Tool)
		require.Equal(t, c.Tools[i].Allowed, row.Allowed, row.Tool)
		require.Len(t, row.Cells, len(m.Checks))
		if !row.Allowed {
			layer := c.Tools[i].Layer
			j, ok := column["layer "+layer+" allow"]
			require.True(t, ok, "the refusing layer %q has a column", layer)
			require.Equal(t, "refused", row.Cells[j], row.Tool)
		}
		for _, cell := range row.Cells {
			require.Contains(t, []string{"pass", "refused", "exempt", "not_applicable"}, cell)
		}
	}

	table, _, code := harness.CLI(t, "", "tools", "-i", "../../../inputs/delegation_chain.json", "--matrix", "--format", "table")
	require.Equal(t, 1, code)
	require.Regexp(t, `(?m)^web_search\s+refused\s`, table)
	require.Contains(t, table, "layer peer:summarizer allow")

	// A request with errors: every tool refused, the errors shown, exit 3.
	bad := `{"declared": [{"name": "read_file"}], "layers": [{"name": "l", "allow": ["*"]}]}`
	table, _, code = harness.CLI(t, bad, "tools", "--matrix", "--format", "table")
	require.Equal(t, 3, code, table)
	require.Contains(t, table, "errors:")
	out, _, code = harness.CLI(t, bad, "tools", "--matrix", "--format", "json")
	require.Equal(t, 3, code, out)
	require.Contains(t, out, `"errors": [`)
}

// A report, overlay or bundle written into a directory that does not
// exist is a usage error naming the directory, not the temporary file
// the write would have used.
func TestCLIOutputIntoAMissingDirectory(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "reports")
	for _, args := range [][]string{
		{"diff", "--candidate", "config:../../../inputs/configured/profiles/config.json", "-o", filepath.Join(missing, "r.html"), "-f", "html", "../../../inputs/delegation_chain.json"},
		{"import", "claude-code", "-o", filepath.Join(missing, "overlay.json"), "-"},
	} {
		_, stderr, code := harness.CLI(t, `{"permissions":{"allow":["Read"]}}`, args...)
		require.Equal(t, 2, code, "%v: %s", args, stderr)
		require.Contains(t, stderr, "the directory "+missing+" does not exist (create it first)", args)
		require.NotContains(t, stderr, ".tmp", args)
	}
}
