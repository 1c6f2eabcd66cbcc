package cli

import (
	"bytes"
	"context"
	"encoding/json"
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
	require.Contains(t, stderr, "reading a JSON document from standard input")
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
	require.Equal(t, "standard input:1", report.Findings[0].Where)

	out, _, code = run(t, in, false, "check", "--format", "github", "-")
	require.Equal(t, ExitErrors, code)
	require.Contains(t, out, "::error file=standard input%3A1,title=bare_wildcard::")
	require.Contains(t, out, "::warning file=standard input%3A1,title=confusable_names::")
	require.Equal(t, "a%25b%0Ac", githubEscape("a%b\nc", false))
	require.Equal(t, "x%3Ay%2Cz", githubEscape("x:y,z", true))
}
