package verify

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Agent is the agent member of an enumerated request.
type Agent struct {
	Name        string `json:"name"`
	Role        string `json:"role"`
	Depth       int    `json:"depth"`
	Leaf        bool   `json:"leaf,omitempty"`
	Async       bool   `json:"async,omitempty"`
	Teammate    bool   `json:"teammate,omitempty"`
	Coordinator bool   `json:"coordinator,omitempty"`
	ReadOnly    bool   `json:"read_only,omitempty"`
}

// Caller is the caller member of an enumerated request: Scopes nil
// states nothing (null), an empty list refuses everything.
type Caller struct {
	Scopes []string `json:"scopes"`
	User   *string  `json:"user,omitempty"`
}

// Subject is one request the configuration can produce, without its
// tools: who is asking.
type Subject struct {
	Agent  Agent   `json:"agent"`
	Tenant *string `json:"tenant,omitempty"`
	Caller *Caller `json:"caller,omitempty"`
}

// String is the subject as compact JSON, for tables and messages.
func (s Subject) String() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// context is what a delegation keeps: the tenant, the caller and
// read-only mode (a child of a read-only run is read-only too).
func (s Subject) context() string {
	b, _ := json.Marshal(struct {
		Tenant   *string `json:"tenant"`
		Caller   *Caller `json:"caller"`
		ReadOnly bool    `json:"read_only"`
	}{s.Tenant, s.Caller, s.Agent.ReadOnly})
	return string(b)
}

// modes counts the subject's agent modes, for "smallest".
func (s Subject) modes() int {
	n := 0
	for _, on := range []bool{s.Agent.Leaf, s.Agent.Async, s.Agent.Teammate, s.Agent.Coordinator, s.Agent.ReadOnly} {
		if on {
			n++
		}
	}
	return n
}

// subagent reports whether the subject is a sub-agent (a fork is one).
func (s Subject) subagent() bool { return s.Agent.Role != "main" }

// compareSubjects orders subjects from the smallest counterexample up:
// shallower, main before sub-agent before fork, with fewer modes,
// without tenant and caller, then by their JSON.
func compareSubjects(a, b Subject) int {
	if c := a.Agent.Depth - b.Agent.Depth; c != 0 {
		return c
	}
	if c := roleOrder[a.Agent.Role] - roleOrder[b.Agent.Role]; c != 0 {
		return c
	}
	if c := a.modes() - b.modes(); c != 0 {
		return c
	}
	if c := boolInt(a.Tenant != nil || a.Caller != nil) - boolInt(b.Tenant != nil || b.Caller != nil); c != 0 {
		return c
	}
	return strings.Compare(a.String(), b.String())
}

var roleOrder = map[string]int{"main": 0, "subagent": 1, "fork": 2}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// roleAt is one place in a delegation tree: the main agent at depth 0,
// a sub-agent or a fork below it.
type roleAt struct {
	role  string
	depth int
}

// Enumerate lists every subject of space: the product of
//
//   - the agent names: "" (no definition) and each definition's key;
//   - the role and depth: main at 0, sub-agent and fork at 1 to
//     max_depth + 1;
//   - the agent modes the policy reads (space.Modes), each on and off;
//     leaf only for a sub-agent below the cap;
//   - the tenant: absent and each configured tenant;
//   - the caller's scopes: absent, and when config.scopes maps any, []
//     and each mapped scope alone (every subset of them with
//     exhaustive); a scope config.scopes does not map covers the tool of
//     its own name, which a caller can name freely: those are left out;
//   - the caller's user: absent and each key of mcp_user_services.
//
// Exhaustive enumeration of more than maxExhaustiveScopes scopes is an
// error (2^n subsets).
func Enumerate(space *Space, exhaustive bool) ([]Subject, error) {
	if exhaustive && len(space.Scopes) > maxExhaustiveScopes {
		return nil, fmt.Errorf("--exhaustive enumerates every subset of config.scopes, and it has %d scopes (at most %d): verify without --exhaustive, which takes each scope alone", len(space.Scopes), maxExhaustiveScopes)
	}
	names := append([]string{""}, space.Agents...)
	places := []roleAt{{"main", 0}}
	for d := 1; d <= space.MaxDepth+1; d++ {
		places = append(places, roleAt{"subagent", d}, roleAt{"fork", d})
	}
	var out []Subject
	for _, name := range names {
		for _, p := range places {
			for _, a := range agentModes(space, Agent{Name: name, Role: p.role, Depth: p.depth}) {
				for _, tenant := range tenants(space) {
					for _, caller := range callers(space, exhaustive) {
						out = append(out, Subject{Agent: a, Tenant: tenant, Caller: caller})
					}
				}
			}
		}
	}
	return out, nil
}

// maxExhaustiveScopes bounds --exhaustive: 2^12 scope sets.
const maxExhaustiveScopes = 12

// agentModes expands base with every combination of the modes the
// policy reads.
func agentModes(space *Space, base Agent) []Agent {
	out := []Agent{base}
	expand := func(on bool, set func(*Agent)) {
		if !on {
			return
		}
		for _, a := range slices.Clone(out) {
			set(&a)
			out = append(out, a)
		}
	}
	sub := base.Role != "main"
	expand(space.Modes["leaf"] && sub && base.Depth < space.MaxDepth, func(a *Agent) { a.Leaf = true })
	expand(space.Modes["async"], func(a *Agent) { a.Async = true })
	expand(space.Modes["teammate"], func(a *Agent) { a.Teammate = true })
	expand(space.Modes["coordinator"], func(a *Agent) { a.Coordinator = true })
	expand(space.Modes["read_only"], func(a *Agent) { a.ReadOnly = true })
	return out
}

func tenants(space *Space) []*string {
	out := []*string{nil}
	for _, t := range space.Tenants {
		out = append(out, &t)
	}
	return out
}

// callers are the callers to enumerate: nil (no caller) first.
func callers(space *Space, exhaustive bool) []*Caller {
	var scopeSets [][]string
	if exhaustive {
		n := len(space.Scopes)
		for mask := 0; mask < 1<<n; mask++ {
			set := []string{}
			for i, s := range space.Scopes {
				if mask&(1<<i) != 0 {
					set = append(set, s)
				}
			}
			scopeSets = append(scopeSets, set)
		}
	} else if len(space.Scopes) > 0 {
		scopeSets = append(scopeSets, []string{})
		for _, s := range space.Scopes {
			scopeSets = append(scopeSets, []string{s})
		}
	}
	users := []*string{nil}
	for _, u := range space.Users {
		users = append(users, &u)
	}
	out := []*Caller{nil}
	for _, u := range users {
		if u != nil {
			out = append(out, &Caller{User: u})
		}
		for _, set := range scopeSets {
			out = append(out, &Caller{Scopes: set, User: u})
		}
	}
	return out
}
