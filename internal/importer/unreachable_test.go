package importer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// [overlay, the allow entries noted]: only a deny of a whole tool
// without exceptions makes that tool's allows unreachable, section by
// section.
func TestUnreachableAllows(t *testing.T) {
	whole := map[string]any{"tool": "bash", "args_pattern": ""}
	for _, tc := range []struct {
		name    string
		overlay map[string]any
		want    []string
	}{
		{"a whole-tool deny", map[string]any{"tools": map[string]any{
			"allow": []any{"read_file", map[string]any{"tool": "bash", "command_prefix": "ls"}, "bash"},
			"deny":  []any{whole},
		}}, []string{"config.tools.allow[1]", "config.tools.allow[2]"}},
		{"with exceptions", map[string]any{"tools": map[string]any{
			"allow": []any{"bash"},
			"deny":  []any{map[string]any{"tool": "bash", "args_pattern": "", "unless": []any{"bash"}}},
		}}, nil},
		{"a narrower deny", map[string]any{"tools": map[string]any{
			"allow": []any{"bash"},
			"deny":  []any{map[string]any{"tool": "bash", "args_pattern": "rm"}},
		}}, nil},
		{"another tool", map[string]any{"tools": map[string]any{"allow": []string{"read_file"}, "deny": []any{whole}}}, nil},
		{"the sub-agent section", map[string]any{"subagents": map[string]any{"allow": []string{"bash"}, "deny": []any{whole}}},
			[]string{"config.subagents.allow[0]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			notes := unreachableAllows(tc.overlay)
			if tc.want == nil {
				require.Empty(t, notes)
				return
			}
			require.Len(t, notes, 1)
			for _, w := range tc.want {
				require.Contains(t, notes[0].Text, w)
			}
		})
	}
}
