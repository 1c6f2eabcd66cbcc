package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/tooleval/tooleval/engine"
)

// The built-in invariants, in the order they are reported.
const (
	FloorHolds        = "floor.holds"
	SpawnBounded      = "spawn.bounded"
	DenyWins          = "deny.wins"
	TenantWithinPlan  = "tenant.within_plan"
	DelegationNarrows = "delegation.narrows"
	DelegationAskKept = "delegation.ask_kept"
	ConfigNoLatentErr = "config.no_latent_error"
)

var descriptions = map[string]string{
	FloorHolds:        "every tool a runtime exclusion promises to take from a sub-agent, fork or teammate (the shipped floor, before floor exceptions, and the configuration's and preset's additions) is refused to each of them",
	SpawnBounded:      "every tool that launches a sub-agent (the runtime's spawn tool, agent_filters.agent_tool; without a preset, every preset runtime's; the peer agents of --tools) is refused to every fork, to every sub-agent at the depth cap and to every leaf: no sub-agent is launched past max_depth, none by a fork",
	DenyWins:          "every tool a configured deny list names is refused to every agent the list applies to",
	TenantWithinPlan:  "a request of a tenant is never allowed or asked a tool its plan does not let through",
	DelegationNarrows: "a sub-agent or fork is never allowed or asked a tool its parent is refused (for every parent that can spawn, in the same tenant, caller and read-only mode)",
	DelegationAskKept: "a tool a parent must ask about is asked about or refused in each of its children, never allowed outright",
	ConfigNoLatentErr: "no request the configuration can produce has errors (an error refuses every call)",
}

// references are the lists the invariants hold the verdicts to, each as
// the tools of the universe it matches.
type references struct {
	space      *Space
	exclusions map[string][]bool
	denies     []denyRef
	plans      map[string][]bool
	// spawn marks the tools that launch a sub-agent: those the space's
	// spawn tools name (the runtime's, and without a preset every
	// preset runtime's) and the peer agents of --tools.
	spawn   []bool
	builtin map[string]bool
}

type denyRef struct {
	field   string
	applies any
	matches []bool
}

