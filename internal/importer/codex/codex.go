// Package codex imports Codex's exec policy rules (Starlark .rules
// files) into a tooleval configuration overlay (docs/import.md, "Codex").
package codex

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/shlex"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/tooleval/tooleval/internal/importer"
)

// Codex's exec policy (docs/import.md, "Codex"), from its public rules
// documentation (https://developers.openai.com/codex/rules) and the
// open-source execpolicy crate (codex-rs/execpolicy): a rules file is
// Starlark that calls prefix_rule(pattern, decision, match, not_match,
// justification). A command is an argument vector; a rule matches when
// its pattern is a prefix of the vector, token by token (a list in the
// pattern is a set of alternatives for one token). Every matching rule
// counts and the strictest decision wins (forbidden > prompt > allow);
// a `bash -lc` script is split into its commands, each of which must be
// allowed. A command no rule matches follows the approval policy.

// Options are the settings of the Codex runtime an import mirrors.
type Options struct {
	// ApprovalPolicy is Codex's approval_policy: "untrusted" (the
	// default here, the strictest that asks), "on-request", "on-failure"
	// or "never".
	ApprovalPolicy string
}

// ShellTools are Codex's tools that run a command, which its rules
// govern: shell takes an argument vector (command), shell_command a
// script for the user's shell (command), exec_command one too (cmd), and
// local_shell (the Responses API's built-in) nests its vector in action,
// where no rule can read it (its calls are never allowed by a rule, and
// every forbidden or prompt rule bites on them).
var ShellTools = []string{"shell", "shell_command", "exec_command", "local_shell"}

// codexReadShellTools are the shell tools whose arguments the overlay
// names (the preset's rule_arguments): all but local_shell.
var codexReadShellTools = []string{"shell", "shell_command", "exec_command"}

// Preset is the preset the overlay selects (docs/presets.md, codex):
// where each shell tool keeps its command (rule_arguments: shell an
// argument vector in command, shell_command a script in command,
// exec_command one in cmd; sandbox_permissions and exec_command's tty are
// not inert, so a call that carries one is not read), which argument of
// which tool is a path, and that a sub-agent at Codex's depth limit does
// not spawn.
const Preset = "codex"

// codexReadOnlyTools are the Codex tools outside the shell that only
// read or plan, allowed without asking under untrusted; every other tool
// (apply_patch, web_search, write_stdin, MCP tools) is asked about.
var codexReadOnlyTools = []string{"update_plan", "view_image", "list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"}

// codexTools are the Codex tools the overlay names as the runtime's
// (config.builtin_tools), so that tooleval check knows them: the shell
// tools, write_stdin (which types into a command exec_command started),
// apply_patch, and the read-only tools.
var codexTools = slices.Concat(ShellTools, []string{"write_stdin", "apply_patch", "web_search"}, codexReadOnlyTools)

// codexDangerous are the commands Codex asks about (on-request,
// on-failure) or refuses (never) when no rule matches
// (command_might_be_dangerous in codex-rs/shell-command: git reset and
// git rm, a forced rm, sudo of any of them). Here every rm and every sudo
// counts, whatever its options: Codex's list of force options has grown
// between versions.
var codexDangerous = []string{"git reset", "git rm", "rm", "sudo"}

// codexEscalations are the values of sandbox_permissions that ask to run
// outside the sandbox: Codex refuses such a call unless the approval
// policy is on-request, where it asks.
var codexEscalations = []string{"require_escalated", "with_additional_permissions"}

// maxCodexExpansion bounds the rules one prefix_rule becomes: its
// alternatives multiplied out.
const maxCodexExpansion = 256

// codexRule is one prefix_rule call, where it was made.
type codexRule struct {
	pattern  [][]string // each token's alternatives
	decision string
	match    [][]string
	notMatch [][]string
	location string
}

