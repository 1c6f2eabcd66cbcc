// Package oracle is an independent model of the decision contract
// (docs/contract.md and the decisions recorded in the README), written
// from the contract in plain Go, not from the Rego. Tests compare the
// engine with it: any difference is a bug in one of them.
//
// It models the verdict of every call (allowed, outcome, reason, layer,
// rule), argument rules included (arguments.go, with its own shell and URL
// readers), effective, run and whether errors is empty; it does not model
// message texts or the exact error list. Its URL reader models the
// authorities the corpus generates, not every spelling a browser accepts
// (the fuzz target FuzzURLReading holds the policy's reader to Go's).
package oracle

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/tooleval/tooleval/engine/canonical"
)

// maxNameLength is the longest name (in characters) with a canonical form.
const maxNameLength = 256

// Config is the part of data.tooleval.config the oracle needs, with the
// shipped floor (data.tooleval.floor) in Floor.
type Config struct {
	MaxDepth       float64                      `json:"max_depth"`
	Exclusions     map[string][]string          `json:"exclusions"`
	SensitivePaths []string                     `json:"sensitive_paths"`
	Groups         map[string][]string          `json:"groups"`
	PathArguments  map[string]map[string]string `json:"path_arguments"`
	RuleArguments  map[string]RuleArguments     `json:"rule_arguments"`
	Floor          Floor                        `json:"-"`
}

// LoadConfig reads the shipped configuration and floor from a policy
// bundle directory.
func LoadConfig(policiesDir string) (Config, error) {
	var cfg Config
	for path, into := range map[string]any{
		filepath.Join(policiesDir, "tooleval", "config", "data.json"): &cfg,
		filepath.Join(policiesDir, "tooleval", "floor", "data.json"):  &cfg.Floor,
	} {
		data, err := os.ReadFile(path)
		if err != nil {
			return Config{}, fmt.Errorf("oracle config: %w", err)
		}
		if err := json.Unmarshal(data, into); err != nil {
			return Config{}, fmt.Errorf("oracle config %s: %w", path, err)
		}
	}
	return cfg, nil
}

// Floor is data.tooleval.floor: the exclusions and sensitive paths that a
// configuration can only add to.
type Floor struct {
	Exclusions     map[string][]string `json:"exclusions"`
	SensitivePaths []string            `json:"sensitive_paths"`
}

// The caps on list lengths.
const (
	maxEntries  = 4096
	maxLayers   = 256
	maxDeclared = 100000
	maxCalls    = 100000
)

// Verdict is the oracle's decision for one call.
type Verdict struct {
	ID, Name            any
	Allowed             bool
	Outcome             string // allow, ask or deny
	Reason, Layer, Rule string
	askedBy             string // the layer whose argument ask rule bit (Decide's to use)
}

// Result is the oracle's decision for one input document, with the
// effective list of its catalog (data.tooleval.tools).
type Result struct {
	Verdicts  []Verdict
	Effective []string
	HasErrors bool
	Run       *Run
}

// Run is the run member of a decision.
type Run struct {
	Attempts, Refusals float64
	Exhausted          bool
}

// Canonical returns canonical(s) and whether s has an exact canonical
// form: at most 256 characters, its canonical decomposition needing no
// reordering (so that mapping its characters as they come is mapping its
// NFD, as the standard definition does), and the concatenated
// per-character NFKC_Casefold mappings already in NFC (so no composition
// or reordering is left to guess).
func Canonical(s string) (string, bool) {
	if utf8.RuneCountInString(s) > maxNameLength || !decomposesInOrder(s) {
		return "", false
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteString(canonical.Mapping(r))
	}
	if !norm.NFC.IsNormalString(b.String()) {
		return "", false
	}
	return strings.TrimSpace(b.String()), true
}

// decomposesInOrder reports whether the NFD of s is the concatenation of
// the NFD of its characters: no mark has to move past another.
func decomposesInOrder(s string) bool {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(norm.NFD.String(string(r)))
	}
	return b.String() == norm.NFD.String(s)
}

type tool struct {
	name         string // as declared
	canonical    string
	mcp          bool
	server, tool string
}

type layer struct {
	name             string
	allow, deny, ask []entry // name entries, and the tool of each allow rule
	allowNames       []entry // the allow list's name entries alone
	argAllow         []argRule
	argDeny, argAsk  []argRule
	allowAll         bool
	otherwiseAsk     bool // a call its allow list does not let through is asked about, not refused
}

// asksOtherwise: the layer asks about what its allow list does not let
// through (it has one, and otherwise "ask").
func (l layer) asksOtherwise() bool { return l.otherwiseAsk && !l.allowAll }

// entry is a parsed pattern entry of an allow or a deny list.
type entry struct {
	kind   string // exact, all_mcp, mcp_prefix, mcp_exact, mcp_server, prefix
	deny   bool
	name   string // exact, mcp_exact, mcp_server: the canonical entry
	server string
	prefix string // mcp_prefix: the tool prefix; prefix: the name prefix
	tool   string // mcp_exact
}

