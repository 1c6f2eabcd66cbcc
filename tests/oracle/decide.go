package oracle

import (
	"slices"
	"sort"
	"strings"
)

// Decide models data.tooleval.decision for a JSON document (decoded with
// encoding/json: numbers are float64).
func Decide(cfg Config, doc any) Result {
	obj, isObject := doc.(map[string]any)
	errs := !isObject
	if !isObject {
		obj = map[string]any{}
	}

	role, depth, leaf, agentOK := agent(get(obj, "agent"))
	errs = errs || !agentOK

	tools, declaredOK := declarations(get(obj, "declared"))
	errs = errs || !declaredOK

	layers, layersOK := parseLayers(get(obj, "layers"), cfg.Groups)
	errs = errs || !layersOK

	ws, wsOK := workspace(cfg, get(obj, "workspace"))
	errs = errs || !wsOK
	catalogErrs := errs // the catalog ignores calls and run

	calls, callsOK := get(obj, "calls").([]any)
	if get(obj, "calls") == nil {
		calls, callsOK = nil, true
	}
	errs = errs || !callsOK || len(calls) > maxCalls

	run, runOK := runOf(get(obj, "run"))
	errs = errs || !runOK

	exclusions := activeExclusions(cfg, role, depth, leaf)
	refusals := map[string][2]string{}
	asks := map[string]string{} // the first layer that asks, by canonical name
	for c, t := range tools {
		if r, refused := nameRefusal(t, exclusions, layers); refused {
			refusals[c] = r
		}
		for _, l := range layers {
			if anyMatch(l.ask, t) || (l.asksOtherwise() && !anyMatch(l.allow, t)) {
				asks[c] = l.name
				break
			}
		}
	}

	res := Result{HasErrors: errs, Effective: []string{}}
	if !catalogErrs {
		for c, t := range tools {
			_, refused := refusals[c]
			if _, asked := asks[c]; !refused && !asked {
				res.Effective = append(res.Effective, t.name)
			}
		}
		sort.Strings(res.Effective)
	}

	ids := map[string]int{}
	for _, c := range calls {
		if m, ok := c.(map[string]any); ok {
			if id, ok := m["id"].(string); ok {
				ids[id]++
			}
		}
	}
	refused := 0
	for i, c := range calls {
		v := decideCall(cfg, i, c, ids, errs, tools, refusals, ws, run, layers)
		if layer, asked := asks[canonicalOf(c)]; asked && v.Allowed {
			// nothing refused the call: the first layer that asks by name
			v.Allowed, v.Outcome, v.Reason, v.Layer = false, "ask", "ask", layer
		} else if v.Allowed && v.askedBy != "" {
			// else the first whose argument ask rule bites
			v.Allowed, v.Outcome, v.Reason, v.Layer = false, "ask", "ask", v.askedBy
		}
		v.askedBy = ""
		if !v.Allowed {
			refused++
		}
		res.Verdicts = append(res.Verdicts, v)
	}
	if run != nil {
		attempts := run.attempts + float64(len(calls))
		refusalsTotal := run.refusals + float64(refused)
		res.Run = &Run{
			Attempts: attempts, Refusals: refusalsTotal,
			Exhausted: !runOK || (run.maxAttempts >= 0 && attempts >= run.maxAttempts) || (run.maxRefusals >= 0 && refusalsTotal >= run.maxRefusals),
		}
	}
	return res
}

func agent(x any) (role string, depth float64, leaf, ok bool) {
	if x == nil {
		return "main", 0, false, true
	}
	a, isObject := x.(map[string]any)
	if !isObject {
		return "main", 0, false, false
	}
	if name := a["name"]; name != nil {
		s, isString := name.(string)
		if !isString {
			return "main", 0, false, false
		}
		// a name with no exact canonical form selects no agent
		// definition, and refuses every call (uncanonicalizable_name)
		if _, ok := Canonical(s); !ok {
			return "main", 0, false, false
		}
	}
	role = "main"
	if r := a["role"]; r != nil {
		role, _ = r.(string)
	}
	if role != "main" && role != "subagent" && role != "fork" {
		return "main", 0, false, false
	}
	if l := a["leaf"]; l != nil {
		b, isBool := l.(bool)
		if !isBool {
			return role, 0, false, false
		}
		leaf = b
	}
	d := a["depth"]
	if d == nil {
		return role, 0, leaf, role == "main"
	}
	if !isCount(d) {
		return role, 0, leaf, false
	}
	depth = d.(float64)
	if role == "main" {
		return role, depth, leaf, depth == 0
	}
	return role, depth, leaf, depth >= 1
}

