package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// presetOverlays is how many generated overlays
// TestPropertyAPresetNeverTakesAnEntryOut checks against every preset;
// TOOLEVAL_PRESET_OVERLAYS sets another number (e.g. 200 for a long run).
const presetOverlays = 3

// presetData reads the shipped presets (the names they know feed the
// generated overlays).
func presetData(t *testing.T) map[string]map[string]any {
	t.Helper()
	data, err := os.ReadFile("../policies/tooleval/config/presets/data.json")
	require.NoError(t, err)
	var presets map[string]map[string]any
	require.NoError(t, json.Unmarshal(data, &presets))
	return presets
}

// presetNames is every built-in name a preset mentions in its aliases,
// groups, exclusions and deny families, sorted.
func presetNames(presets map[string]map[string]any) []string {
	seen := map[string]bool{}
	add := func(x any) {
		if s, ok := x.(string); ok && s != "" && !strings.HasPrefix(s, "mcp__") && !strings.HasPrefix(s, "group:") && !strings.HasSuffix(s, "*") {
			seen[s] = true
		}
	}
	for _, p := range presets {
		for k, v := range asMap(p["aliases"]) {
			add(k)
			add(v)
		}
		for k, v := range asMap(p["deny_families"]) {
			add(k)
			for _, m := range asSlice(v) {
				add(m)
			}
		}
		for _, member := range []string{"groups", "exclusions"} {
			for _, list := range asMap(p[member]) {
				for _, e := range asSlice(list) {
					add(e)
				}
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func asMap(x any) map[string]any {
	m, _ := x.(map[string]any)
	return m
}

// presetOverlay generates a deployment's overlay over names: groups (some
// named like a preset's), exclusions, deny lists, deny-list agent filters
// and an agent definition's disallowed_tools, max_depth, and aliases for
// preset (fresh names for tools of the pool; inert without the preset).
// One group is always named like one of the preset's (sharedGroups) and
// always named by subagent_hard_deny.
func presetOverlay(rng *rand.Rand, names []string, preset string, taken map[string]bool, sharedGroups []string) engine.Config {
	pick := func() string { return names[rng.IntN(len(names))] }
	groupNames := []string{"messaging", "edit", "execution", "read_only", "sessions", "fs", "runtime", "web", "schedule", "ui", "mine"}
	groups := map[string]any{}
	for range 1 + rng.IntN(3) {
		var members []any
		for range 1 + rng.IntN(4) {
			members = append(members, pick())
		}
		groups[groupNames[rng.IntN(len(groupNames))]] = members
	}
	var groupRefs []string
	for g := range groups {
		groupRefs = append(groupRefs, "group:"+g)
	}
	sort.Strings(groupRefs)
	list := func() []any {
		out := []any{}
		for range rng.IntN(4) {
			switch rng.IntN(6) {
			case 0:
				out = append(out, groupRefs[rng.IntN(len(groupRefs))])
			case 1:
				n := pick()
				out = append(out, n[:1+rng.IntN(len(n))]+"*")
			case 2:
				out = append(out, "mcp__github__*")
			default:
				out = append(out, pick())
			}
		}
		return out
	}
	// One group the preset defines too, always named by an exclusion.
	shared := sharedGroups[rng.IntN(len(sharedGroups))]
	groups[shared] = []any{pick(), pick()}
	hardDeny := append(list(), "group:"+shared)
	aliases := map[string]any{}
	for i := range rng.IntN(3) {
		// a fresh name for a tool that is not itself an alias (no chain)
		if t := pick(); !taken[strings.ToLower(t)] {
			aliases["fresh_alias_"+strconv.Itoa(i)] = t
		}
	}
	return engine.Config{
		"max_depth": float64(1 + rng.IntN(3)),
		"groups":    groups,
		"exclusions": map[string]any{
			"subagent_hard_deny": hardDeny, "subagent_depth_cap": list(), "fork_no_spawn": list(), "teammate_no_spawn": list(),
		},
		"tools":         map[string]any{"deny": list()},
		"subagents":     map[string]any{"deny": list()},
		"agent_filters": map[string]any{"all_agents_disallowed": list(), "custom_agents_disallowed": list()},
		"agents":        map[string]any{"worker": map[string]any{"disallowed_tools": list()}},
		"presets":       map[string]any{preset: map[string]any{"aliases": aliases}},
	}
}

// excludedCalls decides one call of every declared tool for each role and
// depth, and returns which calls an exclusion or a deny list refuses (or
// which are refused before them), keyed by role/depth/tool.
func excludedCalls(t *testing.T, e *engine.Engine, declared []any, names []string, maxDepth int) map[string]string {
	t.Helper()
	out := map[string]string{}
	var calls []any
	for i, n := range names {
		calls = append(calls, map[string]any{"id": "c" + strconv.Itoa(i), "name": n})
	}
	type role struct {
		name  string
		agent func(depth int) map[string]any
		min   int
	}
	roles := []role{
		{"main", func(int) map[string]any { return map[string]any{"role": "main", "depth": 0, "name": "worker"} }, 0},
		{"subagent", func(d int) map[string]any { return map[string]any{"role": "subagent", "depth": d, "name": "worker"} }, 1},
		{"fork", func(d int) map[string]any { return map[string]any{"role": "fork", "depth": d, "name": "worker"} }, 1},
		{"teammate", func(d int) map[string]any {
			return map[string]any{"role": "subagent", "depth": d, "name": "worker", "teammate": true}
		}, 1},
	}
	for _, r := range roles {
		top := maxDepth + 1
		if r.name == "main" {
			top = 0
		}
		for depth := r.min; depth <= top; depth++ {
			doc := map[string]any{"agent": r.agent(depth), "declared": declared, "calls": calls}
			d := decideDoc(t, e, doc)
			require.Len(t, d.Decisions, len(names))
			for i, c := range d.Decisions {
				if !c.Allowed && c.Reason != "not_allowed" {
					out[fmt.Sprintf("%s/%d/%s", r.name, depth, names[i])] = c.Reason
				}
			}
		}
	}
	return out
}

// A preset never takes an entry out of what is in force: for every
// preset and generated overlay (groups, aliases, exclusions, deny
// lists), every tool an exclusion or a deny list refuses for a role and
// depth without the preset is refused with it, and not merely for lack
// of an allow.
func TestPropertyAPresetNeverTakesAnEntryOut(t *testing.T) {
	t.Parallel()
	n := presetOverlays
	if s := os.Getenv("TOOLEVAL_PRESET_OVERLAYS"); s != "" {
		v, err := strconv.Atoi(s)
		require.NoError(t, err)
		n = v
	}
	ctx := context.Background()
	presets := presetData(t)
	names := append(presetNames(presets), "send_email", "post_to_slack", "deploy")
	presetList := make([]string, 0, len(presets))
	for p := range presets {
		presetList = append(presetList, p)
	}
	sort.Strings(presetList)
	rng := rand.New(rand.NewPCG(21, 4))
	checked := 0
	for i := range n {
		preset := presetList[i%len(presetList)]
		taken := map[string]bool{}
		for k := range asMap(presets[preset]["aliases"]) {
			taken[strings.ToLower(k)] = true
		}
		var sharedGroups []string
		for g := range asMap(presets[preset]["groups"]) {
			sharedGroups = append(sharedGroups, g)
		}
		sort.Strings(sharedGroups)
		overlay := presetOverlay(rng, names, preset, taken, sharedGroups)
		// The declared tools: the members of the overlay's groups, a sample
		// of the rest of the pool, and an MCP tool.
		var declared []any
		var called []string
		inGroups := map[string]bool{}
		for _, members := range asMap(overlay["groups"]) {
			for _, m := range asSlice(members) {
				inGroups[m.(string)] = true
			}
		}
		for _, name := range names {
			if inGroups[name] || rng.IntN(4) == 0 {
				declared = append(declared, map[string]any{"name": name})
				called = append(called, name)
			}
		}
		declared = append(declared, map[string]any{"name": "mcp__github__create_issue", "mcp": map[string]any{"server": "github", "tool": "create_issue"}})
		called = append(called, "mcp__github__create_issue")
		maxDepth := int(overlay["max_depth"].(float64))

		without, err := engine.New(ctx, engine.WithConfig(overlay))
		require.NoError(t, err)
		withOverlay := engine.Config{}
		for k, v := range overlay {
			withOverlay[k] = v
		}
		withOverlay["preset"] = preset
		with, err := engine.New(ctx, engine.WithConfig(withOverlay))
		require.NoError(t, err)

		start := time.Now()
		before := excludedCalls(t, without, declared, called, maxDepth)
		after := excludedCalls(t, with, declared, called, maxDepth)
		t.Logf("overlay %d: %d calls, %v", i, len(called), time.Since(start))
		keys := make([]string, 0, len(before))
		for k := range before {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		overlayJSON, _ := json.Marshal(withOverlay)
		for _, k := range keys {
			_, ok := after[k]
			require.True(t, ok, "overlay %d (%s): %s is refused (%s) without the preset, not with it: %s", i, preset, k, before[k], overlayJSON)
			checked++
		}
	}
	require.Positive(t, checked)
	t.Logf("%d overlays, %d refused calls kept", n, checked)
}
