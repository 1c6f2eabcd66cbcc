// Package docpath answers one question about a JSON document decoded
// into Go values (objects as map[string]any, arrays as []any): whether
// a ground reference leads to a value of it.
package docpath

import "github.com/open-policy-agent/opa/v1/ast"

// Holds reports whether doc has a value at the ground path: each term
// is a string key of an object or a whole-number index of an array. A
// path that runs into a scalar, a missing key or an index out of range
// does not hold.
func Holds(doc any, path ast.Ref) bool {
	cur := doc
	for _, t := range path {
		switch v := cur.(type) {
		case map[string]any:
			key, ok := t.Value.(ast.String)
			if !ok {
				return false
			}
			if cur, ok = v[string(key)]; !ok {
				return false
			}
		case []any:
			n, ok := t.Value.(ast.Number)
			if !ok {
				return false
			}
			i, ok := n.Int()
			if !ok || i < 0 || i >= len(v) {
				return false
			}
			cur = v[i]
		default:
			return false
		}
	}
	return true
}
