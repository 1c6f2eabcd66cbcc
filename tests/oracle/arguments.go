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

// RuleArguments is one tool's entry of the configuration's
// rule_arguments: the argument holding its shell command and its URL, and
// the arguments that may come with them.
type RuleArguments struct {
	Command string   `json:"command"`
	URL     string   `json:"url"`
	Inert   []string `json:"inert"`
}

// required is the readings a tool's allow rules must permit whatever
// they say: the command and URL the entry names an argument for.
func (a RuleArguments) required() []string {
	var out []string
	if a.Command != "" {
		out = append(out, "command")
	}
	if a.URL != "" {
		out = append(out, "url")
	}
	return out
}

// argRule is an argument rule of a layer's list (docs/contract.md,
// Argument rules).
type argRule struct {
	tool     []entry // the rule's tool, as an entry of its list
	cond     string  // command_prefix, command, command_wildcard, domain, path, args_pattern or args
	words    []string
	domain   string
	glob     []string // a path rule's segments, anchored ("" stands for the workspace root)
	relative bool
	pattern  *regexp.Regexp
	members  map[string]any
	// unless: a deny or ask rule's exceptions (allow entries): names
	// and argument rules; hasUnless when it has any.
	hasUnless   bool
	unlessNames []entry
	unlessRules []argRule
}

// The programs a shell part runs another command through (contract: by
// the last segment of the program's path).
var wrappers = map[string]bool{}

func init() {
	for _, w := range strings.Fields("- . alias arch bash builtin busybox caffeinate case chroot chrt cmd command coproc csh dash declare do doas done elif else enable env esac eval exec export fc fi firejail fish flock for function hash if ionice ksh local mksh newgrp nice nocorrect noglob nohup nsenter parallel pkexec powershell prlimit pwsh readonly repeat runuser script select setpriv setsid sg sh source ssh stdbuf strace su sudo systemd-run taskset tcsh then time timeout trap typeset unalias unshare until watch while xargs zsh") {
		wrappers[w] = true
	}
}

// parseArgRule parses an object entry of a list; ok is false for an
// invalid one, an exception of another kind than its rule's included
// (check refuses it as exception_kind).
func parseArgRule(m map[string]any, allowList bool, groups map[string][]string) (argRule, bool) {
	r, ok := parseArgRuleAlone(m, allowList, groups)
	return r, ok && r.exceptionsOfItsKind()
}

// exceptionsOfItsKind: each argument rule among r's exceptions reads
// what r reads (command, URL, paths or arguments), unless r is a whole
// tool's rule, which takes every kind.
func (r argRule) exceptionsOfItsKind() bool {
	if r.wholeTool() {
		return true
	}
	for _, e := range r.unlessRules {
		if readsOf(e.cond) != readsOf(r.cond) {
			return false
		}
	}
	return true
}

// parseArgRuleAlone is parseArgRule without the kinds of exceptions.
func parseArgRuleAlone(m map[string]any, allowList bool, groups map[string][]string) (argRule, bool) {
	var r argRule
	var err error
	conds := 0
	for k := range m {
		switch k {
		case "tool", "match", "not_match":
		case "unless":
			if allowList || !r.parseUnless(m["unless"], groups) {
				return r, false
			}
		case "command_prefix", "command", "command_wildcard", "domain", "path", "args_pattern", "args":
			conds++
			r.cond = k
		default:
			return r, false
		}
	}
	toolName, isString := m["tool"].(string)
	if !isString || conds != 1 {
		return r, false
	}
	tool, ok := parseEntry(toolName, allowList, groups, false)
	if !ok {
		return r, false
	}
	r.tool = tool
	if r.cond == "args" {
		members, isObject := m["args"].(map[string]any)
		r.members = members
		return r, isObject && len(members) > 0 && r.examplesHold(m, allowList)
	}
	value, isString := m[r.cond].(string)
	if !isString {
		return r, false
	}
	switch r.cond {
	case "domain":
		r.domain = value
		if value != "*" && !domainEntry.MatchString(value) {
			return r, false
		}
	case "path":
		if r.glob, r.relative, ok = parseGlob(value); !ok {
			return r, false
		}
	case "args_pattern":
		if r.pattern, err = regexp.Compile(value); err != nil {
			return r, false
		}
	default:
		text := value
		if r.cond == "command_wildcard" {
			if strings.ContainsAny(value, `'"`) {
				return r, false
			}
			text = strings.ReplaceAll(value, "*", "'*'")
		}
		parts, readable := shellParts(text)
		if !readable || len(parts) != 1 || allowList && readPart(parts[0]).wrapper {
			return r, false
		}
		if r.cond == "command_wildcard" && strings.Contains(parts[0][0], "*") {
			return r, false
		}
		r.words = parts[0]
	}
	return r, r.examplesHold(m, allowList)
}