// matches: in an allow list MCP patterns match the raw identity only and
// a bare mcp__S matches nothing; in a deny list they also match the
// model-visible name, and a bare mcp__S denies the whole server.
func (e entry) matches(t tool) bool {
	switch e.kind {
	case "exact":
		return e.name == t.canonical
	case "all_mcp":
		return t.mcp
	case "mcp_prefix":
		raw := t.mcp && t.server == e.server && strings.HasPrefix(t.tool, e.prefix)
		return raw || e.deny && t.mcp && strings.HasPrefix(t.canonical, "mcp__"+e.server+"__"+e.prefix)
	case "mcp_exact":
		return e.name == t.canonical || e.deny && t.mcp && t.server == e.server && t.tool == e.tool
	case "mcp_server":
		if !e.deny {
			return false
		}
		return e.name == t.canonical || t.mcp && (t.server == e.server || strings.HasPrefix(t.canonical, e.name+"__"))
	case "prefix":
		return !t.mcp && strings.HasPrefix(t.canonical, e.prefix)
	}
	return false
}

func anyMatch(entries []entry, t tool) bool {
	return slices.ContainsFunc(entries, func(e entry) bool { return e.matches(t) })
}

// parseEntry parses one list entry; ok is false for an invalid one.
func parseEntry(x any, allowList bool, groups map[string][]string, inGroup bool) ([]entry, bool) {
	s, isString := x.(string)
	if !isString || s == "" || s != strings.TrimSpace(s) {
		return nil, false
	}
	c, ok := Canonical(s)
	if !ok || c == "" || c == "*" {
		return nil, false
	}
	if name, isGroup := strings.CutPrefix(c, "group:"); isGroup {
		members, known := groups[name]
		if inGroup || !known {
			return nil, false
		}
		var out []entry
		for _, m := range members {
			parsed, ok := parseEntry(m, allowList, groups, true)
			if !ok {
				return nil, false
			}
			out = append(out, parsed...)
		}
		return out, true
	}
	star := strings.Index(c, "*")
	deny := !allowList
	if star >= 0 && star != len(c)-1 {
		return nil, false
	}
	if c == "mcp__*" {
		return []entry{{kind: "all_mcp", deny: deny}}, true
	}
	if body, isMCP := strings.CutPrefix(c, "mcp__"); isMCP {
		wildcard := strings.HasSuffix(body, "*")
		body = strings.TrimSuffix(body, "*")
		server, rest, hasSep := strings.Cut(body, "__")
		if server != strings.TrimSpace(server) || rest != strings.TrimSpace(rest) || server == "" {
			return nil, false // white space around S or P, or no server
		}
		switch {
		case wildcard && !hasSep:
			return nil, false
		case wildcard:
			return []entry{{kind: "mcp_prefix", deny: deny, server: server, prefix: rest}}, true
		case hasSep:
			return []entry{{kind: "mcp_exact", deny: deny, name: c, server: server, tool: rest}}, true
		default:
			return []entry{{kind: "mcp_server", deny: deny, name: c, server: server}}, true
		}
	}
	switch {
	case star < 0:
		return []entry{{kind: "exact", deny: deny, name: c}}, true
	case allowList:
		return nil, false
	default:
		return []entry{{kind: "prefix", deny: deny, prefix: strings.TrimSuffix(c, "*")}}, true
	}
}

// parseList parses a list member: present reports a non-null member.
func parseList(x any, allowList bool, groups map[string][]string) (entries []entry, present, ok bool) {
	entries, _, present, ok = parseRuleList(x, allowList, false, groups)
	return entries, present, ok
}

// parseRuleList parses a list member whose entries may be argument rules
// (withRules: a layer's list): its name entries and its rules.
func parseRuleList(x any, allowList, withRules bool, groups map[string][]string) (entries []entry, rules []argRule, present, ok bool) {
	if x == nil {
		return nil, nil, false, true
	}
	list, isList := x.([]any)
	if !isList {
		return nil, nil, true, false
	}
	ok = len(list) <= maxEntries
	for _, item := range list {
		if m, isObject := item.(map[string]any); isObject && withRules {
			r, valid := parseArgRule(m, allowList, groups)
			ok = ok && valid
			rules = append(rules, r)
			continue
		}
		parsed, valid := parseEntry(item, allowList, groups, false)
		ok = ok && valid
		entries = append(entries, parsed...)
	}
	return entries, rules, true, ok
}

func isCount(x any) bool {
	f, ok := x.(float64)
	return ok && f >= 0 && f == math.Floor(f) && !math.IsInf(f, 0)
}

func get(obj map[string]any, key string) any {
	if obj == nil {
		return nil
	}
	return obj[key]
}

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

