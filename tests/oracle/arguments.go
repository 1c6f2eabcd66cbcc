package oracle

import (
	"regexp"
	"slices"
	"strings"
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

var domainEntry = regexp.MustCompile(`^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)

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