// newReferences asks the policy which tools each list of the space
// matches (see matchLists).
func newReferences(ctx context.Context, e *engine.Engine, space *Space, u *universe) (*references, error) {
	var lists []refList
	for _, name := range sortedKeys(space.Exclusions) {
		lists = append(lists, refList{"deny", space.Exclusions[name]})
	}
	for _, d := range space.DenyLists {
		lists = append(lists, refList{"deny", d.List})
	}
	plans := sortedKeys(space.Plans)
	var planned []string
	for _, id := range plans {
		if plan, ok := space.Plans[id].([]any); ok {
			lists = append(lists, refList{"allow", plan})
			planned = append(planned, id)
		}
	}
	lists = append(lists, refList{"deny", space.SpawnTools})
	matches, err := matchLists(ctx, e, u, lists)
	if err != nil {
		return nil, err
	}
	r := &references{space: space, exclusions: map[string][]bool{}, plans: map[string][]bool{}, builtin: map[string]bool{}}
	i := 0
	for _, name := range sortedKeys(space.Exclusions) {
		r.exclusions[name] = matches[i]
		i++
	}
	for _, d := range space.DenyLists {
		r.denies = append(r.denies, denyRef{d.Field, d.Applies, matches[i]})
		i++
	}
	for _, id := range planned {
		r.plans[id] = matches[i]
		i++
	}
	r.spawn = slices.Clone(matches[i])
	for t := range u.spawn {
		r.spawn[t] = true
	}
	for _, name := range space.BuiltinAgents {
		r.builtin[name] = true
	}
	return r, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// invariant collects one invariant's violations: how many, and the
// smallest.
type invariant struct {
	id, description string
	count           int
	smallest        *Violation
}

func (inv *invariant) add(v Violation) {
	inv.count++
	if inv.smallest == nil || compareViolations(v, *inv.smallest) < 0 {
		inv.smallest = &v
	}
}

// rank orders outcomes by how much they let through without a person:
// every call (allow), the calls argument rules let through
// (conditional), none without a person (ask), none (deny).
func rank(o engine.Outcome) int {
	switch o {
	case engine.OutcomeAllow:
		return 3
	case engine.OutcomeConditional:
		return 2
	case engine.OutcomeAsk:
		return 1
	}
	return 0
}

func (r *references) excludedFor(s Subject) []string {
	var names []string
	if s.subagent() {
		names = append(names, "subagent_hard_deny")
		if s.Agent.Depth >= r.space.MaxDepth || s.Agent.Leaf {
			names = append(names, "subagent_depth_cap")
		}
	}
	if s.Agent.Role == "fork" {
		names = append(names, "fork_no_spawn")
	}
	if s.Agent.Teammate {
		names = append(names, "teammate_no_spawn")
	}
	return names
}

// applies reports whether a deny list applies to s (space.deny_lists).
func (r *references) applies(d denyRef, s Subject) bool {
	switch a := d.applies.(type) {
	case string:
		switch a {
		case "all":
			return true
		case "subagent":
			return s.subagent()
		case "custom":
			return s.subagent() && !r.builtin[s.Agent.Name]
		}
	case map[string]any:
		return a["agent"] == s.Agent.Name
	}
	return false
}

func (r *references) canSpawn(d decided) bool {
	for t, on := range r.spawn {
		if on && rank(d.verdicts[t].outcome) > 0 {
			return true
		}
	}
	return false
}

func violation(d decided, u *universe, t int, message string) Violation {
	v := d.verdicts[t]
	return Violation{
		Subject: d.subject, Tool: u.names[t],
		Outcome: string(v.outcome), Reason: v.reason, Layer: v.layer,
		Message: message,
	}
}

// builtinInvariants checks the built-in invariants on every subject's
// verdicts; pairs counts the delegations compared.
func builtinInvariants(r *references, u *universe, results []decided, pairs *int) []*invariant {
	invs := map[string]*invariant{}
	order := []string{FloorHolds, SpawnBounded, DenyWins, TenantWithinPlan, DelegationNarrows, DelegationAskKept, ConfigNoLatentErr}
	for _, id := range order {
		invs[id] = &invariant{id: id, description: descriptions[id]}
	}
	for _, d := range results {
		s := d.subject
		if len(d.errors) > 0 {
			invs[ConfigNoLatentErr].add(Violation{Subject: s, Message: fmt.Sprintf("this request has errors (%d), so every call is refused: %v", len(d.errors), d.errors[0]["message"])})
		}
		for _, name := range r.excludedFor(s) {
			for t, on := range r.exclusions[name] {
				if on && rank(d.verdicts[t].outcome) > 0 {
					invs[FloorHolds].add(violation(d, u, t, fmt.Sprintf("%s promises to refuse %s, but this %s gets %s", name, u.names[t], s.Agent.Role, d.verdicts[t].outcome)))
				}
			}
		}
		if s.Agent.Role == "fork" || (s.subagent() && (s.Agent.Depth >= r.space.MaxDepth || s.Agent.Leaf)) {
			for t, on := range r.spawn {
				if on && rank(d.verdicts[t].outcome) > 0 {
					invs[SpawnBounded].add(violation(d, u, t, fmt.Sprintf("%s launches sub-agents, but this %s at depth %d (cap %d) gets %s", u.names[t], s.Agent.Role, s.Agent.Depth, r.space.MaxDepth, d.verdicts[t].outcome)))
				}
			}
		}
		for _, dl := range r.denies {
			if !r.applies(dl, s) {
				continue
			}
			for t, on := range dl.matches {
				if on && rank(d.verdicts[t].outcome) > 0 {
					invs[DenyWins].add(violation(d, u, t, fmt.Sprintf("%s names %s, but this request gets %s", dl.field, u.names[t], d.verdicts[t].outcome)))
				}
			}
		}
		if s.Tenant != nil {
			if plan, ok := r.plans[*s.Tenant]; ok {
				for t, in := range plan {
					if !in && rank(d.verdicts[t].outcome) > 0 {
						invs[TenantWithinPlan].add(violation(d, u, t, fmt.Sprintf("the plan of tenant %q does not let %s through, but this request gets %s", *s.Tenant, u.names[t], d.verdicts[t].outcome)))
					}
				}
			}
		}
	}
	*pairs = delegations(r, u, results, invs[DelegationNarrows], invs[DelegationAskKept])
	out := make([]*invariant, 0, len(order))
	for _, id := range order {
		out = append(out, invs[id])
	}
	return out
}

// delegations compares every child with its parent: a parent is a main
// agent or sub-agent below the cap that some spawn tool is allowed or
// asked for; its children are every sub-agent one level deeper (any
// definition) and its fork, in the same tenant, caller and read-only
// mode. The child is compared with the parent in no run mode (async,
// teammate, coordinator): a mode limits the calls a run makes itself,
// and a coordinator exists to delegate what it does not do.
func delegations(r *references, u *universe, results []decided, narrows, askKept *invariant) int {
	bySubject := make(map[string]int, len(results))
	byLevel := map[string][]int{} // depth/context → children candidates
	for i, d := range results {
		bySubject[d.subject.String()] = i
		if d.subject.subagent() {
			key := fmt.Sprint(d.subject.Agent.Depth, d.subject.context())
			byLevel[key] = append(byLevel[key], i)
		}
	}
	pairs := 0
	for _, p := range results {
		s := p.subject
		if s.Agent.Role == "fork" || s.Agent.Depth >= r.space.MaxDepth || !r.canSpawn(p) {
			continue
		}
		base := s
		base.Agent.Async, base.Agent.Teammate, base.Agent.Coordinator = false, false, false
		bi, ok := bySubject[base.String()]
		if !ok {
			continue
		}
		parent := results[bi]
		for _, ci := range byLevel[fmt.Sprint(s.Agent.Depth+1, s.context())] {
			c := results[ci]
			if c.subject.Agent.Role == "fork" && c.subject.Agent.Name != s.Agent.Name {
				continue
			}
			pairs++
			for t := range c.verdicts {
				broken, message := widens(parent.verdicts[t].outcome, c.verdicts[t].outcome, u.names[t])
				if broken == "" {
					continue
				}
				v := violation(c, u, t, "")
				v.Parent = &parent.subject
				v.ParentOutcome = string(parent.verdicts[t].outcome)
				v.Message = message
				if broken == DelegationAskKept {
					askKept.add(v)
				} else {
					narrows.add(v)
				}
			}
		}
	}
	return pairs
}

// widens says which delegation invariant a child breaks when it gets
// outcome child of a tool its parent gets outcome parent of, with the
// violation's message; "" when the child is let through no more than
// its parent (rank). A child let through more than a parent that must
// ask breaks delegation.ask_kept; more than a parent that is refused the
// tool, or allowed it only conditionally, delegation.narrows.
func widens(parent, child engine.Outcome, tool string) (id, message string) {
	if rank(child) <= rank(parent) {
		return "", ""
	}
	switch parent {
	case engine.OutcomeAsk:
		how := "outright"
		if child == engine.OutcomeConditional {
			how = "on the arguments its rules name, without a person"
		}
		return DelegationAskKept, fmt.Sprintf("the parent must ask about %s, but this child is allowed it %s", tool, how)
	case engine.OutcomeConditional:
		return DelegationNarrows, fmt.Sprintf("the parent is allowed %s only on the arguments its rules name, but this child is allowed it outright", tool)
	}
	return DelegationNarrows, fmt.Sprintf("the parent is refused %s, but this child gets %s", tool, child)
}
