// Package cedar is the comparison point for tooleval's benchmarks: the
// engine a user might pick instead, doing the same work. The name-level
// allowlist and denylist decisions of the benchmark workload are Cedar
// policies evaluated with cedar-go; canonical names, the declaration
// check, the path rule and the refusal reasons and messages are Go
// copies of the policy's (see paths.go), so that each call gets the
// decision record the engine writes. It is its own Go module so that
// the product's go.mod does not carry Cedar, and it is not the product:
// testdata/decisions.json, written from the engine and held to it by
// engine/benchparity_test.go, is what it must decide.
package cedar

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/cedar-policy/cedar-go"

	"github.com/tooleval/tooleval/engine/canonical"
)

// decision is one call's entry of the decision document's decisions, as
// the engine writes it (docs/contract.md, "Decision output").
type decision struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Allowed bool   `json:"allowed"`
	Outcome string `json:"outcome"` // allow or deny: the comparison has no ask rule
	Reason  string `json:"reason,omitempty"`
	Layer   string `json:"layer,omitempty"`
	Message string `json:"message,omitempty"`
	Rule    string `json:"rule,omitempty"`
}

// shipped is what the comparison reads from the bundle's shipped data:
// the path arguments of the configuration
// (policies/tooleval/config/data.json, path_arguments) and the sensitive
// paths in force (tooleval.configuration.sensitive_paths: the floor's,
// policies/tooleval/floor/data.json, less the configuration's
// floor_exceptions, then the configuration's own).
type shipped struct {
	pathArguments  map[string]map[string]access
	sensitivePaths []string
}

// loadShipped reads the shipped data under policiesDir (the repository's
// policies/tooleval). A configuration this copy does not model (a
// preset, glob or patch accesses) is an error.
func loadShipped(policiesDir string) (*shipped, error) {
	var floor struct {
		SensitivePaths []string `json:"sensitive_paths"`
	}
	if err := readJSON(filepath.Join(policiesDir, "floor", "data.json"), &floor); err != nil {
		return nil, err
	}
	var config struct {
		Preset          any                          `json:"preset"`
		SensitivePaths  []string                     `json:"sensitive_paths"`
		FloorExceptions map[string][]string          `json:"floor_exceptions"`
		PathArguments   map[string]map[string]string `json:"path_arguments"`
	}
	if err := readJSON(filepath.Join(policiesDir, "config", "data.json"), &config); err != nil {
		return nil, err
	}
	if config.Preset != nil {
		return nil, fmt.Errorf("shipped configuration: preset %v is not modelled", config.Preset)
	}
	s := &shipped{pathArguments: map[string]map[string]access{}}
	for _, p := range floor.SensitivePaths {
		if !excepted(config.FloorExceptions["sensitive_paths"], p) {
			s.sensitivePaths = append(s.sensitivePaths, p)
		}
	}
	s.sensitivePaths = append(s.sensitivePaths, config.SensitivePaths...)
	for tool, args := range config.PathArguments {
		s.pathArguments[tool] = map[string]access{}
		for arg, a := range args {
			switch a {
			case "read":
				s.pathArguments[tool][arg] = access{read: true}
			case "write":
				s.pathArguments[tool][arg] = access{write: true}
			default:
				return nil, fmt.Errorf("shipped configuration: path_arguments.%s.%s: access %q is not modelled", tool, arg, a)
			}
		}
	}
	return s, nil
}

// excepted is configuration.rego's _excepted: a floor entry named in
// floor_exceptions, compared canonically.
func excepted(exceptions []string, entry string) bool {
	for _, e := range exceptions {
		if canonical.Canonical(e) == canonical.Canonical(entry) {
			return true
		}
	}
	return false
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read shipped data: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode %s: %w", path, err)
	}
	return nil
}

