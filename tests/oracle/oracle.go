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
