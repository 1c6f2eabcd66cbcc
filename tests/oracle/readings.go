package oracle

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// programKey is the name a program is compared by, with the wrappers and
// with a deny rule's program: its last path segment (after / or \),
// lower case, without .exe.
func programKey(word string) string {
	return strings.TrimSuffix(strings.ToLower(word[strings.LastIndexAny(word, "/\\")+1:]), ".exe")
}

// shellParts reads a command as the contract says a shell would: its
// parts (split at the control operators) and each part's words, quotes
// removed; readable is false for anything it cannot read exactly.
func shellParts(command string) (parts [][]string, readable bool) {
	if len([]rune(command)) > 10000 {
		return nil, false
	}
	command = strings.TrimRight(command, " \t\n;")
	var (
		word      strings.Builder
		inWord    bool
		wordStart int
		current   []string
		raw       []string // the words as written, quotes kept
	)
	endWord := func(end int) {
		if inWord {
			current = append(current, word.String())
			raw = append(raw, command[wordStart:end])
			word.Reset()
			inWord = false
		}
	}
	endPart := func(end int) bool {
		endWord(end)
		if len(current) == 0 {
			return false
		}
		for i, w := range raw {
			if i == 0 && assignment.MatchString(w) || tildeInAssignment.MatchString(w) {
				return false
			}
		}
		parts = append(parts, current)
		current, raw = nil, nil
		return true
	}
	for i := 0; i < len(command); i++ {
		ch := command[i]
		if !inWord {
			wordStart = i
		}
		switch {
		case ch == '\'':
			end := strings.IndexByte(command[i+1:], '\'')
			if end < 0 || strings.ContainsRune(command[i+1:i+1+end], 0) {
				return nil, false
			}
			word.WriteString(command[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case ch == '"':
			end := strings.IndexByte(command[i+1:], '"')
			if end < 0 {
				return nil, false
			}
			inner := command[i+1 : i+1+end]
			if strings.ContainsAny(inner, "$`\\!\x00") {
				return nil, false
			}
			word.WriteString(inner)
			inWord = true
			i += end + 1
		case ch == ' ' || ch == '\t':
			endWord(i)
		case ch == ';' || ch == '\n':
			if !endPart(i) {
				return nil, false
			}
		case ch == '&' || ch == '|':
			end := i
			if i+1 < len(command) && (command[i+1] == ch || ch == '|' && command[i+1] == '&') {
				i++
			}
			if !endPart(end) {
				return nil, false
			}
		case ch == '=' && !inWord:
			return nil, false // zsh expands a word's leading =name to a program's path
		case ch == '~' && !inWord:
			return nil, false // a tilde expansion
		case ch >= 'a' && ch <= 'z', ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9', strings.IndexByte("_./:@%+,=~^-", ch) >= 0:
			word.WriteByte(ch)
			inWord = true
		default:
			return nil, false
		}
	}
	if !endPart(len(command)) {
		return nil, false
	}
	if len(parts) > 64 {
		return nil, false
	}
	return parts, true
}

// assignment: a first word bash takes for an assignment (NAME=, NAME+=,
// NAME[...]=, NAME[...]+=); tildeInAssignment: a word of that form where
// bash expands a ~ (right after the first =, or after a :).
var (
	assignment        = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=)`)
	tildeInAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\+?=(~|.*:~)`)
)

// domainNames: a domain entry names host.
func domainNames(entry, host string) bool {
	if entry == "*" {
		return true
	}
	if below, ok := strings.CutPrefix(entry, "*."); ok {
		return strings.HasSuffix(host, "."+below)
	}
	return host == entry
}

// callReading is what a call gives argument rules to read.
type callReading struct {
	command      [][]string
	commandOK    bool
	url          urlReading
	urlOK        bool
	urlReadHosts bool // the URL reaches some host that can be read
	paths        []string
	pathsOK      bool
	root         string
	args         map[string]any
	argsJSON     string
	argsOK       bool
}