// Import imports Codex rules files (any order: every rule counts) into a
// configuration overlay.
func Import(files []importer.File, opts Options) (importer.Result, error) {
	policy := opts.ApprovalPolicy
	if policy == "" {
		policy = "untrusted"
	}
	if !slices.Contains([]string{"untrusted", "on-request", "on-failure", "never"}, policy) {
		return importer.Result{}, fmt.Errorf("approval policy %q: Codex's are untrusted, on-request, on-failure and never", policy)
	}
	var rules []codexRule
	var notes []importer.Note
	places := importer.NotePlaces{}
	for i, f := range files {
		got, fileNotes, err := readCodexRules(f, i, places)
		if err != nil {
			return importer.Result{}, err
		}
		rules = append(rules, got...)
		notes = append(notes, fileNotes...)
	}

	var allowList, askList, denyList importer.EntryList
	for _, r := range rules {
		list, into := r.decision, map[string]*importer.EntryList{"allow": &allowList, "prompt": &askList, "forbidden": &denyList}[r.decision]
		if r.decision == "prompt" {
			list = "ask"
			if policy == "never" {
				list, into = "deny", &denyList
				notes = append(notes, importer.Note{Location: r.location, Text: "approval policy never refuses what would be asked: carried as a deny rule"})
			}
		}
		if list == "allow" && policy != "untrusted" {
			// under on-request, on-failure and never an unmatched command
			// runs anyway: an allow rule changes nothing here
			continue
		}
		for _, e := range codexEntries(r, list, &notes) {
			into.Add(e)
		}
	}
	// what Codex does with a command no rule matches, beyond the default
	heuristics, escalations := &askList, &denyList
	switch policy {
	case "on-request":
		escalations = &askList
	case "never":
		heuristics = &denyList
	}
	if policy != "untrusted" {
		for _, cmd := range codexDangerous {
			for _, tool := range ShellTools {
				heuristics.Add(map[string]any{"tool": tool, "command_prefix": cmd})
			}
		}
	}
	for _, value := range codexEscalations {
		for _, tool := range codexReadShellTools {
			escalations.Add(map[string]any{"tool": tool, "args": map[string]any{"sandbox_permissions": value}})
		}
	}
	tools := map[string]any{"deny": denyList.List()}
	switch policy {
	case "untrusted":
		allow := importer.EntryList{}
		for _, name := range codexReadOnlyTools {
			allow.Add(name)
		}
		for _, e := range allowList.List() {
			allow.Add(e)
		}
		tools["allow"], tools["otherwise"] = allow.List(), "ask"
		notes = append(notes, importer.Note{Location: "approval policy untrusted", Text: "Codex runs the commands it knows to be safe (is_known_safe_command) without asking; here only the rules' allow and the read-only tools run without asking, every other command is asked about"})
	default:
		tools["allow"] = nil
		notes = append(notes, importer.Note{Location: "approval policy " + policy, Text: "a command no rule matches runs (Codex's sandbox, which the runtime keeps, contains it); every rm, sudo, git reset and git rm is " +
			map[bool]string{true: "refused", false: "asked about"}[policy == "never"] + " (Codex: a forced rm and the rest)"})
	}
	tools["ask"] = askList.List()
	overlay := map[string]any{"preset": Preset, "builtin_tools": importer.AnyList(codexTools), "tools": tools}
	return importer.NewResult(overlay, places.InFileOrder(notes)), nil
}

// readCodexRules runs one rules file (file number file) in a Starlark
// interpreter with Codex's builtins and returns its prefix rules; the
// places of the calls are recorded in places.
func readCodexRules(f importer.File, file int, places importer.NotePlaces) ([]codexRule, []importer.Note, error) {
	var rules []codexRule
	var notes []importer.Note
	thread := &starlark.Thread{Name: f.Name}
	thread.SetMaxExecutionSteps(10_000_000)
	at := func(thread *starlark.Thread) string {
		pos := thread.CallFrame(1).Pos
		location := fmt.Sprintf("%s:%d", f.Name, pos.Line)
		places.Add(location, importer.NotePlace{FileIndex: file, Pos: int(pos.Line)})
		return location
	}
	prefixRule := starlark.NewBuiltin("prefix_rule", func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var pattern *starlark.List
		var decision, justification, match, notMatch starlark.Value = starlark.String("allow"), starlark.None, starlark.None, starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "pattern", &pattern, "decision?", &decision,
			"match?", &match, "not_match?", &notMatch, "justification?", &justification); err != nil {
			return nil, err
		}
		r := codexRule{location: at(thread)}
		var err error
		if r.pattern, err = codexPattern(pattern); err != nil {
			return nil, err
		}
		if decision == starlark.None {
			decision = starlark.String("allow") // Codex's default, as when it is left out
		}
		d, ok := starlark.AsString(decision)
		if !ok || !slices.Contains([]string{"allow", "prompt", "forbidden"}, d) {
			return nil, fmt.Errorf("decision must be \"allow\", \"prompt\" or \"forbidden\", not %s", decision)
		}
		r.decision = d
		if err := codexJustification(justification); err != nil {
			return nil, err
		}
		if r.match, err = codexExamples(match); err != nil {
			return nil, fmt.Errorf("match: %w", err)
		}
		if r.notMatch, err = codexExamples(notMatch); err != nil {
			return nil, fmt.Errorf("not_match: %w", err)
		}
		// checked when the file loads, as Codex checks them
		for _, ex := range r.match {
			if !codexMatches(r.pattern, ex) {
				return nil, fmt.Errorf("match example %q does not match the rule", ex)
			}
		}
		for _, ex := range r.notMatch {
			if codexMatches(r.pattern, ex) {
				return nil, fmt.Errorf("not_match example %q matches the rule", ex)
			}
		}
		rules = append(rules, r)
		return starlark.None, nil
	})
	note := func(thread *starlark.Thread, text string) {
		notes = append(notes, importer.Note{Location: at(thread), Text: text})
	}
	predeclared := starlark.StringDict{
		"prefix_rule":     prefixRule,
		"host_executable": codexHostExecutable(note),
		"network_rule":    codexNetworkRule(note),
	}
	opts := &syntax.FileOptions{Set: true, While: true, TopLevelControl: true, GlobalReassign: true}
	if _, err := starlark.ExecFileOptions(opts, thread, f.Name, f.Data, predeclared); err != nil {
		var evalErr *starlark.EvalError
		if errors.As(err, &evalErr) {
			return nil, nil, importer.Invalid(f.Name, "%s", evalErr.Backtrace())
		}
		return nil, nil, importer.Invalid(f.Name, "%v", err)
	}
	if len(rules) == 0 {
		places.Add(f.Name, importer.NotePlace{FileIndex: file})
		notes = append(notes, importer.Note{Location: f.Name, Text: "no prefix_rule calls: no command rule is imported from this file"})
	}
	return rules, notes, nil
}

