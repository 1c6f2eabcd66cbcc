package engine

import (
	"errors"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tooleval/tooleval/engine/canonical"
	"github.com/tooleval/tooleval/engine/hostpath"
)

// unresolvedPrefix marks a path argument the host could not resolve. It
// makes the value relative, so the policy refuses it with rule unresolved.
const unresolvedPrefix = "unresolved:"

// lexicalPrefix and equivalentPrefix mark, as unresolvedPrefix does, a
// path with two readings that name different files (see
// [hostpath.ErrLexical] and [hostpath.ErrEquivalent]); the policy's
// message says which (tooleval.verdict, _path_reason in messages.rego).
const (
	lexicalPrefix    = "unresolved-dotdot:"
	equivalentPrefix = "unresolved-unicode:"
)

// pathArguments is the configuration's path arguments in force (the
// configuration's and its preset's): for each canonical tool name, which
// arguments are paths.
type pathArguments map[string]map[string]any

// pathResolver resolves the path arguments of calls on the host, as the
// host interface says: which arguments are paths (and their accesses),
// and which lines of an apply_patch text name a file.
type pathResolver struct {
	arguments pathArguments
	// patchHeaders are the lines of an apply_patch text that name a
	// file, in lower case (tooleval.arguments.paths.patch_headers): compared
	// in lower case after trimming white space.
	patchHeaders []string
}

// resolveCalls returns the calls with every path argument named by the
// configuration resolved on the host against root: a string, or each
// string of a list of paths. Calls that are not well-formed, and path
// arguments of any other type, are left as they are for the policy to
// refuse.
func (p pathResolver) resolveCalls(root string, calls ast.Value) ast.Value {
	arr, ok := calls.(*ast.Array)
	if !ok || len(p.arguments) == 0 {
		return calls
	}
	out := make([]*ast.Term, 0, arr.Len())
	arr.Foreach(func(t *ast.Term) {
		out = append(out, ast.NewTerm(p.resolveCall(root, t.Value)))
	})
	return ast.NewArray(out...)
}

func (p pathResolver) resolveCall(root string, call ast.Value) ast.Value {
	obj, ok := call.(ast.Object)
	if !ok {
		return call
	}
	name, ok := stringMember(obj, "name")
	if !ok {
		return call
	}
	spec := p.arguments[canonical.Canonical(name)]
	argsTerm := obj.Get(ast.StringTerm("args"))
	if len(spec) == 0 || argsTerm == nil {
		return call
	}
	args, ok := argsTerm.Value.(ast.Object)
	if !ok {
		return call
	}
	resolvedArgs := args.Copy()
	for arg, accesses := range spec {
		t := args.Get(ast.StringTerm(arg))
		if t == nil {
			continue
		}
		if isGlob(accesses) {
			continue // a pattern is judged as written, and forwarded so
		}
		switch v := t.Value.(type) {
		case ast.String:
			if isPatch(accesses) {
				resolvedArgs.Insert(ast.StringTerm(arg), ast.StringTerm(resolvePatch(root, string(v), p.patchHeaders)))
				continue
			}
			resolvedArgs.Insert(ast.StringTerm(arg), ast.StringTerm(resolvePath(root, string(v))))
		case *ast.Array: // a list of paths: each string element, in place
			elems := make([]*ast.Term, 0, v.Len())
			v.Foreach(func(e *ast.Term) {
				if s, ok := e.Value.(ast.String); ok {
					e = ast.StringTerm(resolvePath(root, string(s)))
				}
				elems = append(elems, e)
			})
			resolvedArgs.Insert(ast.StringTerm(arg), ast.ArrayTerm(elems...))
		}
		// Any other value is left for the policy to refuse.
	}
	resolvedCall := obj.Copy()
	resolvedCall.Insert(ast.StringTerm("args"), ast.NewTerm(resolvedArgs))
	return resolvedCall
}

// isPatch reports whether a path argument's accesses (from the policy's
// path arguments: an object of "read", "write", "patch") say it is patch
// text.
func isPatch(accesses any) bool {
	set, _ := accesses.(map[string]any)
	return set["patch"] == true
}

// isGlob reports whether a path argument's accesses say it is a glob
// pattern: it names many files, some not there yet, so it is not resolved
// on the host; the policy judges the pattern as written.
func isGlob(accesses any) bool {
	set, _ := accesses.(map[string]any)
	return set["glob"] == true
}

// resolvePatch returns patch text with the path of every file header
// (a line starting with one of headers, in lower case) resolved on the
// host; other lines are kept as they are. A header the
// policy finds but this misses keeps its relative path, which the policy
// refuses: a mismatch can only refuse more.
func resolvePatch(root, text string, headers []string) string {
	lines := strings.Split(text, "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		for _, h := range headers {
			if len(line) < len(h) || strings.ToLower(line[:len(h)]) != h {
				continue
			}
			p := strings.TrimSpace(line[len(h):])
			lines[i] = line[:len(h)] + " " + resolvePath(root, p)
			break
		}
	}
	return strings.Join(lines, "\n")
}

// resolvePath resolves p on the host, or marks it unresolved: the marked
// value is relative, so the policy refuses it with rule unresolved. A
// path with two readings is marked with why (see tooleval.verdict's
// messages): lexicalPrefix for a ".." that names another file before
// links are followed than after, equivalentPrefix for a component a
// server could match to another entry under Unicode normalization.
func resolvePath(root, p string) string {
	resolved, err := hostpath.Resolve(root, p)
	switch {
	case errors.Is(err, hostpath.ErrLexical):
		return lexicalPrefix + p
	case errors.Is(err, hostpath.ErrEquivalent):
		return equivalentPrefix + p
	case err != nil:
		return unresolvedPrefix + p
	}
	return resolved
}

// stringMember returns obj[key] when it is a string.
func stringMember(obj ast.Object, key string) (string, bool) {
	s, ok := typedMember[ast.String](obj, key)
	return string(s), ok
}

// workspaceRoot returns input.workspace.root when it is a string.
func workspaceRoot(static ast.Value) (string, bool) {
	obj, ok := static.(ast.Object)
	if !ok {
		return "", false
	}
	t := obj.Get(ast.StringTerm("workspace"))
	if t == nil {
		return "", false
	}
	ws, ok := t.Value.(ast.Object)
	if !ok {
		return "", false
	}
	return stringMember(ws, "root")
}

// ResolvePaths returns a copy of a full input document with its path
// arguments resolved on the host against input.workspace.root (symbolic
// links followed, at most 8 hops). Paths that cannot be resolved are
// marked so that the policy refuses them with rule unresolved. Without a
// workspace the input is returned as it is.
func (e *Engine) ResolvePaths(input ast.Value) ast.Value {
	root, ok := workspaceRoot(input)
	obj, isObject := input.(ast.Object)
	if !ok || !isObject {
		return input
	}
	calls := obj.Get(ast.StringTerm("calls"))
	if calls == nil {
		return input
	}
	out := obj.Copy()
	out.Insert(ast.StringTerm("calls"), ast.NewTerm(e.current.Load().host.paths.resolveCalls(root, calls.Value)))
	return out
}
