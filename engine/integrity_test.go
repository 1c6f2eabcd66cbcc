package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckDataNamesWhatIsWrong: each missing or malformed document is
// named; a member that is null in the shipped configuration may hold
// any value. The floor is checked with the layout the host interface
// gives it.
func TestCheckDataNamesWhatIsWrong(t *testing.T) {
	floor := shippedHost(t).floor
	checkData := func(data map[string]any) error {
		return errors.Join(checkData(data), checkRequirements(data, floor))
	}
	fresh := func() map[string]any {
		b, err := loadBundle("", nil)
		require.NoError(t, err)
		return b.Data
	}
	require.NoError(t, checkData(fresh()))

	data := fresh()
	config := data["tooleval"].(map[string]any)["config"].(map[string]any)
	config["preset"] = "claude_code"
	config["mcp_user_services"] = map[string]any{}
	require.NoError(t, checkData(data))

	for name, edit := range map[string]func(map[string]any){
		"data.tooleval.unicode.map is missing": func(d map[string]any) { delete(d["tooleval"].(map[string]any)["unicode"].(map[string]any), "map") },
		"data.tooleval.unicode.ccc is empty": func(d map[string]any) {
			d["tooleval"].(map[string]any)["unicode"].(map[string]any)["ccc"] = map[string]any{}
		},
		"data.tooleval.unicode.skeleton is missing": func(d map[string]any) {
			delete(d["tooleval"].(map[string]any)["unicode"].(map[string]any), "skeleton")
		},
		"data.tooleval.config.max_depth is string, not number": func(d map[string]any) {
			d["tooleval"].(map[string]any)["config"].(map[string]any)["max_depth"] = "5"
		},
		"data.tooleval.floor.exclusions.fork_no_spawn is empty": func(d map[string]any) {
			d["tooleval"].(map[string]any)["floor"].(map[string]any)["exclusions"].(map[string]any)["fork_no_spawn"] = []any{}
		},
		"data.tooleval.floor is missing": func(d map[string]any) { delete(d["tooleval"].(map[string]any), "floor") },
		"data.tooleval.config.agent_filters is missing": func(d map[string]any) {
			delete(d["tooleval"].(map[string]any)["config"].(map[string]any), "agent_filters")
		},
		"data.tooleval.config is missing": func(d map[string]any) { delete(d["tooleval"].(map[string]any), "config") },
	} {
		data := fresh()
		edit(data)
		err := checkData(data)
		require.ErrorIs(t, err, ErrIncompleteBundle, name)
		require.ErrorContains(t, err, name)
	}
}
