package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// TestLocationNamesTheCulpritsPath: a problem is located by the path of
// its culprit in the configuration or the request, then its other
// members.
func TestLocationNamesTheCulpritsPath(t *testing.T) {
	for _, c := range []struct {
		problem engine.Problem
		want    string
	}{
		{engine.Problem{"code": "x", "message": "m", "field": "config.tools.deny", "index": json.Number("1"), "entry": "x"}, " (at config.tools.deny[1]; entry=x)"},
		{engine.Problem{"code": "x", "field": "layers", "layer_index": json.Number("0"), "list": "allow", "index": json.Number("2"), "layer": "t"}, " (at layers[0].allow[2]; layer=t)"},
		{engine.Problem{"code": "x", "field": "layers", "layer_index": float64(3)}, " (at layers[3])"},
		{engine.Problem{"code": "x", "field": "config.tools.profile", "profile": "codng"}, " (at config.tools.profile; profile=codng)"},
		{engine.Problem{"code": "x", "field": "calls[1]"}, " (at calls[1])"},
		{engine.Problem{"code": "x", "field": "config.x", "index": json.Number("1.5")}, " (at config.x; index=1.5)"},
		{engine.Problem{"code": "x", "field": "config.x", "index": json.Number("-1")}, " (at config.x; index=-1)"},
		{engine.Problem{"code": "x", "entry": "e"}, " (entry=e)"},
		{engine.Problem{"code": "x", "message": "m"}, ""},
		{engine.Problem{"code": "x", "field": "", "index": json.Number("0")}, " (field=\"\" index=0)"},
	} {
		require.Equal(t, c.want, location(c.problem), "%v", c.problem)
	}
}

// A table never prints a long id, name or message whole: each cell is
// clipped (internal/display), so a call with a 5,000-character name
// prints a line of a few hundred characters.
func TestTablesClipLongNames(t *testing.T) {
	name := strings.Repeat("n", 5000)
	d := &engine.Decision{Decisions: []engine.CallDecision{{
		ID: strings.Repeat("i", 5000), Name: name, Allowed: false, Reason: "not_declared", Layer: "declaration",
		Message: "tool " + strconv.Quote(name) + " is not declared",
	}}}
	var out strings.Builder
	require.NoError(t, writeDecisionTable(&out, d))
	for _, line := range strings.Split(out.String(), "\n") {
		require.Less(t, len(line), 700, "%.200s", line)
	}
	require.Contains(t, out.String(), " [5000 bytes, sha256 ")
	require.Contains(t, out.String(), `is not declared [5023 bytes, sha256 `)
}

// A tool whose calls argument rules decide reads "conditional" the same
// way in the tools table, its JSON, the matrix table and the matrix
// JSON, with the rules and their sources, and counts as allowed in the
// exit status (0); a tool asked about by name reads "asks" (exit 1).
func TestConditionalToolsReadAlikeEverywhere(t *testing.T) {
	in := `{"declared": [{"name": "read_file"}, {"name": "web_fetch"}],
		"layers": [{"name": "net", "allow": ["read_file", {"tool": "web_fetch", "domain": "example.org"}]}]}`
	table, _, code := run(t, in, false, "tools", "--format", "table")
	require.Equal(t, ExitOK, code, table)
	require.Regexp(t, `(?m)^web_fetch\s+conditional\s`, table)
	require.Contains(t, table, `allow {"domain":"example.org","tool":"web_fetch"} (layers[0].allow[1], url)`)
	matrixTable, _, code := run(t, in, false, "tools", "--matrix", "--format", "table")
	require.Equal(t, ExitOK, code, matrixTable)
	require.Regexp(t, `(?m)^web_fetch\s+conditional\s`, matrixTable)
	require.Contains(t, matrixTable, `allow {"domain":"example.org","tool":"web_fetch"} (layers[0].allow[1], url)`)

	for _, args := range [][]string{{"tools", "--format", "json"}, {"tools", "--matrix", "--format", "json"}} {
		out, _, code := run(t, in, false, args...)
		require.Equal(t, ExitOK, code, out)
		var doc struct {
			Tools []struct {
				Name, Outcome string
				Allowed       bool
				Rules         []struct{ Source string }
			}
			Rows []struct {
				Tool, Outcome string
				Allowed       bool
				Rules         []struct{ Source string }
			}
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc))
		for _, row := range doc.Rows {
			doc.Tools = append(doc.Tools, struct {
				Name, Outcome string
				Allowed       bool
				Rules         []struct{ Source string }
			}{row.Tool, row.Outcome, row.Allowed, row.Rules})
		}
		require.Len(t, doc.Tools, 2, "%v", args)
		require.Equal(t, "allow", doc.Tools[0].Outcome, "%v", args)
		require.Equal(t, "conditional", doc.Tools[1].Outcome, "%v", args)
		require.True(t, doc.Tools[1].Allowed, "%v", args)
		require.Len(t, doc.Tools[1].Rules, 1, "%v", args)
		require.Equal(t, "layers[0].allow[1]", doc.Tools[1].Rules[0].Source, "%v", args)
	}

	asked := `{"declared": [{"name": "web_fetch"}], "layers": [{"name": "net", "ask": ["web_fetch"]}]}`
	table, _, code = run(t, asked, false, "tools", "--format", "table")
	require.Equal(t, ExitRefused, code, table)
	require.Regexp(t, `(?m)^web_fetch\s+asks\s+ask\s+net`, table)
}
