package cedar

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/tooleval/tooleval/engine/canonical"
)

// This file is a Go copy of tooleval's path rule for the Cedar
// comparison, not the product: the product's rule is the Rego in
// policies/tooleval/arguments/paths/ (paths.rego, workspace.rego), and the
// messages are policies/tooleval/verdict/messages.rego's. Each function
// names the rule it copies. What it does not model (glob and patch
// accesses, which only presets declare; host path resolution, off in the
// benchmarks) is refused by [loadShipped] or left out on purpose, and
// the parity tests hold it to the engine's decisions.

// access is how a path argument is used: read, written or both
// (tooleval.configuration.path_arguments, "read" or "write").
type access struct{ read, write bool }

// workspace is input.workspace as tooleval.arguments.paths.workspace reads it:
// excluded and sensitive are runs of segment keys, excluded those of each
// root-relative entry joined to root.
type workspace struct {
	root         string
	readRoots    []string
	allowOutside bool
	excluded     [][]string
	sensitive    [][]string
}

// pathRefusal is a path refusal as tooleval.arguments.paths.call_refusals gives it:
// {rule, argument, path}; path is nil when the value was not a string.
type pathRefusal struct {
	rule     string
	argument string
	path     *string
}

// newWorkspace reads input.workspace (tooleval.arguments.paths.workspace) with
// the sensitive paths in force (tooleval.configuration.sensitive_paths).
// A workspace with a problem (tooleval.arguments.paths.workspace_errors) would
// refuse every call as invalid_config, which this copy does not model:
// it is an error.
func newWorkspace(w map[string]any, sensitivePaths []string) (*workspace, error) {
	root, ok := w["root"].(string)
	if !ok || !absoluteClean(root) {
		return nil, fmt.Errorf("workspace.root %v: not an absolute, clean path", w["root"])
	}
	if _, ok := pathKeys(root); !ok {
		return nil, fmt.Errorf("workspace.root %q: a segment has no canonical form", root)
	}
	ws := &workspace{root: root}
	if v, ok := w["allow_outside"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("workspace.allow_outside %v: not a boolean", v)
		}
		ws.allowOutside = b
	}
	var err error
	if ws.readRoots, err = stringList(w, "read_roots", absoluteClean); err != nil {
		return nil, err
	}
	excluded, err := stringList(w, "excluded", func(p string) bool {
		_, ok := relativeKeys(p)
		return relativeClean(p) && ok
	})
	if err != nil {
		return nil, err
	}
	for _, entry := range excluded {
		keys, _ := pathKeys(join(root, entry))
		ws.excluded = append(ws.excluded, keys)
	}
	for _, p := range sensitivePaths {
		if keys, ok := relativeKeys(p); ok {
			ws.sensitive = append(ws.sensitive, keys)
		}
	}
	return ws, nil
}

// stringList is the list member of the workspace, every element valid
// (workspace.rego, _valid_member).
func stringList(w map[string]any, member string, valid func(string) bool) ([]string, error) {
	v, ok := w[member]
	if !ok || v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("workspace.%s: not an array", member)
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok || !valid(s) {
			return nil, fmt.Errorf("workspace.%s: %v is not a clean path", member, e)
		}
		out = append(out, s)
	}
	return out, nil
}

// refusal is the first path refusal of a call (tooleval.arguments.paths.call_refusals, its first):
// the tool's path arguments in argument-name order, each present value
// checked; args that is not an object refuses every path argument.
func (ws *workspace) refusal(arguments map[string]access, names []string, args any) *pathRefusal {
	if args == nil { // shape.field(call, "args", {}): absent or null is {}
		return nil
	}
	for _, name := range names {
		if r := ws.argumentRefusal(name, arguments[name], args); r != nil {
			return r
		}
	}
	return nil
}

