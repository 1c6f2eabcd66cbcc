package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func run(t *testing.T, stdin string, terminal bool, args ...string) (string, string, int) {
	t.Helper()
	var out, errs bytes.Buffer
	code := Run(context.Background(), Streams{In: strings.NewReader(stdin), Out: &out, Err: &errs, InTerminal: terminal}, args)
	return out.String(), errs.String(), code
}

// Reading standard input from a terminal says so on stderr first; from
// a pipe it says nothing.
func TestStandardInputHintOnATerminal(t *testing.T) {
	in := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`
	_, stderr, code := run(t, in, true, "eval", "--format", "json")
	require.Equal(t, ExitOK, code)
	require.Contains(t, stderr, "reading JSON from standard input")
	_, stderr, _ = run(t, in, false, "eval", "--format", "json")
	require.Empty(t, stderr)
}

// Several inputs print JSON Lines of {source, result}; the exit code is
// the worst of them.
func TestSeveralInputsAsJSONLines(t *testing.T) {
	lines := strings.Join([]string{
		`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`,
		`{"declared": [{"name": "read_file"}], "calls": [{"id": "b", "name": "write_file"}]}`,
		`{"decision_id": "x", "path": "tooleval/decision", "input": {"layers": [{"name": "l", "allow": ["*"]}], "calls": [{"id": "c", "name": "x"}]}}`,
		`{"decision_id": "y", "path": "tooleval/launch", "input": {"fork_tools": []}}`,
	}, "\n")
	out, _, code := run(t, lines, false, "eval", "--format", "json", "-")
	require.Equal(t, ExitErrors, code)
	type result struct {
		Source string `json:"source"`
		Result struct {
			Decisions []struct {
				ID      string `json:"id"`
				Allowed bool   `json:"allowed"`
			} `json:"decisions"`
			Errors []any `json:"errors"`
		} `json:"result"`
	}
	var results []result
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var one result
		require.NoError(t, json.Unmarshal([]byte(line), &one), line)
		results = append(results, one)
	}
	require.Len(t, results, 3, "the launch event is not a decision input")
	require.Equal(t, "standard input:1", results[0].Source)
	require.True(t, results[0].Result.Decisions[0].Allowed)
	require.False(t, results[1].Result.Decisions[0].Allowed)
	require.Equal(t, "standard input:3", results[2].Source)
	require.NotEmpty(t, results[2].Result.Errors)
}

// check --format json counts and lists the findings; --format github
// prints workflow commands on the file concerned, escaped.
func TestCheckFormats(t *testing.T) {
	in := `{"layers": [{"name": "l", "allow": ["*"]}], "declared": [{"name": "read_file"}, {"name": "re\u0430d_file"}]}`
	out, _, code := run(t, in, false, "check", "--format", "json", "-")
	require.Equal(t, ExitErrors, code)
	var report struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Findings []struct {
			Where    string         `json:"where"`
			Severity string         `json:"severity"`
			Problem  map[string]any `json:"problem"`
		} `json:"findings"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	require.Equal(t, 1, report.Errors)
	require.Equal(t, 1, report.Warnings)
	require.Len(t, report.Findings, 2)
	require.Equal(t, "bare_wildcard", report.Findings[0].Problem["code"])
	require.Equal(t, "standard input", report.Findings[0].Where)

	// Two documents on standard input are JSON Lines: sources name the line.
	out, _, code = run(t, in+"\n"+in, false, "check", "--format", "github", "-")
	require.Equal(t, ExitErrors, code)
	require.Contains(t, out, "::error file=standard input%3A1,title=bare_wildcard::")
	require.Contains(t, out, "::warning file=standard input%3A1,title=confusable_names::")
	require.Equal(t, "a%25b%0Ac", githubEscape("a%b\nc", false))
	require.Equal(t, "x%3Ay%2Cz", githubEscape("x:y,z", true))
}

