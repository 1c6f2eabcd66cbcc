package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/stretchr/testify/require"
)

// shippedPolicy is the embedded bundle compiled, with its host interface
// as the engine reads it and as the policy evaluates it (JSON).
var shippedPolicy = sync.OnceValues(func() (shipped struct {
	host      hostInterface
	document  map[string]any
	evaluated func(query string) (any, error)
}, err error,
) {
	ctx := context.Background()
	b, err := loadBundle("", nil)
	if err != nil {
		return shipped, err
	}
	compiler, store, err := compileBundle(ctx, b)
	if err != nil {
		return shipped, err
	}
	shipped.evaluated = func(query string) (any, error) {
		rs, err := rego.New(rego.Query(query), rego.Compiler(compiler), rego.Store(store)).Eval(ctx)
		if err != nil {
			return nil, err
		}
		if len(rs) != 1 {
			return nil, fmt.Errorf("%s is undefined", query)
		}
		return rs[0].Expressions[0].Value, nil
	}
	l, err := loadHost(ctx, compiler, store, ast.NewObject())
	if err != nil {
		return shipped, err
	}
	shipped.host = l.host
	document, err := shipped.evaluated(hostInterfaceName)
	shipped.document, _ = document.(map[string]any)
	return shipped, err
})

// shippedHost is the embedded bundle's host interface.
func shippedHost(t testing.TB) hostInterface {
	t.Helper()
	shipped, err := shippedPolicy()
	require.NoError(t, err)
	return shipped.host
}

// TestHostInterfaceIsThePolicys holds what the engine reads from the host
// interface equal to the policy rules it names.
func TestHostInterfaceIsThePolicys(t *testing.T) {
	shipped, err := shippedPolicy()
	require.NoError(t, err)
	h := shipped.host
	eval := func(query string) any {
		v, err := shipped.evaluated(query)
		require.NoError(t, err, query)
		return v
	}

	require.Equal(t, json.Number(fmt.Sprint(h.maxCalls)), eval("data.tooleval.shape.max_calls"))
	require.Positive(t, h.maxCalls)

	headers := []string{}
	for _, h := range eval("data.tooleval.arguments.paths.patch_headers").([]any) {
		headers = append(headers, strings.ToLower(h.(string)))
	}
	require.Equal(t, headers, h.paths.patchHeaders)

	pathArguments := pathArguments{}
	for tool, args := range eval("data.tooleval.configuration.path_arguments_in_force").(map[string]any) {
		pathArguments[tool] = args.(map[string]any)
	}
	require.Equal(t, pathArguments, h.paths.arguments)
	require.NotEmpty(t, h.paths.arguments)

	require.Equal(t, failClosedMessages{
		decision: eval("data.tooleval.batch.fail_closed({}).errors[0].message").(string),
		call:     eval(`data.tooleval.batch.fail_closed({"calls": [{}]}).decisions[0].message`).(string),
		catalog:  eval("data.tooleval.catalog.fail_closed({}).errors[0].message").(string),
		launch:   eval("data.tooleval.forks.failed_launch.errors[0].message").(string),
	}, h.messages)

	require.Equal(t, []string{
		"data.tooleval.decision", "data.tooleval.tools", "data.tooleval.launch", "data.tooleval.check",
		"data.tooleval.context.session", "data.tooleval.decide", "data.tooleval.catalog.catalog",
	}, h.entryPoints.rules(), "the entry points embedders and OPA servers query stay where they are")
	require.Equal(t, "data.tooleval.explain", h.entryPoints.explain)
	require.Equal(t, "data.system.log.mask", h.entryPoints.mask)
	require.Equal(t, "data.tooleval.over_cap", h.entryPoints.overCap)
	require.Equal(t, "data.tooleval.decide_over_cap", h.entryPoints.decideOverCap)

	require.Equal(t, []dataRequirement{
		{"tooleval.floor", "object", true},
		{"tooleval.floor.exclusions", "object", true},
		{"tooleval.floor.exclusions.fork_no_spawn", "array", true},
		{"tooleval.floor.exclusions.subagent_depth_cap", "array", true},
		{"tooleval.floor.exclusions.subagent_hard_deny", "array", true},
		{"tooleval.floor.exclusions.teammate_no_spawn", "array", false},
		{"tooleval.floor.sensitive_paths", "array", true},
	}, h.floor)
}