func declarations(x any) (map[string]tool, bool) {
	if x == nil {
		return map[string]tool{}, true
	}
	list, isList := x.([]any)
	if !isList {
		return map[string]tool{}, false
	}
	ok := len(list) <= maxDeclared
	count := map[string]int{}
	var valid []tool
	for _, item := range list {
		t, good := declaration(item)
		if !good {
			ok = false
			if t.canonical != "" {
				count[t.canonical]++ // still collides with its twins
			}
			continue
		}
		count[t.canonical]++
		valid = append(valid, t)
	}
	tools := map[string]tool{}
	for _, t := range valid {
		if count[t.canonical] > 1 {
			ok = false
			continue
		}
		tools[t.canonical] = t
	}
	return tools, ok
}

// declaration parses one declaration. A declaration whose name has a
// canonical form but that is otherwise invalid still returns it, since it
// collides with its twins all the same.
func declaration(x any) (tool, bool) {
	d, isObject := x.(map[string]any)
	if !isObject {
		return tool{}, false
	}
	name, isString := d["name"].(string)
	if !isString {
		return tool{}, false
	}
	c, canon := Canonical(name)
	if !canon {
		return tool{}, false
	}
	t := tool{name: name, canonical: c}
	if c == "" {
		return t, false
	}
	isAgent := false
	if a := d["agent"]; a != nil {
		b, isBool := a.(bool)
		if !isBool {
			return t, false
		}
		isAgent = b
	}
	if m := d["mcp"]; m != nil {
		if isAgent {
			return t, false
		}
		mo, isObj := m.(map[string]any)
		server, okS := get(mo, "server").(string)
		toolName, okT := get(mo, "tool").(string)
		if !isObj || !okS || !okT {
			return t, false
		}
		cs, okCS := Canonical(server)
		ct, okCT := Canonical(toolName)
		if !okCS || !okCT || cs == "" {
			return t, false
		}
		t.mcp, t.server, t.tool = true, cs, ct
		return t, true
	}
	return t, !strings.HasPrefix(c, "mcp__")
}

func parseLayers(x any, groups map[string][]string) ([]layer, bool) {
	if x == nil {
		return nil, true
	}
	list, isList := x.([]any)
	if !isList {
		return nil, false
	}
	ok := len(list) <= maxLayers
	var out []layer
	for _, item := range list {
		l, isObject := item.(map[string]any)
		if !isObject {
			ok = false
			out = append(out, layer{})
			continue
		}
		name, _ := l["name"].(string)
		if name == "" {
			ok = false
		}
		allowNames, argAllow, present, okA := parseRuleList(l["allow"], true, true, groups)
		deny, argDeny, _, okD := parseRuleList(l["deny"], false, true, groups)
		ask, argAsk, _, okK := parseRuleList(l["ask"], false, true, groups) // an ask list reads as a deny list
		otherwise, okO := l["otherwise"].(string)
		okO = l["otherwise"] == nil || (okO && (otherwise == "deny" || otherwise == "ask"))
		ok = ok && okA && okD && okK && okO
		allow := slices.Clone(allowNames)
		for _, r := range argAllow {
			allow = append(allow, r.tool...) // the tool passes by name; its calls are judged on arguments
		}
		out = append(out, layer{
			name: name, allow: allow, deny: deny, ask: ask, allowNames: allowNames,
			argAllow: argAllow, argDeny: argDeny, argAsk: argAsk, allowAll: !present,
			otherwiseAsk: otherwise == "ask",
		})
	}
	return out, ok
}

type namedList struct {
	name    string
	entries []entry
}

func activeExclusions(cfg Config, role string, depth float64, leaf bool) []namedList {
	sub := role == "subagent" || role == "fork"
	var out []namedList
	add := func(name string) {
		var entries []entry
		for _, e := range append(slices.Clone(cfg.Floor.Exclusions[name]), cfg.Exclusions[name]...) {
			parsed, _ := parseEntry(e, false, cfg.Groups, false)
			entries = append(entries, parsed...)
		}
		out = append(out, namedList{name, entries})
	}
	if sub {
		add("subagent_hard_deny")
	}
	if sub && (depth >= cfg.MaxDepth || leaf) {
		add("subagent_depth_cap")
	}
	if role == "fork" {
		add("fork_no_spawn")
	}
	return out
}

func nameRefusal(t tool, exclusions []namedList, layers []layer) ([2]string, bool) {
	for _, e := range exclusions {
		if anyMatch(e.entries, t) {
			return [2]string{"excluded", e.name}, true
		}
	}
	for _, l := range layers {
		if anyMatch(l.deny, t) {
			return [2]string{"denied", l.name}, true
		}
	}
	for _, l := range layers {
		if !l.allowAll && !l.otherwiseAsk && !anyMatch(l.allow, t) {
			return [2]string{"not_allowed", l.name}, true
		}
	}
	return [2]string{}, false
}