// parseUnless reads a deny or ask rule's exceptions: a non-empty list of
// at most 4,096 allow entries, names or argument rules without
// exceptions (contract: Argument rules).
func (r *argRule) parseUnless(x any, groups map[string][]string) bool {
	list, ok := x.([]any)
	if !ok || len(list) == 0 || len(list) > 4096 {
		return false
	}
	r.hasUnless = true
	for _, e := range list {
		switch v := e.(type) {
		case string:
			names, ok := parseEntry(v, true, groups, false)
			if !ok {
				return false
			}
			r.unlessNames = append(r.unlessNames, names...)
		case map[string]any:
			if _, nested := v["unless"]; nested {
				return false
			}
			rule, ok := parseArgRule(v, true, groups)
			if !ok {
				return false
			}
			r.unlessRules = append(r.unlessRules, rule)
		default:
			return false
		}
	}
	return true
}

// bitesCall: a deny or ask rule bites a call of tool t, whose allow
// rules must permit the readings in required. A whole tool's rule
// (args_pattern "") with exceptions bites unless a name exception
// matches the tool or its argument exceptions for the tool permit the
// call as an allow list would. Any other rule with exceptions bites
// when, on a part of a command read exactly (or the whole call, when
// there is none), it bites and no exception of its own kind allows that
// unit exactly.
func (r argRule) bitesCall(t tool, c callReading, required []string) bool {
	if !r.hasUnless {
		return r.bites(c)
	}
	if r.wholeTool() {
		if !r.bites(c) || anyMatch(r.unlessNames, t) {
			return false
		}
		var rules []argRule
		for _, e := range r.unlessRules {
			if anyMatch(e.tool, t) {
				rules = append(rules, e)
			}
		}
		return !permits(rules, c, required)
	}
	units := [][]string{nil}
	if c.commandOK && len(c.command) > 0 {
		units = c.command
	}
	for _, part := range units {
		bites := r.bites(c)
		if part != nil && readsOf(r.cond) == "command" {
			bites = r.partBites(part)
		}
		if bites && !r.excepted(t, part, c) {
			return true
		}
	}
	return false
}

// wholeTool: the rule is args_pattern "", which bites every call of its
// tool.
func (r argRule) wholeTool() bool {
	return r.cond == "args_pattern" && r.pattern != nil && r.pattern.String() == ""
}

// excepted: one of the rule's exceptions of its own kind allows a unit
// of the call (a command part, or nil for the whole call) exactly.
func (r argRule) excepted(t tool, part []string, c callReading) bool {
	if anyMatch(r.unlessNames, t) {
		return true
	}
	kind := readsOf(r.cond)
	for _, e := range r.unlessRules {
		if !anyMatch(e.tool, t) || readsOf(e.cond) != kind {
			continue
		}
		if kind != "command" {
			if kindPermits(kind, []argRule{e}, c) {
				return true
			}
			continue
		}
		if part != nil && readPart(part).exact && e.allowsWords(part) {
			return true
		}
	}
	return false
}

// examplesHold: the rule's match and not_match are lists of strings, and
// it matches each of the first and none of the second (an allow rule by
// permitting a call carrying the example, a deny or ask rule by biting).
func (r argRule) examplesHold(m map[string]any, allowList bool) bool {
	for member, want := range map[string]bool{"match": true, "not_match": false} {
		x, present := m[member]
		if !present {
			continue
		}
		list, isList := x.([]any)
		if !isList {
			return false
		}
		for _, e := range list {
			var c callReading
			switch example, isString := e.(string); {
			case r.cond == "args_pattern" || r.cond == "args":
				if _, isObject := e.(map[string]any); !isObject {
					return false
				}
				c.args, c.argsOK = readArgs(e)
				c.argsJSON = canonicalJSON(c.args)
			case !isString:
				return false
			case r.cond == "domain":
				c.url, c.urlOK = readURL(example)
				c.urlReadHosts = c.url.exact || len(c.url.hosts) > 0
			case r.cond == "path":
				if !strings.HasPrefix(example, "/") {
					example = "/" + strings.TrimPrefix(example, "./")
				}
				c.paths, c.pathsOK = []string{example}, resolved(example)
				c.root = "/"
			default:
				c.command, c.commandOK = shellParts(example)
			}
			matches := r.bites(c)
			if allowList {
				matches = permits([]argRule{r}, c, nil)
			}
			if matches != want {
				return false
			}
		}
	}
	return true
}