// readHostOf reads the host interface of a policy whose interface is
// the shipped one edited by edit.
func readHostOf(t *testing.T, edit func(map[string]any)) (hostInterface, error) {
	t.Helper()
	shipped, err := shippedPolicy()
	require.NoError(t, err)
	var document map[string]any
	b, err := json.Marshal(shipped.document)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &document))
	edit(document)
	return readHostModule(t, "package tooleval.host\n\ninterface := "+string(mustJSON(t, document))+"\n")
}

// readHostModule reads the host interface of a policy of one module (a
// load function giving its interface is added).
func readHostModule(t *testing.T, module string) (hostInterface, error) {
	t.Helper()
	return loadHostModule(t, module, ast.NewObject())
}

// loadHostModule loads a policy of one module (a load function giving
// its interface is added) with a deployment's overlay.
func loadHostModule(t *testing.T, module string, overlay ast.Value) (hostInterface, error) {
	t.Helper()
	compiler, err := ast.CompileModules(map[string]string{"host.rego": module + "\n" + testHostLoad})
	require.NoError(t, err)
	l, err := loadHost(context.Background(), compiler, inmem.New(), overlay)
	return l.host, err
}

// TestTheOverlayIsNotTheInput: a load reads the deployment's overlay as
// its argument; a rule that reads the input does not see it.
func TestTheOverlayIsNotTheInput(t *testing.T) {
	_, err := loadHostModule(t, "package tooleval.host\n\ninterface := 1 if input.never\n", ast.MustParseTerm(`{"never": true}`).Value)
	require.ErrorIs(t, err, ErrIncompleteBundle)
	require.ErrorContains(t, err, "data.tooleval.host.interface is undefined")
}

// TestALoadThatCannotPrepareSaysSo: a load undefined while the interface
// is defined is the policy failing on the configuration, not a bundle
// without an interface.
func TestALoadThatCannotPrepareSaysSo(t *testing.T) {
	shipped, err := shippedPolicy()
	require.NoError(t, err)
	// _prepared[0]: the prepared configuration is an object, so the
	// load is undefined while the interface is not.
	load := strings.Replace(testHostLoad, `"prepared": _prepared`, `"prepared": _prepared[0]`, 1)
	module := "package tooleval.host\n\ninterface := " + string(mustJSON(t, shipped.document)) + "\n\n" + load
	compiler, err := ast.CompileModules(map[string]string{"host.rego": module})
	require.NoError(t, err)
	_, err = loadHost(context.Background(), compiler, inmem.New(), ast.NewObject())
	require.ErrorIs(t, err, ErrUndefined)
	require.NotErrorIs(t, err, ErrIncompleteBundle)
	require.ErrorContains(t, err, "data.tooleval.host.load is undefined for this configuration")
}

// testHostLoad is the host's load function of a test's policy: the
// overlay merged over data.tooleval.config, the policy's
// prepared_document when it has one, and its interface.
const testHostLoad = `load(overlay) := {"config": object.union(_config, overlay), "prepared": _prepared, "interface": interface}

default _config := {}

_config := data.tooleval.config

default _prepared := {}

_prepared := data.tooleval.configuration.prepared_document
`

