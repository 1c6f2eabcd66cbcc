package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
)

// hostLoad is the one rule of the policy the engine knows by name
// (policies/tooleval/host): a function of the deployment's overlay that
// gives the configuration in force, the configuration prepared from it
// and the host interface, which declares everything else the engine
// reads from the policy. It is evaluated once per load, here.
const hostLoad = "data.tooleval.host.load"

// hostInterfaceName is where the policy declares its host interface: the
// name problems with the interface are reported under.
const hostInterfaceName = "data.tooleval.host.interface"

// loaded is what one evaluation of hostLoad gives the engine.
type loaded struct {
	// config is the configuration in force: the overlay merged over the
	// bundle's data.tooleval.config.
	config ast.Value
	// prepared is config prepared (data.tooleval.prepared).
	prepared ast.Value
	// host is the interface, read under config.
	host hostInterface
}

// hostInterface is data.tooleval.host.interface as the engine uses it.
type hostInterface struct {
	entryPoints entryPoints
	// maxCalls is the policy's largest batch; a session answers from its
	// context's entries only up to it.
	maxCalls int
	// paths says which arguments the host resolves, and how.
	paths pathResolver
	// messages are the messages of the fail-closed documents.
	messages failClosedMessages
	// floor is the layout of data.tooleval.floor a bundle must hold.
	floor []dataRequirement
}

// entryPoints are the rules the engine evaluates, as the host interface
// names them (data.tooleval.decision, ...).
type entryPoints struct {
	decision, explain, tools, launch, check, mask string
	// session is a function of the static document; decide and catalog
	// are functions of a compiled context and a request.
	session, decide, catalog string
	// verifySpace is what tooleval verify enumerates (no input);
	// verifyStacks is a function of an array of decision inputs;
	// verifyCatalogs a document of the input.
	verifySpace, verifyStacks, verifyCatalogs string
	// hookRequest and hookAnswer map a runtime's hook payload to a
	// decision input and a decision to the runtime's hook output
	// (functions; optional: a bundle without them answers no hook).
	hookRequest, hookAnswer string
	// overCap and decideOverCap decide a batch over maxCalls from its
	// request without the calls and their count, for a one-shot
	// decision and a session's context (functions; optional: a bundle
	// without them decides such a batch with decision and decide).
	overCap, decideOverCap string
}

// rules lists the entry points that must be rules of the policy: all
// but explain and mask, which a bundle may leave undefined (an
// explanation then fails closed; an audit record is erased whole), and
// verify_space, verify_stacks and verify_catalogs, which only
// `tooleval verify` reads
// (it then stops with an error).
func (e entryPoints) rules() []string {
	return []string{e.decision, e.tools, e.launch, e.check, e.session, e.decide, e.catalog}
}

// queries are the queries the engine prepares for each entry point, by
// where the prepared query goes: the documents of the input as they are,
// session applied to the input, decide and catalog applied to the
// input's context and request.
func (e entryPoints) queries(p *policy) map[string]*rego.PreparedEvalQuery {
	return map[string]*rego.PreparedEvalQuery{
		e.decision:            &p.decision,
		e.explain:             &p.explain,
		e.tools:               &p.tools,
		e.launch:              &p.launch,
		e.check:               &p.check,
		e.mask:                &p.mask,
		e.session + "(input)": &p.session,
		e.decide + "(input.context, input.request)":  &p.decide,
		e.catalog + "(input.context, input.request)": &p.catalog,
	}
}

// loadQuery applies hostLoad to a deployment's overlay, given as the
// query's input and passed on as the call's argument, with the input
// empty under the call: no rule that reads a request reads the
// deployment's configuration as one. (The overlay as a term of the query
// itself is compiled with the query: preparing it took 185-322 ms for
// 20,000 top-level keys.)
const loadQuery = "overlay := input; loaded := " + hostLoad + "(overlay) with input as {}"