var domainEntry = regexp.MustCompile(`^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

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

// bites: a deny or ask rule could match the call.
func (r argRule) bites(c callReading) bool {
	switch r.cond {
	case "path":
		if !c.pathsOK {
			return true
		}
		glob, anchored := r.anchored(c.root, true)
		written, _ := r.anchored(c.root, false)
		for _, p := range c.paths {
			keys, keyed := keysOf(p)
			if !keyed || !anchored || globMatches(glob, keys, "") || globMatches(written, segments(p), "/") {
				return true
			}
		}
		return false
	case "args_pattern":
		return !c.argsOK || r.pattern.MatchString(c.argsJSON)
	case "args":
		if !c.argsOK {
			return true
		}
		for name, want := range r.members {
			got, present := c.args[name]
			if !present || !mayBe(got, want) {
				return false
			}
		}
		return true
	}
	if r.cond == "domain" {
		if !c.url.exact && !c.urlReadHosts {
			return true
		}
		if c.url.exact {
			return domainNames(r.domain, c.url.host)
		}
		for _, h := range c.url.hosts {
			if domainNames(r.domain, h) {
				return true
			}
		}
		return false
	}
	if !c.commandOK {
		return true
	}
	return slices.ContainsFunc(c.command, r.partBites)
}

// partBites: a deny or ask command rule of program P may bite one part
// of a command read exactly: what it runs is not read; P is a token of a
// later word of a program not known to be inert, or a glob token may
// spell it; or the part runs P and redefines its words, or has each of
// the rule's later words bitten (any order).
func (r argRule) partBites(words []string) bool {
	p := readPart(words)
	program := programKey(r.words[0])
	if p.wrapper || p.runs[program] {
		return true
	}
	for _, g := range p.globs {
		if globMatch(g, program) {
			return true
		}
	}
	if programKey(words[0]) != program {
		return false
	}
	if p.reconfigured {
		return true
	}
	for _, w := range r.words[1:] {
		if !bitten(r.cond == "command_wildcard", program, w, words[1:]) {
			return false
		}
	}
	return true
}

// permits: the allow rules of a layer that name the call's tool let it
// through: every kind of reading they look at, and the command and URL
// the tool's rule_arguments name (required), is permitted by rules of
// its kind.
func permits(rules []argRule, c callReading, required []string) bool {
	kinds := map[string][]argRule{}
	for _, r := range rules {
		kinds[readsOf(r.cond)] = append(kinds[readsOf(r.cond)], r)
	}
	for _, k := range required {
		if _, ok := kinds[k]; !ok {
			kinds[k] = nil
		}
	}
	if len(rules) == 0 {
		return false
	}
	for kind, rs := range kinds {
		if !kindPermits(kind, rs, c) {
			return false
		}
	}
	return true
}

func readsOf(cond string) string {
	switch cond {
	case "domain":
		return "url"
	case "path":
		return "path"
	case "args", "args_pattern":
		return "args"
	}
	return "command"
}

func kindPermits(kind string, rules []argRule, c callReading) bool {
	switch kind {
	case "url":
		return slices.ContainsFunc(rules, func(r argRule) bool { return c.urlOK && c.url.exact && domainNames(r.domain, c.url.host) })
	case "args":
		return c.argsOK && slices.ContainsFunc(rules, func(r argRule) bool {
			if r.cond == "args" {
				return hasMembers(c.args, r.members)
			}
			return r.pattern.MatchString(c.argsJSON)
		})
	case "path":
		return len(rules) > 0 && c.pathsOK && allPermitted(rules, c)
	}
	if len(rules) == 0 || !c.commandOK {
		return false
	}
	for _, part := range c.command {
		if !readPart(part).exact {
			return false
		}
		if !slices.ContainsFunc(rules, func(r argRule) bool { return r.allowsWords(part) }) {
			return false
		}
	}
	return true
}

// allowsWords: a command rule allows a part's words.
func (r argRule) allowsWords(part []string) bool {
	switch r.cond {
	case "command":
		return slices.Equal(part, r.words)
	case "command_wildcard":
		return wildWords(r.words, part)
	}
	return len(part) >= len(r.words) && slices.Equal(part[:len(r.words)], r.words)
}

// allPermitted: every path of the call is matched, exactly, by one of
// the path rules.
func allPermitted(rules []argRule, c callReading) bool {
	for _, p := range c.paths {
		if !slices.ContainsFunc(rules, func(r argRule) bool {
			glob, _ := r.anchored(c.root, false)
			return globMatches(glob, segments(p), "/")
		}) {
			return false
		}
	}
	return true
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

// anchored: the rule's glob as segments from the file system's root (the
// workspace root's before a relative one), as keys when keyed; false when
// the root has no keys.
func (r argRule) anchored(root string, keyed bool) ([]string, bool) {
	var out []string
	if r.relative {
		if keyed {
			keys, ok := keysOf(root)
			if !ok {
				return nil, false
			}
			out = append(out, keys...)
		} else {
			out = append(out, segments(root)...)
		}
	}
	for _, s := range r.glob {
		if keyed && s != "**" {
			// a key may be longer or shorter than its segment: ? stands
			// for any characters, as *
			s, _ = segmentKey(s)
			s = strings.ReplaceAll(s, "?", "*")
		}
		out = append(out, s)
	}
	return out, true
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