// TestHostInterfaceFailsClosed: an interface that is undefined, lacks a
// member or holds one of another kind refuses the bundle, naming what is
// wrong; the engine has no default of its own.
func TestHostInterfaceFailsClosed(t *testing.T) {
	h, err := readHostOf(t, func(map[string]any) {})
	require.NoError(t, err)
	require.Equal(t, shippedHost(t), h)

	for want, edit := range map[string]func(map[string]any){
		"data.tooleval.host.interface.max_calls is missing":                 func(d map[string]any) { delete(d, "max_calls") },
		"data.tooleval.host.interface.max_calls is string, not number":      func(d map[string]any) { d["max_calls"] = "100" },
		"data.tooleval.host.interface.max_calls is -1, not a count":         func(d map[string]any) { d["max_calls"] = -1 },
		"data.tooleval.host.interface.path_arguments is missing":            func(d map[string]any) { delete(d, "path_arguments") },
		`data.tooleval.host.interface.path_arguments["read_file"] is array`: func(d map[string]any) { d["path_arguments"] = map[string]any{"read_file": []any{}} },
		"data.tooleval.host.interface.patch_headers is missing":             func(d map[string]any) { delete(d, "patch_headers") },
		"data.tooleval.host.interface.patch_headers[1] is null":             func(d map[string]any) { d["patch_headers"] = []any{"*** Add File:", nil} },
		"data.tooleval.host.interface.fail_closed_messages.call is missing": func(d map[string]any) {
			delete(d["fail_closed_messages"].(map[string]any), "call")
		},
		"data.tooleval.host.interface.entry_points.decide is missing": func(d map[string]any) {
			delete(d["entry_points"].(map[string]any), "decide")
		},
		"data.tooleval.host.interface.floor is missing":        func(d map[string]any) { delete(d, "floor") },
		"data.tooleval.host.interface.entry_points is missing": func(d map[string]any) { delete(d, "entry_points") },
		"data.tooleval.host.interface.fail_closed_messages is array, not object": func(d map[string]any) {
			d["fail_closed_messages"] = []any{}
		},
		"tooleval.floor.sensitive_paths is maybe": func(d map[string]any) {
			d["floor"].(map[string]any)["sensitive_paths"] = "maybe"
		},
	} {
		_, err := readHostOf(t, edit)
		require.ErrorIs(t, err, ErrIncompleteBundle, want)
		require.ErrorContains(t, err, want)
	}

	for want, module := range map[string]string{
		"data.tooleval.host.interface is undefined":     "package tooleval.host\n\ninterface := 1 if input.never\n",
		"data.tooleval.host.interface is not an object": "package tooleval.host\n\ninterface := [1]\n",
	} {
		_, err := readHostModule(t, module)
		require.ErrorIs(t, err, ErrIncompleteBundle, want)
		require.ErrorContains(t, err, want)
	}
}

// TestBundleWithoutHostInterfaceIsRefused: a bundle without the host's
// load (and so without an interface), or whose interface names an entry
// point that is not a rule, does not load.
func TestBundleWithoutHostInterfaceIsRefused(t *testing.T) {
	policy := "package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := {}\n\ntools := {}\n\nlaunch := {}\n"
	dir := brokenBundle(t, policy)
	require.NoError(t, os.Remove(filepath.Join(dir, "host.rego")))
	_, err := New(context.Background(), WithBundle(dir))
	require.ErrorIs(t, err, ErrIncompleteBundle)
	require.ErrorContains(t, err, "data.tooleval.host.load")

	dir = brokenBundle(t, strings.Replace(policy, "\n\ntools := {}", "", 1))
	_, err = New(context.Background(), WithBundle(dir))
	require.ErrorIs(t, err, ErrIncompleteBundle)
	require.ErrorContains(t, err, "the policy refers to data.tooleval.tools, which no rule")
}

// TestSentinelsSurviveWrapping: an undefined or misshapen result is told
// apart with errors.Is, through the engine's wrapping.
func TestSentinelsSurviveWrapping(t *testing.T) {
	ctx := context.Background()
	in := ast.MustParseTerm(`{"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}`).Value

	undefined := newEngine(t, WithBundle(brokenBundle(t,
		"package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := 1 if input.missing\n\ntools := 1 if input.missing\n\nexplain := 1 if input.missing\n\nlaunch := 1 if input.missing\n")))
	_, err := undefined.Decide(ctx, in)
	require.ErrorIs(t, err, ErrUndefined)
	_, err = undefined.Tools(ctx, in)
	require.ErrorIs(t, err, ErrUndefined)

	misshapen := newEngine(t, WithBundle(brokenBundle(t,
		"package tooleval\n\ndecide(x, _) := x\n\ncheck := {}\n\ndecision := 1\n\ntools := {\"tools\": 1}\n\nexplain := 1\n\nlaunch := 1\n")))
	_, err = misshapen.Decide(ctx, in)
	require.ErrorIs(t, err, ErrShape)
	_, err = misshapen.Tools(ctx, in)
	require.ErrorIs(t, err, ErrShape)
	require.False(t, errors.Is(err, ErrUndefined))

	// A session whose context cannot be compiled wraps the cause.
	s, err := undefined.NewSession(ctx, map[string]any{})
	require.NoError(t, err, "the broken bundle's session is the identity")
	_, err = s.Tools(ctx)
	require.Error(t, err)
}
