package tests

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestMCPGatewayDocExample holds docs/mcp-gateway.md's filesystem example
// to what the command line says: its configuration overlay checks clean,
// `tooleval tools` for tenant acme with its operator layer prints its
// table, and the refusal it quotes is the policy's.
func TestMCPGatewayDocExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/mcp-gateway.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```[a-z]*\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	var overlay, layer, table string
	for _, b := range blocks {
		switch body := b[1]; {
		case overlay == "" && strings.Contains(body, `"path_arguments"`):
			overlay = body
		case layer == "" && strings.HasPrefix(body, `{"name": "operator"`):
			layer = body
		case table == "" && strings.HasPrefix(body, "NAME "):
			table = body
		}
	}
	require.NotEmpty(t, overlay, "the overlay")
	require.NotEmpty(t, layer, "the operator layer")
	require.NotEmpty(t, table, "the tools table")

	dir := t.TempDir()
	config := filepath.Join(dir, "filesystem.json")
	require.NoError(t, os.WriteFile(config, []byte(overlay), 0o600))
	out, _, code := harness.CLI(t, "", "check", "--config", config)
	require.Equal(t, 0, code, out)
	require.Contains(t, strings.ToLower(out), "no problems")

	var operator map[string]any
	require.NoError(t, json.Unmarshal([]byte(layer), &operator))
	var declared []any
	lines := strings.Split(strings.TrimSpace(table), "\n")
	for _, line := range lines[1:] {
		name := strings.Fields(line)[0]
		tool := strings.TrimPrefix(name, "mcp__filesystem__")
		declared = append(declared, map[string]any{"name": name, "mcp": map[string]any{"server": "filesystem", "tool": tool}})
	}
	input, err := json.Marshal(map[string]any{
		"declared": declared, "layers": []any{operator}, "tenant": "acme",
		"workspace": map[string]any{"root": "/home/me/project"},
		"calls":     []any{map[string]any{"id": "1", "name": "mcp__filesystem__read_text_file", "args": map[string]any{"path": "/home/me/.ssh/id_ed25519"}}},
	})
	require.NoError(t, err)

	out, _, code = harness.CLI(t, string(input), "tools", "--config", config, "--format", "table", "-i", "-")
	require.Equal(t, 1, code, out)
	printed, _, _ := strings.Cut(out, "\neffective:")
	require.Equal(t, strings.TrimSpace(table), strings.TrimSpace(printed))

	out, _, code = harness.CLI(t, string(input), "eval", "--config", config, "--format", "json", "-i", "-")
	require.Equal(t, 1, code, out)
	var decision struct {
		Decisions []struct {
			Message string `json:"message"`
		} `json:"decisions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &decision))
	require.Len(t, decision.Decisions, 1)
	flat := strings.Join(strings.Fields(string(doc)), " ")
	require.Contains(t, flat, "`"+decision.Decisions[0].Message+"`", "the doc quotes the refusal as the policy words it")
}