// argumentRefusal is _argument_refusal and _path_value_refusal: a string
// is one path, a list is checked element by element, anything else that
// is present (null included) is unresolved.
func (ws *workspace) argumentRefusal(name string, a access, args any) *pathRefusal {
	obj, ok := args.(map[string]any)
	if !ok {
		return &pathRefusal{rule: "unresolved", argument: name}
	}
	value, present := obj[name]
	if !present {
		return nil
	}
	switch v := value.(type) {
	case string:
		return ws.stringRefusal(name, a, v)
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return &pathRefusal{rule: "unresolved", argument: name}
			}
			if r := ws.stringRefusal(name, a, s); r != nil {
				return r
			}
		}
		return nil
	default:
		return &pathRefusal{rule: "unresolved", argument: name}
	}
}

func (ws *workspace) stringRefusal(name string, a access, path string) *pathRefusal {
	if rule := ws.pathRule(a, path); rule != "" {
		return &pathRefusal{rule: rule, argument: name, path: &path}
	}
	return nil
}

// pathRule is _path_rule: the rule that refuses path, or "" when it may
// be used, checked in the policy's order.
func (ws *workspace) pathRule(a access, path string) string {
	if !absoluteClean(path) || !isNFC(path) {
		return "unresolved"
	}
	if a.write {
		if !ws.allowOutside && !inside(path, ws.root) {
			return "outside_workspace"
		}
		keys, ok := pathKeys(path)
		if !ok {
			return "unresolved"
		}
		for _, run := range ws.sensitive {
			if containsRun(keys, run) {
				return "sensitive"
			}
		}
		for _, run := range ws.excluded {
			if hasPrefix(keys, run) {
				return "excluded"
			}
		}
	}
	if a.read && !ws.readable(path) {
		return "not_readable"
	}
	return ""
}

// readable is _readable: inside root or one of read_roots.
func (ws *workspace) readable(path string) bool {
	if inside(path, ws.root) {
		return true
	}
	for _, r := range ws.readRoots {
		if inside(path, r) {
			return true
		}
	}
	return false
}

// absoluteClean is _absolute_clean: "/", or an absolute path with no
// empty, . or .. segment, no trailing / and no NUL.
func absoluteClean(p string) bool {
	if p == "/" {
		return true
	}
	if !strings.HasPrefix(p, "/") {
		return false
	}
	return cleanSegments(p[1:])
}

// relativeClean is _relative_clean: a non-empty relative path with no
// empty, . or .. segment.
func relativeClean(p string) bool {
	return !strings.HasPrefix(p, "/") && cleanSegments(p)
}

// cleanSegments is _clean_segment over every segment of p.
func cleanSegments(p string) bool {
	for s := range strings.SplitSeq(p, "/") {
		if s == "" || s == "." || s == ".." || strings.Contains(s, "\x00") {
			return false
		}
	}
	return true
}

// isNFC is tooleval.canonical.nfc: ASCII is NFC; other text is checked
// with golang.org/x/text. The policy's check is stricter on a few NFC
// strings (a mark after a precomposed letter whose own mark has a higher
// class, canonical.rego), which it refuses and this copy lets through;
// the benchmark's paths are ASCII.
func isNFC(s string) bool {
	return isASCII(s) || norm.NFC.IsNormalString(s)
}

// inside is _inside: path is root or lies below it, on a segment boundary.
func inside(path, root string) bool {
	return path == root || (root == "/" && strings.HasPrefix(path, "/")) || strings.HasPrefix(path, root+"/")
}

// join is _join: a root-relative path joined to root.
func join(root, relative string) string {
	if root == "/" {
		return "/" + relative
	}
	return root + "/" + relative
}

// maxNameLength is tooleval.canonical._max_name_length: a longer name has
// no canonical form.
const maxNameLength = 256