// loadHost evaluates hostLoad of a compiled bundle (compiler, with its
// data in store) for a deployment's overlay (an object; see loadQuery).
// A load that is undefined, or whose interface lacks a member or holds
// one of another kind, is an error: the engine never falls back on a
// default of its own.
func loadHost(ctx context.Context, compiler *ast.Compiler, store storage.Store, overlay ast.Value) (loaded, error) {
	q, err := rego.New(rego.Query(loadQuery), rego.Compiler(compiler), rego.Store(store)).PrepareForEval(ctx)
	if err != nil {
		return loaded{}, fmt.Errorf("load the policy: %w", err)
	}
	rs, err := q.Eval(ctx, rego.EvalParsedInput(overlay), rego.EvalGenerateJSON(keepAST))
	if err != nil {
		return loaded{}, fmt.Errorf("load the policy: %w", err)
	}
	if len(rs) != 1 {
		return loaded{}, undefinedLoad(ctx, compiler, store)
	}
	value, ok := rs[0].Bindings["loaded"].(ast.Value)
	if !ok {
		return loaded{}, fmt.Errorf("%w: %s is not a value", ErrIncompleteBundle, hostLoad)
	}
	obj, ok := value.(ast.Object)
	if !ok {
		return loaded{}, fmt.Errorf("%w: %s is not an object", ErrIncompleteBundle, hostLoad)
	}
	l := loaded{}
	for name, target := range map[string]*ast.Value{"config": &l.config, "prepared": &l.prepared} {
		t := obj.Get(ast.StringTerm(name))
		if t == nil {
			return loaded{}, fmt.Errorf("%w: %s has no member %s", ErrIncompleteBundle, hostLoad, name)
		}
		*target = t.Value
	}
	t := obj.Get(ast.StringTerm("interface"))
	if t == nil {
		return loaded{}, fmt.Errorf("%w: %s has no member interface", ErrIncompleteBundle, hostLoad)
	}
	document, err := ast.JSON(t.Value)
	if err != nil {
		return loaded{}, fmt.Errorf("read the host interface: %w", err)
	}
	l.host, err = readHost(document)
	return l, err
}

// undefinedLoad says why hostLoad is undefined: the bundle's interface
// is (an incomplete bundle), or the policy could not merge the
// configuration, prepare it or read its interface under it.
func undefinedLoad(ctx context.Context, compiler *ast.Compiler, store storage.Store) error {
	rs, err := rego.New(rego.Query(hostInterfaceName), rego.Compiler(compiler), rego.Store(store)).Eval(ctx)
	if err != nil {
		return fmt.Errorf("load the policy: %s is undefined, and reading %s alone failed: %w", hostLoad, hostInterfaceName, err)
	}
	if len(rs) == 0 {
		return fmt.Errorf("%w: %s is undefined", ErrIncompleteBundle, hostInterfaceName)
	}
	return fmt.Errorf("load the policy: %s is undefined for this configuration (the policy could not merge it, prepare it or read its interface under it): %w", hostLoad, ErrUndefined)
}

// readHost reads the host interface document.
func readHost(document any) (hostInterface, error) {
	members, ok := document.(map[string]any)
	if !ok {
		return hostInterface{}, fmt.Errorf("%w: %s is not an object", ErrIncompleteBundle, hostInterfaceName)
	}
	r := hostReader{members: members}
	h := hostInterface{
		entryPoints: r.entryPoints(),
		maxCalls:    r.maxCalls(),
		paths:       pathResolver{arguments: r.pathArguments(), patchHeaders: r.patchHeaders()},
		messages:    r.messages(),
		floor:       r.floor(),
	}
	if len(r.problems) > 0 {
		sort.Strings(r.problems)
		return hostInterface{}, fmt.Errorf("%w: %s", ErrIncompleteBundle, strings.Join(r.problems, "; "))
	}
	return h, nil
}

// hostReader reads the members of the host interface, noting every
// problem instead of stopping at the first.
type hostReader struct {
	members  map[string]any
	problems []string
}

func (r *hostReader) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(hostInterfaceName+"."+format, args...))
}

// member returns the member name of obj (at path) when it has the kind.
func (r *hostReader) member(obj map[string]any, path, name, want string) (any, bool) {
	v, ok := obj[name]
	switch {
	case !ok:
		r.problem("%s is missing", path+name)
	case kind(v) != want:
		r.problem("%s is %s, not %s", path+name, kind(v), want)
	default:
		return v, true
	}
	return nil, false
}

