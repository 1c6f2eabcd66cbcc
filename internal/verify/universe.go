package verify

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/tooleval/tooleval/engine"
)

// Tools is what --tools adds to an enumeration: declarations (a
// catalog the runtime offers) and calls with their arguments, decided
// for every subject and handed to the invariants of one's own.
type Tools struct {
	Declared []any `json:"declared"`
	Calls    []any `json:"calls"`
}

// ReadTools reads a --tools file: a decision input (its declared tools
// and calls; the rest is ignored) or a JSON array of declarations.
func ReadTools(path string) (Tools, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Tools{}, fmt.Errorf("read --tools: %w", err)
	}
	var list []any
	if json.Unmarshal(data, &list) == nil {
		return Tools{Declared: list}, nil
	}
	var t Tools
	if err := json.Unmarshal(data, &t); err != nil {
		return Tools{}, fmt.Errorf("read --tools %s: not a JSON array of declarations or an object with declared and calls: %w", path, err)
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
}

func newUniverse(space *engine.Space, extra Tools) *universe {
	u := &universe{index: map[string]int{}, spawn: map[int]bool{}}
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