// codexPattern reads a pattern: a non-empty list whose elements are a
// string or a non-empty list of strings (alternatives).
func codexPattern(l *starlark.List) ([][]string, error) {
	if l.Len() == 0 {
		return nil, errors.New("pattern cannot be empty")
	}
	var out [][]string
	for i := range l.Len() {
		switch v := l.Index(i).(type) {
		case starlark.String:
			out = append(out, []string{string(v)})
		case *starlark.List:
			if v.Len() == 0 {
				return nil, errors.New("pattern alternatives cannot be empty")
			}
			var alts []string
			for j := range v.Len() {
				s, ok := v.Index(j).(starlark.String)
				if !ok {
					return nil, errors.New("pattern element must be a string or list of strings")
				}
				alts = append(alts, string(s))
			}
			out = append(out, alts)
		default:
			return nil, errors.New("pattern element must be a string or list of strings")
		}
	}
	return out, nil
}

// codexExamples reads match or not_match (None: none): a list of
// examples, each a list of tokens or a string split as a shell would
// (Codex uses shlex).
func codexExamples(v starlark.Value) ([][]string, error) {
	if v == starlark.None {
		return nil, nil
	}
	l, ok := v.(*starlark.List)
	if !ok {
		return nil, errors.New("examples are a list")
	}
	var out [][]string
	for i := range l.Len() {
		var tokens []string
		switch v := l.Index(i).(type) {
		case starlark.String:
			if strings.Contains(string(v), `\`) {
				// shlex implementations differ on backslashes: neither
				// checked nor carried
				continue
			}
			split, err := shlex.Split(string(v))
			if err != nil {
				return nil, fmt.Errorf("example string has invalid shell syntax: %q", string(v))
			}
			tokens = split
		case *starlark.List:
			for j := range v.Len() {
				s, ok := v.Index(j).(starlark.String)
				if !ok {
					return nil, errors.New("an example list holds strings only")
				}
				tokens = append(tokens, string(s))
			}
		default:
			return nil, errors.New("an example is a string or a list of strings")
		}
		if len(tokens) == 0 {
			return nil, errors.New("an example cannot be empty")
		}
		out = append(out, tokens)
	}
	return out, nil
}

// codexMatches: the pattern is a prefix of argv, token by token.
func codexMatches(pattern [][]string, argv []string) bool {
	if len(argv) < len(pattern) {
		return false
	}
	for i, alts := range pattern {
		if !slices.Contains(alts, argv[i]) {
			return false
		}
	}
	return true
}

// codexEntries are the entries of list ("allow", "ask" or "deny") one
// rule becomes: a command_prefix rule for each shell tool and each
// combination of its alternatives. A rule tooleval cannot write exactly
// is dropped from an allow list (narrower) and widened in a deny or ask
// list (to the tokens before the first one it cannot write, or the
// alternatives of the program).
func codexEntries(r codexRule, list string, notes *[]importer.Note) []any {
	note := func(format string, args ...any) {
		*notes = append(*notes, importer.Note{Location: r.location, Text: fmt.Sprintf(format, args...)})
	}
	pattern := r.pattern
	expressible := len(pattern)
	for i, alts := range pattern {
		if slices.ContainsFunc(alts, func(t string) bool { _, ok := shellWord(t); return !ok }) {
			expressible = i
			break
		}
	}
	if expressible < len(pattern) {
		if list == "allow" || expressible == 0 {
			note("a token tooleval cannot write as a word (a quote of each kind, or NUL): %s", codexDropped(list))
			if list == "allow" {
				return nil
			}
			return importer.AnyList(ShellTools) // every call of the shell tools
		}
		note("a token tooleval cannot write as a word: carried as a %s of the tokens before it", list)
		pattern = pattern[:expressible]
	}
	if n := expansion(pattern); n > maxCodexExpansion {
		if list == "allow" {
			note("its alternatives make %d rules, more than %d: not carried", n, maxCodexExpansion)
			return nil
		}
		note("its alternatives make %d rules, more than %d: carried as a %s of each program it names", n, maxCodexExpansion, list)
		pattern = pattern[:1]
	}
	var prefixes [][]string
	all := combinations(pattern)
	combined := len(all)
	for _, p := range all {
		if list == "allow" && importer.IsShellWrapper(p[0][strings.LastIndex(p[0], "/")+1:]) {
			note("%q starts with a wrapper (sudo, env, sh ...), whose words are not the command that runs: not carried", strings.Join(p, " "))
			continue
		}
		prefixes = append(prefixes, p)
	}
	var out []any
	for _, p := range prefixes {
		words := make([]string, len(p))
		for i, t := range p {
			words[i], _ = shellWord(t)
		}
		for _, tool := range ShellTools {
			if tool == "local_shell" && list == "allow" {
				continue // its command cannot be read: an allow rule never lets it through
			}
			entry := map[string]any{"tool": tool, "command_prefix": strings.Join(words, " ")}
			// the examples come along when the rule is one prefix, as
			// tests tooleval check runs; a not_match example may be
			// bitten by a deny or ask rule, which bites more widely
			// (any path of the program, options between its words)
			if combined == 1 && len(pattern) == len(r.pattern) && tool != "local_shell" {
				if ex := carriedExamples(r.match); len(ex) > 0 {
					entry["match"] = ex
				}
				if ex := carriedExamples(r.notMatch); len(ex) > 0 && list == "allow" {
					entry["not_match"] = ex
				}
			}
			out = append(out, entry)
		}
	}
	return out
}

func codexDropped(list string) string {
	if list == "allow" {
		return "not carried"
	}
	return "carried as a " + list + " of every command"
}

// carriedExamples are the examples tooleval reads as Codex does: argument
// vectors of words it can write, none of them a shell started on a script
// (which tooleval reads as the script, as Codex decides it, but which
// Codex's example check matches whole).
func carriedExamples(examples [][]string) []any {
	var out []any
	for _, ex := range examples {
		if slices.ContainsFunc(ex, func(t string) bool { _, ok := shellWord(t); return !ok || t == "" }) || codexScript(ex) {
			continue
		}
		out = append(out, importer.AnyList(ex))
	}
	return out
}

// codexScript: argv is a shell started on a script, which Codex splits.
func codexScript(argv []string) bool {
	return len(argv) == 3 && slices.Contains([]string{"sh", "bash", "zsh"}, argv[0][strings.LastIndex(argv[0], "/")+1:]) &&
		(argv[1] == "-c" || argv[1] == "-lc")
}

func expansion(pattern [][]string) int {
	n := 1
	for _, alts := range pattern {
		n *= len(alts)
		if n > maxCodexExpansion*maxCodexExpansion {
			return n
		}
	}
	return n
}

// combinations multiplies out a pattern's alternatives, in order.
func combinations(pattern [][]string) [][]string {
	out := [][]string{nil}
	for _, alts := range pattern {
		var next [][]string
		for _, prefix := range out {
			for _, a := range alts {
				next = append(next, append(slices.Clone(prefix), a))
			}
		}
		out = next
	}
	return out
}

// shellWord writes token as one word that tooleval's shell reading reads
// back as exactly token: as it is when nothing in it is special (and it
// is not an assignment), else in single quotes, else in double quotes;
// false when none of these can (it holds both kinds of quote, or NUL).
func shellWord(token string) (string, bool) {
	switch {
	case strings.ContainsRune(token, 0) || len(token) > importer.MaxToken:
		return "", false
	case importer.PlainShellWord.MatchString(token) && !strings.Contains(token, "="):
		return token, true
	case !strings.Contains(token, "'"):
		return "'" + token + "'", true
	case !strings.ContainsAny(token, "\"$`\\!"):
		return `"` + token + `"`, true
	}
	return "", false
}
