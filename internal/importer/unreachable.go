package importer

import (
	"encoding/json"
	"fmt"
	"strings"
)

// unreachableAllows notes the allow entries an import made unreachable:
// in each section of the overlay (tools, subagents) whose deny list has
// a rule of a whole tool without exceptions ({"tool": T, "args_pattern":
// ""}, how an importer carries a rule it cannot read exactly), every
// allow entry of T in that section's allow list (T itself, or an
// argument rule of T) can never let a call through. tooleval check
// reports the same entries as unreachable_entry; the note says so at
// the import, where the widening happened.
func unreachableAllows(overlay map[string]any) []Note {
	var notes []Note
	for _, section := range []string{"tools", "subagents"} {
		lists, ok := overlay[section].(map[string]any)
		if !ok {
			continue
		}
		deny, allow := entries(lists["deny"]), entries(lists["allow"])
		for j, d := range deny {
			rule, ok := d.(map[string]any)
			if !ok || rule["args_pattern"] != "" || rule["unless"] != nil {
				continue
			}
			tool, _ := rule["tool"].(string)
			var dead []string
			for i, a := range allow {
				if allowedTool(a) == tool {
					text, _ := json.Marshal(a) // a string or a map of JSON values: never fails
					dead = append(dead, fmt.Sprintf("config.%s.allow[%d] %s", section, i, text))
				}
			}
			if len(dead) == 0 {
				continue
			}
			notes = append(notes, Note{
				Location: fmt.Sprintf("overlay: config.%s.deny[%d]", section, j),
				Text: fmt.Sprintf("this deny of every call of %s (a rule carried wider than it is written) makes %s unreachable, since no call of %s can be allowed: %s (tooleval check warns: unreachable_entry)",
					tool, plural(len(dead), "an allow entry", fmt.Sprintf("%d allow entries", len(dead))), tool, strings.Join(dead, "; ")),
			})
		}
	}
	return notes
}

// entries is an overlay list as a list of entries (nil when it is not
// one).
func entries(list any) []any {
	switch l := list.(type) {
	case []any:
		return l
	case []string:
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out
	}
	return nil
}

// allowedTool is the tool an allow entry names: the name itself, or an
// argument rule's tool.
func allowedTool(entry any) string {
	switch e := entry.(type) {
	case string:
		return e
	case map[string]any:
		tool, _ := e["tool"].(string)
		return tool
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
