package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/tooleval/tooleval/engine"
)

// Strictness orders outcomes: tooleval may be stricter than a runtime,
// never looser.
var Strictness = map[string]int{"allow": 0, "ask": 1, "deny": 2}

// RuntimeOutcome maps a runtime's verdict to the outcome it stands for
// ("" when the verdict says nothing about permission: an error or a
// missing result).
func RuntimeOutcome(v Verdict) string {
	switch v {
	case Ran:
		return "allow"
	case Asked:
		return "ask"
	case Denied:
		return "deny"
	}
	return ""
}

// Decide decides calls under an imported overlay with the embedded
// bundle, in one request with the given declared tools and workspace root,
// and returns each call's outcome.
func Decide(ctx context.Context, overlay map[string]any, tools []string, root string, calls []Call) ([]string, error) {
	e, err := engine.New(ctx, engine.WithConfig(engine.Config(overlay)))
	if err != nil {
		return nil, fmt.Errorf("tooleval: engine with the imported overlay: %w", err)
	}
	declared := []any{}
	for _, name := range tools {
		if server, tool, ok := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__"); ok && strings.HasPrefix(name, "mcp__") {
			declared = append(declared, map[string]any{"name": name, "mcp": map[string]any{"server": server, "tool": tool}})
			continue
		}
		declared = append(declared, map[string]any{"name": name})
	}
	in := []any{}
	for _, c := range calls {
		in = append(in, map[string]any{"id": c.ID, "name": c.Tool, "args": c.Args})
	}
	d, err := e.Decide(ctx, map[string]any{"declared": declared, "workspace": map[string]any{"root": root}, "calls": in})
	if err != nil {
		return nil, fmt.Errorf("tooleval: decide: %w", err)
	}
	if len(d.Errors) > 0 {
		return nil, fmt.Errorf("tooleval: the imported overlay is not valid: %v", d.Errors)
	}
	out := make([]string, len(calls))
	for i := range calls {
		out[i] = string(d.Decisions[i].Outcome)
	}
	return out, nil
}

// Looser is one call tooleval decides more loosely than the runtime.
type Looser struct {
	Settings string // the runtime's settings or rules
	Call     Call
	Runtime  string // the runtime's outcome
	Tooleval string // tooleval's
	root     string // the session's workspace, written WS in its class
}

func (l Looser) String() string {
	return fmt.Sprintf("%s: runtime %s, tooleval %s (settings %q)", l.Class(""), l.Runtime, l.Tooleval, l.Settings)
}

// Class is the call with the workspace root written as WS: the same call
// in every session.
func (l Looser) Class(root string) string {
	args, _ := json.Marshal(l.Call.Args)
	s := string(args)
	if root != "" {
		s = strings.ReplaceAll(s, root, "WS")
	}
	return l.Call.Tool + " " + s
}

// ReportLooser fails t with each looser call, and first logs them by
// class (the call, the runtime's and tooleval's outcome) with a count.
func ReportLooser(t testing.TB, runtime string, looser []Looser, root func(Looser) string) {
	t.Helper()
	classes := map[string]int{}
	for _, l := range looser {
		classes[fmt.Sprintf("%s: %s %s, tooleval %s", runtime, l.Class(root(l)), l.Runtime, l.Tooleval)]++
	}
	keys := make([]string, 0, len(classes))
	for k := range classes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("looser class (%d calls): %s", classes[k], k)
	}
	for _, l := range looser {
		t.Errorf("looser than %s: %s", runtime, l)
	}
}