// The command line's conventions: help CMD, --version, a suggestion for a
// mistyped command or flag with where to look next.
func TestCommandLineConventions(t *testing.T) {
	out, _, code := run(t, "", false, "help", "eval")
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, "tooleval eval [-i FILE|-]", "help CMD prints CMD's usage")

	_, stderr, code := run(t, "", false, "evl")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, `unknown command "evl" (did you mean eval?)`)
	require.Contains(t, stderr, "eval, tools, launch, check, verify, diff, import, bundle, mcp, hook, serve, version", "the valid commands are listed")

	_, stderr, code = run(t, "", false, "frobnicate")
	require.Equal(t, ExitUsage, code)
	require.NotContains(t, stderr, "did you mean", "no suggestion for a word close to nothing")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain"}, `unknown command "explain" (did you mean eval --explain?)`},
		{[]string{"import", "claud-code", "x.json"}, `the runtimes imported are claude-code, codex and gemini (did you mean claude-code?)`},
		{[]string{"bundle", "biuld"}, `unknown subcommand "biuld" (did you mean build?)`},
		{[]string{"mcp", "prxy"}, `unknown subcommand "prxy" (did you mean proxy?)`},
	} {
		_, stderr, code = run(t, "", false, c.args...)
		require.Equal(t, ExitUsage, code, c.args)
		require.Contains(t, stderr, c.want, c.args)
	}

	_, stderr, code = run(t, "{}", false, "eval", "--formt", "json")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "unknown flag: --formt (did you mean --format?)")
	require.Contains(t, stderr, "run 'tooleval eval --help' for its flags")
}

// A document that is not JSON, or not of the expected kind, is located
// by line and column and described in JSON's words, not Go's.
func TestDecodeErrorsAreLocatedWithoutGoTypes(t *testing.T) {
	_, stderr, code := run(t, "{\"calls\":\n  [1,,]}", false, "eval", "-i", "-")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "line 2, column 6")

	dir := t.TempDir()
	config := dir + "/config.json"
	require.NoError(t, os.WriteFile(config, []byte("[\"preset\"]"), 0o600))
	_, stderr, code = run(t, "", false, "check", "--config", config)
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "line 1, column 1: a JSON array where an object was expected")
	require.NotContains(t, stderr, "Go value")
	require.NotContains(t, stderr, "engine.Config")
}

