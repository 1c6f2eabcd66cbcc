package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/policies"
)

// ErrIncompleteBundle is wrapped by the error of a load that found the
// bundle lacking something the policy needs: a Rego module a rule
// refers to, or a data document (configuration, presets, Unicode
// tables) that is missing or malformed. The engine keeps its last good
// policy.
var ErrIncompleteBundle = errors.New("the bundle is incomplete")

// kind is a JSON value's type, as the data checks see it.
func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number, float64, int, int64:
		return "number"
	default:
		return fmt.Sprintf("%T", x)
	}
}

// dataRequirement is one data document the policy reads: its path
// under data, its kind, and whether it must have members.
type dataRequirement struct {
	path     string
	kind     string
	nonEmpty bool
}

// requiredData lists the data documents the policy needs. Without the
// Unicode tables a full-width spelling of an excluded tool is a
// different name; without the configuration or its floor lists every
// decision fails, or worse. Every member of the default configuration the
// binary was built with is required too (see defaultConfigMembers).
var requiredData = []dataRequirement{
	{"tooleval.config", "object", true},
	{"tooleval.config.max_depth", "number", false},
	{"tooleval.config.exclusions", "object", true},
	{"tooleval.config.exclusions.subagent_hard_deny", "array", true},
	{"tooleval.config.exclusions.subagent_depth_cap", "array", true},
	{"tooleval.config.exclusions.fork_no_spawn", "array", true},
	{"tooleval.config.groups", "object", false},
	{"tooleval.config.path_arguments", "object", true},
	{"tooleval.config.presets", "object", true},
	{"tooleval.unicode", "object", true},
	{"tooleval.unicode.version", "string", true},
	{"tooleval.unicode.map", "object", true},
	{"tooleval.unicode.ccc", "object", true},
	{"tooleval.unicode.trail_ccc", "object", true},
	{"tooleval.unicode.composable", "object", true},
	{"tooleval.unicode.compositions", "object", true},
	{"tooleval.unicode.skeleton", "object", true},
}

// defaultConfigMembers is the kind of each member of the default
// configuration embedded in the binary (policies/tooleval/config).
var defaultConfigMembers = sync.OnceValues(func() (map[string]string, error) {
	data, err := fs.ReadFile(policies.Bundle(), "tooleval/config/data.json")
	if err != nil {
		return nil, err
	}
	var config map[string]any
	if err := json.Unmarshal(data, &config); err != nil {
		return nil, err
	}
	kinds := make(map[string]string, len(config))
	for k, v := range config {
		kinds[k] = kind(v)
	}
	return kinds, nil
})

// lookup returns the value at a dotted path under data.
func lookup(data map[string]any, path string) (any, bool) {
	var v any = data
	for _, key := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = obj[key]; !ok {
			return nil, false
		}
	}
	return v, true
}

// checkData reports every data document the policy needs that the
// bundle's data lacks or holds in the wrong shape. It is run on the
// bundle as loaded, before a configuration overlay: a mistake in an
// overlay is the policy's to report as a configuration error.
func checkData(data map[string]any) error {
	var problems []string
	for _, r := range requiredData {
		v, ok := lookup(data, r.path)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("data.%s is missing", r.path))
		case kind(v) != r.kind:
			problems = append(problems, fmt.Sprintf("data.%s is %s, not %s", r.path, kind(v), r.kind))
		case r.nonEmpty && isEmpty(v):
			problems = append(problems, fmt.Sprintf("data.%s is empty", r.path))
		}
	}
	defaults, err := defaultConfigMembers()
	if err != nil {
		return fmt.Errorf("read the embedded default configuration: %w", err)
	}
	if config, ok := lookup(data, "tooleval.config"); ok {
		config, _ := config.(map[string]any)
		for member, want := range defaults {
			v, ok := config[member]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("data.tooleval.config.%s is missing", member))
			case want != "null" && kind(v) != want:
				problems = append(problems, fmt.Sprintf("data.tooleval.config.%s is %s, not %s", member, kind(v), want))
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return fmt.Errorf("%w: %s", ErrIncompleteBundle, strings.Join(dedupe(problems), "; "))
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case string:
		return x == ""
	}
	return false
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// entryPoints are the rules the engine evaluates.
var entryPoints = []string{
	"data.tooleval.decision", "data.tooleval.launch", "data.tooleval.check",
	"data.tooleval.decide", "data.tooleval.context.compile", "data.tooleval.context.config",
}

// checkReferences reports every reference into data that neither a rule
// of the compiled policy nor the bundle's data defines: a module of the
// bundle is missing (a stock OPA would evaluate such a reference as
// undefined, silently). The engine's entry points must be rules.
func checkReferences(compiler *ast.Compiler, data map[string]any) error {
	missing := map[string]bool{}
	for _, query := range entryPoints {
		if len(compiler.GetRules(ast.MustParseRef(query))) == 0 {
			missing[query] = true
		}
	}
	for _, m := range compiler.Modules {
		ast.WalkRefs(m, func(r ast.Ref) bool {
			if !r.HasPrefix(ast.DefaultRootRef) {
				return false
			}
			prefix := r.GroundPrefix()
			if len(compiler.GetRules(prefix)) == 0 && !dataHolds(data, prefix[1:]) {
				missing[prefix.String()] = true
			}
			return false
		})
	}
	if len(missing) == 0 {
		return nil
	}
	refs := make([]string, 0, len(missing))
	for r := range missing {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	return fmt.Errorf("%w: the policy refers to %s, which no rule or data document of the bundle defines (a file is missing?)",
		ErrIncompleteBundle, strings.Join(refs, ", "))
}

// dataHolds reports whether data has a value at the ground path.
func dataHolds(data map[string]any, path ast.Ref) bool {
	var v any = data
	for _, t := range path {
		switch x := v.(type) {
		case map[string]any:
			key, ok := t.Value.(ast.String)
			if !ok {
				return false
			}
			if v, ok = x[string(key)]; !ok {
				return false
			}
		case []any:
			n, ok := t.Value.(ast.Number)
			if !ok {
				return false
			}
			i, ok := n.Int()
			if !ok || i < 0 || i >= len(x) {
				return false
			}
			v = x[i]
		default:
			return false
		}
	}
	return true
}
