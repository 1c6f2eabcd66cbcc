package oracle

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/norm"
)

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