// "-" reads the same whether it is -i - or an argument: one JSON document
// over any number of lines, or JSON Lines.
func TestStandardInputReadsTheSameEitherWay(t *testing.T) {
	pretty := "{\n  \"declared\": [{\"name\": \"read_file\"}],\n  \"calls\": [{\"id\": \"a\", \"name\": \"read_file\"}]\n}\n"
	lines := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}` + "\n" +
		`{"declared": [{"name": "read_file"}], "calls": [{"id": "b", "name": "write_file"}]}` + "\n"
	for _, in := range []string{pretty, lines} {
		viaFlag, stderrFlag, codeFlag := run(t, in, false, "eval", "--format", "json", "-i", "-")
		viaArgument, stderrArgument, codeArgument := run(t, in, false, "eval", "--format", "json", "-")
		require.Equal(t, codeArgument, codeFlag, "%s%s", stderrFlag, stderrArgument)
		require.Equal(t, viaArgument, viaFlag)
	}
	out, _, code := run(t, lines, false, "eval", "--format", "json", "-i", "-")
	require.Equal(t, ExitRefused, code)
	require.Equal(t, 2, strings.Count(out, `"source"`), "JSON Lines are two documents")
}

// eval recognizes what check recognizes: a launch document is decided as
// a launch, a result document (inputs/expected/) is skipped, said on
// standard error.
func TestEvalRecognizesLaunchesAndResults(t *testing.T) {
	out, _, code := run(t, `{"subagent_type": "fork", "fork_tools": ["read_file"]}`, false, "eval", "--format", "json")
	require.Equal(t, ExitOK, code)
	require.Contains(t, out, `"execution_allowed_tools"`)
	_, _, code = run(t, `{"subagent_type": "x", "fork_tools": []}`, false, "eval", "--format", "json")
	require.Equal(t, ExitErrors, code, "an invalid launch exits as tooleval launch does")

	result := `{"decisions": [{"id": "a", "name": "read_file", "allowed": true}], "errors": []}`
	_, stderr, code := run(t, result, false, "eval", "--format", "json")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "is a result document, not an input: skipped")
	_, stderr, code = run(t, result, false, "check", "-")
	require.Equal(t, ExitOK, code)
	require.Contains(t, stderr, "is a result document, not an input: skipped")
}

// verify's --timeout bounds the whole verification, and no evaluation
// of it has the per-decision deadline by default.
func TestVerifyTimeoutBoundsTheVerification(t *testing.T) {
	_, stderr, code := run(t, "", false, "verify", "--timeout", "1ns")
	require.Equal(t, ExitUsage, code)
	require.Contains(t, stderr, "the verification ran past its time limit")
	require.Contains(t, stderr, "raise --timeout")

	help, _, code := run(t, "", false, "verify", "--help")
	require.Equal(t, ExitOK, code)
	require.Contains(t, help, "how long the whole verification may run (0: no limit)")
	require.NotContains(t, help, "(default 5s)")
}

// Invariants that read what their input does not have are errors, exit
// 3, located, with the JSON report on standard output.
func TestVerifyInvariantsThatReadNothingAreErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(dir+"/x.rego", []byte("package tooleval.invariants\n\nviolation contains {\"id\": \"x\", \"message\": \"m\"} if {\n\tsome t in input.tolls\n\tt.outcome == \"allow\"\n}\n"), 0o600))
	out, stderr, code := run(t, "", false, "verify", "--invariants", dir, "--format", "json")
	require.Equal(t, ExitErrors, code, stderr)
	require.Contains(t, stderr, "undefined ref: input.tolls")
	require.Contains(t, stderr, "row=4")
	var report struct{ Errors []map[string]any }
	require.NoError(t, json.Unmarshal([]byte(out), &report))
	require.Len(t, report.Errors, 1)
	require.Equal(t, "invalid_invariants", report.Errors[0]["code"])
}

// A spawn tool the preset replaces is a configuration error of
// verify's: exit 3, located.
func TestVerifyRefusesASpawnToolThePresetReplaces(t *testing.T) {
	_, stderr, code := run(t, `{"preset": "claude_code", "agent_filters": {"agent_tool": "task"}}`, false, "verify", "--config", "-", "--format", "table")
	require.Equal(t, ExitErrors, code, stderr)
	require.Contains(t, stderr, "spawn_tool_mismatch")
	require.Contains(t, stderr, "config.agent_filters.agent_tool")
}

// A batch over the call cap (3 in a copy of the bundle) is refused whole
// before any of its calls is evaluated: exit 3, as for any request with
// errors, every call invalid_config, and under --explain each call
// traced by the config check alone.
func TestEvalRefusesABatchOverTheCallCap(t *testing.T) {
	bundle := t.TempDir()
	require.NoError(t, os.CopyFS(bundle, os.DirFS(filepath.Join("..", "..", "policies"))))
	shape := filepath.Join(bundle, "tooleval", "shape", "shape.rego")
	data, err := os.ReadFile(shape)
	require.NoError(t, err)
	require.Contains(t, string(data), "max_calls := 100000")
	require.NoError(t, os.WriteFile(shape, []byte(strings.Replace(string(data), "max_calls := 100000", "max_calls := 3", 1)), 0o600))
	in := `{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}, {"id": "b", "name": "read_file"}, {"name": "read_file"}, 7]}`
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"json", []string{"--format", "json"}},
		{"explained", []string{"--format", "json", "--explain"}},
		{"table", []string{"--format", "table"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := run(t, in, false, append([]string{"eval", "--bundle", bundle}, tc.args...)...)
			require.Equal(t, ExitErrors, code, stderr)
			if tc.name == "table" {
				require.Contains(t, out, "too_many_entries")
				return
			}
			var d struct {
				Decisions []struct {
					ID      any              `json:"id"`
					Allowed bool             `json:"allowed"`
					Reason  string           `json:"reason"`
					Trace   []map[string]any `json:"trace"`
				} `json:"decisions"`
				Errors []map[string]any `json:"errors"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &d))
			require.Len(t, d.Decisions, 4)
			for i, c := range d.Decisions {
				require.Equal(t, []any{"a", "b", nil, nil}[i], c.ID)
				require.False(t, c.Allowed)
				require.Equal(t, "invalid_config", c.Reason)
				if tc.name == "explained" {
					require.Len(t, c.Trace, 1)
					require.Equal(t, "config", c.Trace[0]["check"])
				}
			}
			require.Equal(t, "too_many_entries", d.Errors[0]["code"])
		})
	}
}