// segmentKey is _segment_key: the canonical form of the upper-cased
// segment without trailing dots and spaces, so .SSH, .ſsh and ".ssh." are
// all .ssh; false when it has none (longer than 256 characters). The
// policy has no canonical form either for a non-ASCII segment whose marks
// are out of canonical order or whose mapping needs recomposing
// (canonical.rego); this copy gives those the standard one.
func segmentKey(segment string) (string, bool) {
	upper := strings.ToUpper(segment)
	if utf8.RuneCountInString(upper) > maxNameLength {
		return "", false
	}
	return strings.TrimRight(canonical.Canonical(upper), ". "), true
}

// pathKeys is _path_keys: the keys of the non-empty segments of a path.
func pathKeys(path string) ([]string, bool) {
	var keys []string
	for s := range strings.SplitSeq(path, "/") {
		if s == "" {
			continue
		}
		k, ok := segmentKey(s)
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

// relativeKeys is _relative_keys: the keys of every segment of a relative
// path.
func relativeKeys(path string) ([]string, bool) {
	var keys []string
	for s := range strings.SplitSeq(path, "/") {
		k, ok := segmentKey(s)
		if !ok {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

// containsRun is _contains_run: keys has run as consecutive elements.
func containsRun(keys, run []string) bool {
	for i := 0; i+len(run) <= len(keys); i++ {
		if hasPrefix(keys[i:], run) {
			return true
		}
	}
	return false
}

// hasPrefix reports whether keys starts with run (the excluded check:
// array.slice(keys, 0, count(run)) == run).
func hasPrefix(keys, run []string) bool {
	if len(keys) < len(run) {
		return false
	}
	for i, k := range run {
		if keys[i] != k {
			return false
		}
	}
	return true
}

// pathMessage is message("paths", ...) and _path_reason (verdict/messages.rego)
// for the accesses this copy models (no glob pattern).
func pathMessage(name string, r *pathRefusal) string {
	return fmt.Sprintf("tool %q is not permitted: %s", name, pathReason(r))
}

func pathReason(r *pathRefusal) string {
	var p string
	if r.path != nil {
		p = *r.path
	}
	switch r.rule {
	case "unresolved":
		if why, ok := unresolvedWhy(r.path); ok {
			return fmt.Sprintf("argument %q is not an absolute, clean, resolved path: %s", r.argument, why)
		}
		return fmt.Sprintf("argument %q is not an absolute, clean, resolved path", r.argument)
	case "outside_workspace":
		return fmt.Sprintf("path %q is outside the workspace", p)
	case "sensitive":
		return fmt.Sprintf("path %q is in a protected location (.ssh, .aws or .git/hooks)", p)
	case "excluded":
		return fmt.Sprintf("path %q is under an excluded workspace path", p)
	default:
		return fmt.Sprintf("path %q is outside the workspace and its read roots", p)
	}
}

// unresolvedWhy is tooleval.arguments.paths.unresolved_why: the host's marks
// for a path with two readings, or a clean path not in NFC.
func unresolvedWhy(path *string) (string, bool) {
	if path == nil {
		return "", false
	}
	p := *path
	switch {
	case strings.HasPrefix(p, "unresolved-dotdot:"):
		return fmt.Sprintf(`path %q names one file when its ".." is applied first and another when the links before it are followed first`, strings.TrimPrefix(p, "unresolved-dotdot:")), true
	case strings.HasPrefix(p, "unresolved-unicode:"):
		return fmt.Sprintf("path %q has a component that is not on disk but is equivalent under Unicode normalization (NFC) to an entry of its directory", strings.TrimPrefix(p, "unresolved-unicode:")), true
	case absoluteClean(p) && !isNFC(p):
		return fmt.Sprintf("path %q is not in Unicode normalization form C (NFC), so a server may open another file under an equivalent name", p), true
	}
	return "", false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// sortedNames is the argument names of a tool in the order the policy
// checks them (sort(object.keys(arguments))).
func sortedNames(arguments map[string]access) []string {
	names := make([]string, 0, len(arguments))
	for n := range arguments {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