func (r *hostReader) object(obj map[string]any, path, name string) map[string]any {
	v, _ := r.member(obj, path, name, "object")
	m, _ := v.(map[string]any)
	return m
}

func (r *hostReader) string(obj map[string]any, path, name string) string {
	v, _ := r.member(obj, path, name, "string")
	s, _ := v.(string)
	return s
}

func (r *hostReader) entryPoints() entryPoints {
	obj := r.object(r.members, "", "entry_points")
	if obj == nil {
		return entryPoints{}
	}
	get := func(name string) string { return r.string(obj, "entry_points.", name) }
	optional := func(name string) string {
		if _, ok := obj[name]; !ok {
			return ""
		}
		return get(name)
	}
	return entryPoints{
		decision: get("decision"), explain: get("explain"), tools: get("tools"), launch: get("launch"),
		check: get("check"), mask: get("mask"), session: get("session"), decide: get("decide"),
		catalog: get("catalog"), verifySpace: get("verify_space"), verifyStacks: get("verify_stacks"),
		verifyCatalogs: get("verify_catalogs"),
		hookRequest:    optional("hook_request"), hookAnswer: optional("hook_answer"),
		overCap: optional("over_cap"), decideOverCap: optional("decide_over_cap"),
	}
}

func (r *hostReader) maxCalls() int {
	v, ok := r.member(r.members, "", "max_calls", "number")
	if !ok {
		return 0
	}
	n, err := v.(json.Number).Int64()
	if err != nil || n < 0 {
		r.problem("max_calls is %s, not a count", v)
		return 0
	}
	return int(n)
}

// pathArguments reads the path arguments in force: for each canonical
// tool name, an object of its path arguments.
func (r *hostReader) pathArguments() pathArguments {
	out := pathArguments{}
	for tool, spec := range r.object(r.members, "", "path_arguments") {
		args, ok := spec.(map[string]any)
		if !ok {
			r.problem("path_arguments[%q] is %s, not object", tool, kind(spec))
			continue
		}
		out[tool] = args
	}
	return out
}

// patchHeaders reads the apply_patch headers, in lower case (the policy
// compares them so).
func (r *hostReader) patchHeaders() []string {
	v, ok := r.member(r.members, "", "patch_headers", "array")
	if !ok {
		return nil
	}
	var out []string
	for i, h := range v.([]any) {
		s, ok := h.(string)
		if !ok {
			r.problem("patch_headers[%d] is %s, not string", i, kind(h))
			continue
		}
		out = append(out, strings.ToLower(s))
	}
	return out
}

func (r *hostReader) messages() failClosedMessages {
	obj := r.object(r.members, "", "fail_closed_messages")
	if obj == nil {
		return failClosedMessages{}
	}
	get := func(name string) string { return r.string(obj, "fail_closed_messages.", name) }
	return failClosedMessages{decision: get("decision"), call: get("call"), catalog: get("catalog"), launch: get("launch")}
}

// floor reads the floor's layout as data requirements: the floor an
// object with members; each member an object of members, a list of
// entries ("entries") or a list that may be empty ("list").
func (r *hostReader) floor() []dataRequirement {
	layout := r.object(r.members, "", "floor")
	out := []dataRequirement{{"tooleval.floor", "object", true}}
	var walk func(path string, layout map[string]any)
	walk = func(path string, layout map[string]any) {
		names := make([]string, 0, len(layout))
		for name := range layout {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			switch spec := layout[name]; spec {
			case "entries":
				out = append(out, dataRequirement{path + "." + name, "array", true})
			case "list":
				out = append(out, dataRequirement{path + "." + name, "array", false})
			default:
				sub, ok := spec.(map[string]any)
				if !ok {
					r.problem("floor: %s is %v, not an object, \"entries\" or \"list\"", path+"."+name, spec)
					continue
				}
				out = append(out, dataRequirement{path + "." + name, "object", true})
				walk(path+"."+name, sub)
			}
		}
	}
	walk("tooleval.floor", layout)
	return out
}