func readCall(spec RuleArguments, w *ws, pathSpec map[string]string, args any) callReading {
	var r callReading
	r.args, r.argsOK = readArgs(args)
	r.argsJSON = canonicalJSON(r.args)
	r.paths, r.pathsOK = readPaths(w, pathSpec, args)
	if w != nil {
		r.root = w.root
	}
	m, isObject := args.(map[string]any)
	if args == nil {
		m, isObject = map[string]any{}, true
	}
	if !isObject {
		return r
	}
	for name := range m {
		if name != spec.Command && name != spec.URL && !slices.Contains(spec.Inert, name) {
			return r // an argument that may change what runs
		}
	}
	if spec.Command != "" {
		if s, ok := m[spec.Command].(string); ok {
			r.command, r.commandOK = shellParts(s)
		}
	}
	if spec.URL != "" {
		if x, present := m[spec.URL]; present {
			r.url, r.urlOK = readURL(x)
			r.urlReadHosts = r.urlOK && (r.url.exact || len(r.url.hosts) > 0)
		}
	}
	return r
}

func segments(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// wildWords: words match a wildcard rule's words exactly, a word * any
// words (none included), a * in a word any characters of that word.
func wildWords(pattern, words []string) bool {
	if len(pattern) == 0 {
		return len(words) == 0
	}
	if pattern[0] == "*" {
		for i := 0; i <= len(words); i++ {
			if wildWords(pattern[1:], words[i:]) {
				return true
			}
		}
		return false
	}
	return len(words) > 0 && starMatch(pattern[0], words[0], "") && wildWords(pattern[1:], words[1:])
}

// starMatch: s matches pattern where * stands for any characters but
// those in not, and (with a non-empty not) ? for any one of the others.
func starMatch(pattern, s, not string) bool {
	if pattern == "" {
		return s == ""
	}
	switch c := pattern[0]; {
	case c == '*':
		for i := 0; i <= len(s); i++ {
			if starMatch(pattern[1:], s[i:], not) {
				return true
			}
			if i < len(s) && strings.ContainsRune(not, rune(s[i])) {
				return false
			}
		}
		return false
	case c == '?' && not != "":
		_, size := utf8.DecodeRuneInString(s)
		return size > 0 && starMatch(pattern[1:], s[size:], not)
	default:
		return s != "" && s[0] == c && starMatch(pattern[1:], s[1:], not)
	}
}

// parseGlob reads a path rule's glob (contract: Argument rules, path):
// its segments, with ** before a relative glob of one segment that is
// neither ./-led nor holds a / but a trailing one.
func parseGlob(g string) ([]string, bool, bool) {
	if strings.ContainsAny(g, "[]{}\\\x00") || strings.HasPrefix(g, "~") || strings.HasPrefix(g, "$") || !norm.NFC.IsNormalString(g) {
		return nil, false, false
	}
	relative := !strings.HasPrefix(g, "/")
	body := strings.TrimPrefix(g, "/")
	if relative {
		body = strings.TrimPrefix(g, "./")
	}
	body = strings.TrimSuffix(body, "/")
	var segs []string
	if body != "" {
		segs = strings.Split(body, "/")
	} else if relative {
		return nil, false, false
	}
	for _, s := range segs {
		if s == "" || s == "." || s == ".." || s != "**" && strings.Contains(s, "**") {
			return nil, false, false
		}
		if _, ok := segmentKey(s); !ok {
			return nil, false, false
		}
	}
	if relative && len(segs) == 1 && !strings.HasPrefix(g, "./") {
		segs = append([]string{"**"}, segs...)
	}
	return segs, relative, true
}

// globMatches: the glob's segments match the path's segments (or keys),
// or the first of them (a glob names what is below it); not is what *
// does not stand for ("/" for segments, nothing for keys, where ? is any
// characters too).
func globMatches(glob, path []string, not string) bool {
	if len(glob) == 0 {
		return true
	}
	if glob[0] == "**" {
		for i := 0; i <= len(path); i++ {
			if globMatches(glob[1:], path[i:], not) {
				return true
			}
		}
		return false
	}
	return len(path) > 0 && starMatch(glob[0], path[0], not) && globMatches(glob[1:], path[1:], not)
}

func resolved(p string) bool { return absoluteClean(p) && norm.NFC.IsNormalString(p) }

// readPaths: the paths a call names in its tool's path arguments, under
// a workspace, each resolved; false when there is no workspace, no path
// argument, no path, or a value that is not a path or a list of paths.
func readPaths(w *ws, spec map[string]string, args any) ([]string, bool) {
	if w == nil || len(spec) == 0 {
		return nil, false
	}
	m, isObject := args.(map[string]any)
	if args == nil {
		m, isObject = map[string]any{}, true
	}
	if !isObject {
		return nil, false
	}
	var paths []string
	for name := range spec {
		switch v := m[name].(type) {
		case nil:
			if _, present := m[name]; present {
				return nil, false
			}
		case string:
			paths = append(paths, v)
		case []any:
			for _, e := range v {
				s, isString := e.(string)
				if !isString {
					return nil, false
				}
				paths = append(paths, s)
			}
		default:
			return nil, false
		}
	}
	if len(paths) == 0 {
		return nil, false
	}
	for _, p := range paths {
		if !resolved(p) {
			return nil, false
		}
	}
	return paths, true
}

// readArgs: a call's arguments as an object (none is {}).
func readArgs(args any) (map[string]any, bool) {
	if args == nil {
		return map[string]any{}, true
	}
	m, isObject := args.(map[string]any)
	return m, isObject
}

// canonicalJSON writes arguments as JSON.stringify does once members are
// sorted (encoding/json sorts map keys): HTML characters unescaped, and
// U+2028 and U+2029 (which encoding/json always escapes) given back.
// Numbers are float64 here (the document is decoded by encoding/json),
// which encoding/json writes as ECMAScript's Number::toString does
// (encoding/json encode.go floatEncoder: "as if by ES6 number to string
// conversion"), but for -0, written 0 as ECMAScript writes it.
func canonicalJSON(m map[string]any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if m == nil || enc.Encode(withoutNegativeZero(m)) != nil {
		return ""
	}
	out := strings.TrimSuffix(b.String(), "\n")
	var w strings.Builder
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '\\' && strings.HasPrefix(out[i:], `\u2028`):
			w.WriteString("\u2028")
			i += 5
		case out[i] == '\\' && strings.HasPrefix(out[i:], `\u2029`):
			w.WriteString("\u2029")
			i += 5
		case out[i] == '\\':
			w.WriteString(out[i : i+2])
			i++
		default:
			w.WriteByte(out[i])
		}
	}
	return w.String()
}

// hasMembers: an allow args rule's members, each with that very value.
func hasMembers(args, members map[string]any) bool {
	for name, want := range members {
		got, present := args[name]
		if !present || !jsonEqual(got, want) {
			return false
		}
	}
	return true
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(withoutNegativeZero(a))
	y, _ := json.Marshal(withoutNegativeZero(b))
	return bytes.Equal(x, y)
}

// withoutNegativeZero is v with every -0 made 0: JSON values compare
// numbers by value, and ECMAScript writes -0 as 0.
func withoutNegativeZero(v any) any {
	switch x := v.(type) {
	case float64:
		if x == 0 {
			return 0.0
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = withoutNegativeZero(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutNegativeZero(e)
		}
		return out
	}
	return v
}

// mayBe: a deny or ask args rule's member value may be got: equal, or
// strings with the same canonical form, or a string with none.
func mayBe(got, want any) bool {
	if jsonEqual(got, want) {
		return true
	}
	g, gs := got.(string)
	w, ws := want.(string)
	if !gs || !ws {
		return false
	}
	cg, ok := Canonical(g)
	if !ok {
		return true
	}
	cw, ok := Canonical(w)
	return ok && cg == cw
}
