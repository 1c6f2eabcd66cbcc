package verify

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Tools is what --tools adds to an enumeration: declarations (a
// catalog the runtime offers), calls with their arguments, decided for
// every subject and handed to the invariants of one's own, and what
// the runtime sends with every request (Request: inline layers,
// mcp_services, a handoff, a workspace).
type Tools struct {
	Declared []any
	Calls    []any
	// Request holds the other members of the --tools decision input,
	// put in every enumerated request; who is asking (agent, tenant,
	// caller) is enumerated, and run is left out.
	Request map[string]any
}

// enumerated are the members of a --tools decision input that verify
// sets itself (or leaves out: run).
var enumerated = map[string]bool{"declared": true, "calls": true, "agent": true, "tenant": true, "caller": true, "run": true}

// ReadTools reads a --tools file: a decision input or a JSON array of
// declarations.
func ReadTools(path string) (Tools, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Tools{}, fmt.Errorf("read --tools: %w", err)
	}
	var list []any
	if json.Unmarshal(data, &list) == nil {
		return Tools{Declared: list}, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return Tools{}, fmt.Errorf("read --tools %s: not a JSON array of declarations or a decision input: %w", path, err)
	}
	t := Tools{Request: map[string]any{}}
	for k, v := range doc {
		switch {
		case k == "declared":
			if t.Declared, _ = v.([]any); t.Declared == nil && v != nil {
				return Tools{}, fmt.Errorf("read --tools %s: declared must be an array", path)
			}
		case k == "calls":
			if t.Calls, _ = v.([]any); t.Calls == nil && v != nil {
				return Tools{}, fmt.Errorf("read --tools %s: calls must be an array", path)
			}
		case !enumerated[k]:
			t.Request[k] = v
		}
	}
	return t, nil
}

// universe is every tool an enumeration declares, in one order: the
// --tools declarations as given, then each name of the space that none
// of them already declares.
type universe struct {
	declared []any
	names    []string // each declaration's name ("" when not a string)
	index    map[string]int
	// spawn marks the declarations that launch a sub-agent: a peer agent
	// of --tools ("agent": true). The space's spawn tools are matched by
	// the policy (see references).
	spawn map[int]bool
	// request is what --tools puts in every request (Tools.Request).
	request map[string]any
}

// withoutTools is the universe with no declarations: what a stack or a
// batch of catalogs is asked with (the declared tools are sent once).
func (u *universe) withoutTools() *universe {
	return &universe{request: u.request}
}

func newUniverse(space *Space, extra Tools) *universe {
	u := &universe{index: map[string]int{}, spawn: map[int]bool{}, request: extra.Request}
	add := func(d any) {
		name := ""
		if m, ok := d.(map[string]any); ok {
			name, _ = m["name"].(string)
			if m["agent"] == true {
				u.spawn[len(u.declared)] = true
			}
		}
		u.index[strings.ToLower(name)] = len(u.declared)
		u.declared = append(u.declared, d)
		u.names = append(u.names, name)
	}
	for _, d := range extra.Declared {
		add(d)
	}
	for _, d := range space.Tools {
		// The space's names are canonical; a --tools declaration of the
		// same name in another (ASCII) case takes its place. Other
		// spellings that collide are reported by the policy
		// (duplicate_declaration) as a configuration error.
		if _, taken := u.index[strings.ToLower(fmt.Sprint(d["name"]))]; taken {
			continue
		}
		add(d)
	}
	return u
}
