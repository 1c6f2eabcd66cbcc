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

	"github.com/tooleval/tooleval/internal/docpath"
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

// requiredData lists the data documents the contract names. Without the
// Unicode tables a full-width spelling of an excluded tool is a
// different name; without the configuration every decision fails. The
// floor (the exclusions and sensitive paths) is checked once the
// policy's host interface has said its layout (checkRequirements). The
// prepared configuration (data.tooleval.prepared) is not required: the
// policy prepares it itself when it is missing or stale. The members of the shipped documents
// are required too (see shippedMembers).
var requiredData = []dataRequirement{
	{"tooleval.config", "object", true},
	{"tooleval.config.presets", "object", true},
	{"tooleval.unicode", "object", true},
	{"tooleval.unicode.skeleton", "object", true},
}

// shippedDocuments are the data files of the embedded bundle whose
// members a loaded bundle must hold too: each member of the shipped
// document, with the same kind (any kind where the shipped value is
// null), and non-empty where the shipped one is non-empty when tables
// is set. For the configuration that is max_depth, exclusions, groups,
// path_arguments, the configured stages...; for the Unicode document the
// version and the code-point tables (map, ccc, trail_ccc, composable,
// compositions as shipped). The list follows the policy the binary was
// built with.
var shippedDocuments = []struct {
	file, path string
	tables     bool
}{
	{"tooleval/config/data.json", "tooleval.config", false},
	{"tooleval/unicode/data.json", "tooleval.unicode", true},
}

// shippedMember is what a loaded bundle must hold at one path.
type shippedMember struct {
	path     string
	kind     string // "null": any kind
	nonEmpty bool
}

// shippedMembers reads the embedded bundle's documents once.
var shippedMembers = sync.OnceValues(func() ([]shippedMember, error) {
	var members []shippedMember
	for _, doc := range shippedDocuments {
		data, err := fs.ReadFile(policies.Bundle(), doc.file)
		if errors.Is(err, fs.ErrNotExist) {
			continue // the policy no longer ships it
		}
		if err != nil {
			return nil, err
		}
		var values map[string]any
		if err := json.Unmarshal(data, &values); err != nil {
			return nil, fmt.Errorf("%s: %w", doc.file, err)
		}
		for name, v := range values {
			if isSubDocument(doc.path + "." + name) {
				continue // another data file (unicode/skeleton, config/presets)
			}
			members = append(members, shippedMember{path: doc.path + "." + name, kind: kind(v), nonEmpty: doc.tables && !isEmpty(v)})
		}
	}
	return members, nil
})

// isSubDocument reports whether path is a data document of its own in
// the embedded bundle (a data.json in a subdirectory).
func isSubDocument(path string) bool {
	_, err := fs.Stat(policies.Bundle(), strings.ReplaceAll(path, ".", "/")+"/data.json")
	return err == nil
}

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
	shipped, err := shippedMembers()
	if err != nil {
		return fmt.Errorf("read the embedded bundle's data: %w", err)
	}
	required := append([]dataRequirement(nil), requiredData...)
	for _, m := range shipped {
		kind := m.kind
		if kind == "null" {
			kind = ""
		}
		required = append(required, dataRequirement{m.path, kind, m.nonEmpty})
	}
	return checkRequirements(data, required)
}

// checkRequirements reports every requirement data does not meet, as an
// error wrapping [ErrIncompleteBundle].
func checkRequirements(data map[string]any, required []dataRequirement) error {
	var problems []string
	for _, r := range required {
		v, ok := lookup(data, r.path)
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("data.%s is missing", r.path))
		case r.kind != "" && kind(v) != r.kind:
			problems = append(problems, fmt.Sprintf("data.%s is %s, not %s", r.path, kind(v), r.kind))
		case r.nonEmpty && isEmpty(v):
			problems = append(problems, fmt.Sprintf("data.%s is empty", r.path))
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

// checkReferences reports every reference into data that neither a rule
// of the compiled policy nor the bundle's data defines (a module of the
// bundle is missing: a stock OPA would evaluate such a reference as
// undefined, silently), and each of rules that is not a rule.
func checkReferences(compiler *ast.Compiler, data map[string]any, rules []string) error {
	missing := map[string]bool{}
	for _, r := range missingRules(compiler, rules) {
		missing[r] = true
	}
	for _, m := range compiler.Modules {
		ast.WalkRefs(m, func(r ast.Ref) bool {
			if !r.HasPrefix(ast.DefaultRootRef) {
				return false
			}
			prefix := r.GroundPrefix()
			if len(compiler.GetRules(prefix)) == 0 && !docpath.Holds(data, prefix[1:]) {
				missing[prefix.String()] = true
			}
			return false
		})
	}
	return missingError(missing)
}

// checkRules reports each of rules (the host interface's entry points)
// that is not a rule of the compiled policy.
func checkRules(compiler *ast.Compiler, rules []string) error {
	missing := map[string]bool{}
	for _, r := range missingRules(compiler, rules) {
		missing[r] = true
	}
	return missingError(missing)
}

// missingRules returns each of rules that is not a rule of the policy (a
// string that is not a reference into data is not one either).
func missingRules(compiler *ast.Compiler, rules []string) []string {
	var missing []string
	for _, query := range rules {
		ref, err := ast.ParseRef(query)
		if err != nil || !ref.HasPrefix(ast.DefaultRootRef) || len(compiler.GetRules(ref)) == 0 {
			missing = append(missing, query)
		}
	}
	return missing
}

func missingError(missing map[string]bool) error {
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