type runState struct {
	attempts, refusals, maxAttempts, maxRefusals float64 // a cap < 0 is no cap
}

func runOf(x any) (*runState, bool) {
	if x == nil {
		return nil, true
	}
	r, isObject := x.(map[string]any)
	if !isObject {
		return &runState{maxAttempts: -1, maxRefusals: -1}, false
	}
	ok := true
	count := func(key string) float64 {
		v := r[key]
		if v == nil {
			return 0
		}
		if !isCount(v) {
			ok = false
			return 0
		}
		return v.(float64)
	}
	limit := func(key string) float64 {
		v := r[key]
		if v == nil {
			return -1
		}
		if !isCount(v) {
			ok = false
			return 0
		}
		return v.(float64)
	}
	return &runState{attempts: count("attempts"), refusals: count("refusals"), maxAttempts: limit("max_attempts"), maxRefusals: limit("max_refusals")}, ok
}

func decideCall(cfg Config, i int, c any, ids map[string]int, errs bool, tools map[string]tool, refusals map[string][2]string, w *ws, run *runState, layers []layer) Verdict {
	m, isObject := c.(map[string]any)
	v := Verdict{ID: get(m, "id"), Name: get(m, "name")}
	id, idOK := v.ID.(string)
	name, nameOK := v.Name.(string)
	refuse := func(reason, layer, rule string) Verdict {
		v.Outcome, v.Reason, v.Layer, v.Rule = "deny", reason, layer, rule
		return v
	}
	switch {
	case !isObject || !idOK || !nameOK || ids[id] > 1:
		return refuse("invalid_input", "input", "")
	case errs:
		return refuse("invalid_config", "config", "")
	}
	canonical, canon := Canonical(name)
	t, declared := tools[canonical]
	if !canon || !declared {
		return refuse("not_declared", "declaration", "")
	}
	if r, refused := refusals[canonical]; refused {
		return refuse(r[0], r[1], "")
	}
	if w != nil {
		spec := cfg.PathArguments[canonical]
		args := m["args"]
		argNames := make([]string, 0, len(spec))
		for a := range spec {
			argNames = append(argNames, a)
		}
		sort.Strings(argNames)
		for _, a := range argNames {
			am, argsIsObject := args.(map[string]any)
			if args != nil && !argsIsObject {
				return refuse("path", "workspace", "unresolved")
			}
			value, present := am[a]
			if !present {
				continue
			}
			if rule := valueRule(w, spec[a], value); rule != "" {
				return refuse("path", "workspace", rule)
			}
		}
	}
	if run != nil && run.maxAttempts >= 0 && run.attempts+float64(i)+1 > run.maxAttempts {
		return refuse("run_exhausted", "run", "")
	}
	if run != nil && run.maxRefusals >= 0 && run.refusals >= run.maxRefusals {
		return refuse("run_exhausted", "run", "")
	}
	// argument rules: a deny rule of any layer, then an allow list met
	// only through rules the call does not meet; an ask rule asks only
	// when nothing refuses (Decide asks a layer's ask list first)
	reading := readCall(cfg.RuleArguments[canonical], w, cfg.PathArguments[canonical], m["args"])
	for _, l := range layers {
		if slices.ContainsFunc(l.argDeny, func(r argRule) bool {
			return anyMatch(r.tool, t) && r.bitesCall(t, reading, cfg.RuleArguments[canonical].required())
		}) {
			return refuse("denied", l.name, "")
		}
	}
	unmet := func(l layer) bool { // the layer's allow rules for the tool, which the call does not meet
		var rules []argRule
		for _, r := range l.argAllow {
			if anyMatch(r.tool, t) {
				rules = append(rules, r)
			}
		}
		return len(rules) > 0 && !anyMatch(l.allowNames, t) && !permits(rules, reading, cfg.RuleArguments[canonical].required())
	}
	for _, l := range layers {
		if !l.asksOtherwise() && unmet(l) {
			return refuse("not_allowed", l.name, "")
		}
	}
	v.Allowed, v.Outcome = true, "allow"
	for _, l := range layers {
		if slices.ContainsFunc(l.argAsk, func(r argRule) bool {
			return anyMatch(r.tool, t) && r.bitesCall(t, reading, cfg.RuleArguments[canonical].required())
		}) ||
			(l.asksOtherwise() && unmet(l)) {
			v.askedBy = l.name
			break
		}
	}
	return v
}
