package cli

import (
	"encoding/json"
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