// nameRefusal is what a Cedar forbid policy stands for: the name-level
// refusal of a layer (verdict.rego's tool_refusal), ranked in the order
// the policy asks the checks (verdict/order.rego: every layer's deny,
// then every layer's allow), and the layer's own message (checks.notes).
type nameRefusal struct {
	rank          int
	reason, layer string
	note          string
}

// toolArguments is the path arguments of one tool and the order they are
// checked in.
type toolArguments struct {
	accesses map[string]access
	names    []string
}

// encoded is the workload in Cedar: one Tool entity per declared tool
// (canonical name, MCP server and tool), a permit for everything, and per
// layer a forbid unless its allow list matches and a forbid when its deny
// list matches; with the Go side's workspace and path arguments.
type encoded struct {
	policies  *cedar.PolicySet
	forbids   map[cedar.PolicyID]nameRefusal
	entities  cedar.EntityMap
	workspace *workspace // nil when the input has none: no path rule
	arguments map[string]toolArguments
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// matchExpr is a Cedar condition that holds when resource matches an
// allow entry (docs/contract.md, "Pattern entries"): an exact name,
// mcp__* or mcp__S__P*, against the raw MCP identity. Other entries
// (groups, deny-only forms) are not modelled.
func matchExpr(entry string) (string, error) {
	c := canonical.Canonical(entry)
	if entry == "" || c != strings.TrimSpace(c) || strings.HasPrefix(c, "group:") {
		return "", fmt.Errorf("entry %q is not modelled", entry)
	}
	switch {
	case c == "mcp__*":
		return "resource.mcp", nil
	case strings.HasPrefix(c, "mcp__") && strings.HasSuffix(c, "*"):
		body := strings.TrimSuffix(c[5:], "*")
		i := strings.Index(body, "__")
		if i <= 0 || strings.Contains(body, "*") {
			return "", fmt.Errorf("entry %q is not modelled", entry)
		}
		return fmt.Sprintf("(resource.mcp && resource.server == %s && resource.tool like %s)", quote(body[:i]), quote(body[i+2:]+"*")), nil
	case strings.Contains(c, "*"):
		return "", fmt.Errorf("entry %q is not modelled", entry)
	default:
		return fmt.Sprintf("resource.name == %s", quote(c)), nil
	}
}

// encode builds the Cedar policies and entities of a static request and
// the Go side's workspace. A request with parts this copy does not model
// (an agent other than a main agent at depth 0, which runtime exclusions
// apply to; a run budget; peer agents) is an error rather than a
// different answer.
func encode(static map[string]any, s *shipped) (*encoded, error) {
	if err := modelled(static); err != nil {
		return nil, err
	}
	e := &encoded{forbids: map[cedar.PolicyID]nameRefusal{}, arguments: map[string]toolArguments{}}
	var err error
	if e.policies, err = e.layerPolicies(asList(static["layers"])); err != nil {
		return nil, err
	}
	if e.entities, err = toolEntities(asList(static["declared"])); err != nil {
		return nil, err
	}
	if w, ok := static["workspace"].(map[string]any); ok {
		if e.workspace, err = newWorkspace(w, s.sensitivePaths); err != nil {
			return nil, err
		}
	}
	for tool, args := range s.pathArguments {
		e.arguments[tool] = toolArguments{accesses: args, names: sortedNames(args)}
	}
	return e, nil
}

// modelled checks that a static request has only what this copy decides.
func modelled(static map[string]any) error {
	for k := range static {
		switch k {
		case "agent", "declared", "layers", "workspace":
		default:
			return fmt.Errorf("input member %q is not modelled", k)
		}
	}
	if a, ok := static["agent"].(map[string]any); ok {
		if a["role"] != "main" || a["depth"] != 0 && a["depth"] != float64(0) || a["leaf"] == true || a["teammate"] == true {
			return fmt.Errorf("agent %v is not modelled: only a main agent at depth 0", a)
		}
	}
	return nil
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

// layerPolicies writes a permit for every call and each layer's forbid
// policies, recording what each forbid stands for.
func (e *encoded) layerPolicies(layers []any) (*cedar.PolicySet, error) {
	ps := cedar.NewPolicySet()
	if err := addPolicy(ps, "permit", "permit (principal, action, resource);"); err != nil {
		return nil, err
	}
	names := map[string]int{}
	for _, l := range layers {
		names[asString(l.(map[string]any)["name"])]++
	}
	for k, l := range layers {
		layer := l.(map[string]any)
		name := asString(layer["name"])
		note := ""
		if m, ok := layer["message"].(string); ok && names[name] == 1 {
			note = ": " + m
		}
		if allow, ok := layer["allow"].([]any); ok {
			cond, err := allowCondition(allow)
			if err != nil {
				return nil, fmt.Errorf("layer %q: %w", name, err)
			}
			id := cedar.PolicyID(fmt.Sprintf("allow%d", k))
			if err := addPolicy(ps, id, fmt.Sprintf("forbid (principal, action, resource) unless { %s };", cond)); err != nil {
				return nil, err
			}
			e.forbids[id] = nameRefusal{rank: len(layers) + k, reason: "not_allowed", layer: name, note: note}
		}
		if deny := asList(layer["deny"]); len(deny) > 0 {
			cond, err := denyCondition(deny)
			if err != nil {
				return nil, fmt.Errorf("layer %q: %w", name, err)
			}
			id := cedar.PolicyID(fmt.Sprintf("deny%d", k))
			if err := addPolicy(ps, id, fmt.Sprintf("forbid (principal, action, resource) when { %s };", cond)); err != nil {
				return nil, err
			}
			e.forbids[id] = nameRefusal{rank: k, reason: "denied", layer: name, note: note}
		}
	}
	return ps, nil
}

func asString(x any) string {
	s, _ := x.(string)
	return s
}

func addPolicy(ps *cedar.PolicySet, id cedar.PolicyID, src string) error {
	var p cedar.Policy
	if err := p.UnmarshalCedar([]byte(src)); err != nil {
		return fmt.Errorf("cedar policy %s: %w\n%s", id, err, src)
	}
	ps.Add(id, &p)
	return nil
}

// allowCondition holds when an allow list matches: exact names as one
// set look-up, MCP wildcards each a condition.
func allowCondition(allow []any) (string, error) {
	var exact, other []string
	for _, entry := range allow {
		m, err := matchExpr(asString(entry))
		if err != nil {
			return "", err
		}
		if name, ok := strings.CutPrefix(m, "resource.name == "); ok {
			exact = append(exact, name)
		} else {
			other = append(other, m)
		}
	}
	cond := append([]string{fmt.Sprintf("[%s].contains(resource.name)", strings.Join(exact, ", "))}, other...)
	return strings.Join(cond, " || "), nil
}

// denyCondition holds when a deny list matches. Only exact entries are
// modelled: a deny pattern bites on the model-visible name too.
func denyCondition(deny []any) (string, error) {
	var cond []string
	for _, entry := range deny {
		m, err := matchExpr(asString(entry))
		if err != nil {
			return "", err
		}
		if !strings.HasPrefix(m, "resource.name == ") {
			return "", fmt.Errorf("deny entry %v is not modelled", entry)
		}
		cond = append(cond, m)
	}
	return strings.Join(cond, " || "), nil
}

// toolEntities is one Tool entity per declared tool, keyed by its
// canonical name (tooleval.declared's index).
func toolEntities(declared []any) (cedar.EntityMap, error) {
	entities := cedar.EntityMap{}
	for _, d := range declared {
		decl := d.(map[string]any)
		if decl["agent"] != nil {
			return nil, fmt.Errorf("declared peer agent %v is not modelled", decl["name"])
		}
		name := canonical.Canonical(asString(decl["name"]))
		attrs := cedar.RecordMap{"name": cedar.String(name), "mcp": cedar.False, "server": cedar.String(""), "tool": cedar.String("")}
		if m, ok := decl["mcp"].(map[string]any); ok {
			attrs["mcp"] = cedar.True
			attrs["server"] = cedar.String(canonical.Canonical(asString(m["server"])))
			attrs["tool"] = cedar.String(canonical.Canonical(asString(m["tool"])))
		}
		uid := cedar.NewEntityUID("Tool", cedar.String(name))
		if _, dup := entities[uid]; dup {
			return nil, fmt.Errorf("declared %q twice: a declaration error is not modelled", name)
		}
		entities[uid] = cedar.Entity{UID: uid, Attributes: cedar.NewRecord(attrs)}
	}
	return entities, nil
}

var (
	principal = cedar.NewEntityUID("Agent", "bench")
	action    = cedar.NewEntityUID("Action", "call")
)

// decide decides a batch of well-formed calls (string id and name), each
// as the engine's decision document would.
func (e *encoded) decide(calls []any) []decision {
	out := make([]decision, len(calls))
	for i, c := range calls {
		out[i] = e.decideCall(c.(map[string]any))
	}
	return out
}

// decideCall runs the checks in the policy's order (verdict.rego,
// call_verdict): declaration, the layers' deny and allow lists (Cedar),
// then the path rule. Undeclared calls are refused before Cedar is asked
// (Cedar would skip a policy whose attribute look-up errors).
func (e *encoded) decideCall(call map[string]any) decision {
	name := call["name"].(string)
	d := decision{ID: call["id"].(string), Name: name}
	if utf8.RuneCountInString(name) > maxNameLength {
		return refuse(d, "not_declared", "declaration", fmt.Sprintf("tool %q is refused: its name has no exact canonical form, so it matches no declared tool", name))
	}
	c := canonical.Canonical(name)
	uid := cedar.NewEntityUID("Tool", cedar.String(c))
	if _, ok := e.entities[uid]; !ok {
		return refuse(d, "not_declared", "declaration", fmt.Sprintf("tool %q is not declared for this request", name))
	}
	verdict, diag := e.policies.IsAuthorized(e.entities, cedar.Request{Principal: principal, Action: action, Resource: uid, Context: cedar.NewRecord(nil)})
	if verdict != cedar.Allow {
		return e.nameRefused(d, diag)
	}
	if e.workspace != nil {
		if a, ok := e.arguments[c]; ok {
			if r := e.workspace.refusal(a.accesses, a.names, call["args"]); r != nil {
				d = refuse(d, "path", "workspace", pathMessage(name, r))
				d.Rule = r.rule
				return d
			}
		}
	}
	d.Allowed, d.Outcome = true, "allow"
	return d
}

// nameRefused is the first refusal among the forbid policies that
// matched, with verdict/messages.rego's _name_refusal_message. A denial
// with no forbid behind it (an evaluation error) is undecided, as the
// policy's fail-closed net would have it.
func (e *encoded) nameRefused(d decision, diag cedar.Diagnostic) decision {
	first, found := nameRefusal{}, false
	for _, r := range diag.Reasons {
		if f, ok := e.forbids[r.PolicyID]; ok && (!found || f.rank < first.rank) {
			first, found = f, true
		}
	}
	if !found {
		return refuse(d, "invalid_config", "config", fmt.Sprintf("tool %q is refused: the Cedar evaluation failed: %v", d.Name, diag.Errors))
	}
	verb := "refused"
	if first.reason == "denied" {
		verb = "denied"
	}
	return refuse(d, first.reason, first.layer, fmt.Sprintf("tool %q is not permitted: %s by layer %q%s", d.Name, verb, first.layer, first.note))
}

func refuse(d decision, reason, layer, message string) decision {
	d.Outcome, d.Reason, d.Layer, d.Message = "deny", reason, layer, message
	return d
}
