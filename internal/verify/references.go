package verify

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/matrix"
)

// refList is a list whose promise an invariant holds the decisions to:
// read as a deny list (the tools it names) or as an allow list (the
// tools it lets through).
type refList struct {
	kind    string // "deny" or "allow"
	entries []any
}

// maxProbeLayers is the policy's cap on inline layers.
const maxProbeLayers = 256

// matchLists asks the policy which tools of the universe each list
// matches, the way it reads every list: each list becomes an inline
// layer of a probe request (a main agent declaring the universe), and
// the explain trace of one call per tool says, layer by layer, whether
// the list refused it (a deny list: the list names it) or let it pass
// (an allow list: it lets it through). matches[i][t] is list i's
// verdict on tool t.
func matchLists(ctx context.Context, e *engine.Engine, u *universe, lists []refList) ([][]bool, error) {
	matches := make([][]bool, len(lists))
	for start := 0; start < len(lists); start += maxProbeLayers {
		end := min(start+maxProbeLayers, len(lists))
		layers := make([]any, 0, end-start)
		for i := start; i < end; i++ {
			layer := map[string]any{"name": "verify_" + strconv.Itoa(i), "allow": nil, "deny": []any{}}
			layer[lists[i].kind] = lists[i].entries
			layers = append(layers, layer)
		}
		request, err := encode(map[string]any{
			"agent":    map[string]any{"name": "", "role": "main", "depth": 0},
			"declared": u.declared,
			"layers":   layers,
		})
		if err != nil {
			return nil, fmt.Errorf("probe the lists: %w", err)
		}
		m, err := matrix.Build(ctx, e, request)
		if err != nil {
			return nil, fmt.Errorf("probe the lists: %w", err)
		}
		if len(m.Errors) > 0 {
			return nil, fmt.Errorf("the tools verify declares (the names the configuration knows and those of --tools) have errors: %v", m.Errors)
		}
		column := map[string]int{}
		for c, title := range m.Checks {
			column[title] = c
		}
		for i := start; i < end; i++ {
			title := "layer verify_" + strconv.Itoa(i) + " " + lists[i].kind
			c, ok := column[title]
			if !ok {
				return nil, fmt.Errorf("probe the lists: the explain trace has no step %q", title)
			}
			want := matrix.Refused
			if lists[i].kind == "allow" {
				want = matrix.Pass
			}
			matches[i] = make([]bool, len(u.declared))
			for t, row := range m.Rows {
				matches[i][t] = row.Cells[c] == want
			}
		}
	}
	return matches, nil
}