type ws struct {
	root         string
	readRoots    []string
	excluded     [][]string // segment keys of each root-relative entry joined to root
	sensitive    [][]string // segment keys of each sensitive path
	allowOutside bool
}

// segmentKey is what the sensitive and excluded checks compare a segment
// as: its canonical form after upper-casing, without trailing dots and
// spaces; ok is false when it has no canonical form.
func segmentKey(seg string) (string, bool) {
	c, ok := Canonical(strings.ToUpper(seg))
	return strings.TrimRight(c, ". "), ok
}

// keysOf returns the keys of the non-empty segments of p.
func keysOf(p string) ([]string, bool) {
	var keys []string
	for _, seg := range strings.Split(p, "/") {
		if seg == "" {
			continue
		}
		k, ok := segmentKey(seg)
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

func containsRun(keys, run []string) bool {
	for i := 0; i+len(run) <= len(keys); i++ {
		if slices.Equal(keys[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func absoluteClean(p string) bool {
	if p == "/" {
		return true
	}
	if !strings.HasPrefix(p, "/") {
		return false
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsRune(seg, 0) {
			return false
		}
	}
	return true
}

func relativeClean(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.ContainsRune(seg, 0) {
			return false
		}
	}
	return true
}

func workspace(cfg Config, x any) (*ws, bool) {
	if x == nil {
		return nil, true
	}
	var sensitive [][]string
	for _, p := range append(slices.Clone(cfg.Floor.SensitivePaths), cfg.SensitivePaths...) {
		keys, _ := keysOf(p)
		sensitive = append(sensitive, keys)
	}
	w, isObject := x.(map[string]any)
	if !isObject {
		return &ws{root: "/nonexistent", sensitive: sensitive}, false
	}
	out := &ws{root: "/nonexistent", sensitive: sensitive}
	ok := true
	if root, isString := w["root"].(string); isString && absoluteClean(root) {
		out.root = root
		_, keyed := keysOf(root)
		ok = ok && keyed
	} else {
		ok = false
	}
	strs := func(key string, valid func(string) bool) []string {
		v := w[key]
		if v == nil {
			return nil
		}
		list, isList := v.([]any)
		if !isList {
			ok = false
			return nil
		}
		var s []string
		for _, item := range list {
			str, isString := item.(string)
			if !isString || !valid(str) {
				ok = false
			}
			if isString {
				s = append(s, str)
			}
		}
		return s
	}
	out.readRoots = strs("read_roots", absoluteClean)
	for _, e := range strs("excluded", func(p string) bool {
		_, keyed := keysOf(p)
		return relativeClean(p) && keyed
	}) {
		if keys, keyed := keysOf(join(out.root, e)); keyed {
			out.excluded = append(out.excluded, keys)
		}
	}
	if a := w["allow_outside"]; a != nil {
		b, isBool := a.(bool)
		ok = ok && isBool
		out.allowOutside = b
	}
	return out, ok
}

func inside(path, root string) bool {
	return path == root || root == "/" && strings.HasPrefix(path, "/") || strings.HasPrefix(path, root+"/")
}

func join(root, rel string) string {
	if root == "/" {
		return "/" + rel
	}
	return root + "/" + rel
}

func pathRule(w *ws, access string, p string) string {
	// A path not in Unicode NFC is unresolved: a server that matches names
	// under NFC would open another file.
	if !absoluteClean(p) || !norm.NFC.IsNormalString(p) {
		return "unresolved"
	}
	if access == "write" {
		if !w.allowOutside && !inside(p, w.root) {
			return "outside_workspace"
		}
		keys, keyed := keysOf(p)
		if !keyed {
			return "unresolved"
		}
		for _, run := range w.sensitive {
			if containsRun(keys, run) {
				return "sensitive"
			}
		}
		for _, run := range w.excluded {
			if len(keys) >= len(run) && slices.Equal(keys[:len(run)], run) {
				return "excluded"
			}
		}
		return ""
	}
	if inside(p, w.root) {
		return ""
	}
	for _, r := range w.readRoots {
		if inside(p, r) {
			return ""
		}
	}
	return "not_readable"
}

// valueRule is the rule a path argument's value breaks: a string is one
// path, a list is checked element by element, anything else is
// unresolved.
func valueRule(w *ws, access string, value any) string {
	switch v := value.(type) {
	case string:
		return pathRule(w, access, v)
	case []any:
		for _, element := range v {
			s, isString := element.(string)
			if !isString {
				return "unresolved"
			}
			if rule := pathRule(w, access, s); rule != "" {
				return rule
			}
		}
		return ""
	}
	return "unresolved"
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

// canonicalOf is the canonical name of a call's name, or "" when the call
// has none (no layer asks for "": no declared tool has that name).
func canonicalOf(call any) string {
	m, _ := call.(map[string]any)
	name, _ := m["name"].(string)
	c, ok := Canonical(name)
	if !ok {
		return ""
	}
	return c
}
