package gemini

import (
	"fmt"
	"strings"

	"github.com/tooleval/tooleval/internal/importer"
)

// geminiBuilder gathers the overlay's lists.
type geminiBuilder struct {
	allow, deny, ask, subDeny, subAsk importer.EntryList
	notes                             []importer.Note
}

func (b *geminiBuilder) note(r geminiRule, format string, args ...any) {
	b.notes = append(b.notes, importer.Note{Location: r.location, Text: fmt.Sprintf(format, args...)})
}

// exact are the allow entries that let through exactly what r matches,
// or fewer: for an allow rule (what is dropped is noted) and for an
// exception of a rule of lower priority (silently: the allow's own note
// says it).
func (b *geminiBuilder) exact(r geminiRule, noted bool) []any {
	note := func(format string, args ...any) {
		if noted {
			b.note(r, format, args...)
		}
	}
	if r.checker {
		return nil
	}
	if r.subagent != "" {
		note("subagent %q: tooleval's policy does not tell one sub-agent from another: an allow for one is not carried", r.subagent)
		return nil
	}
	if r.annotations {
		note("toolAnnotations: tooleval does not read a tool's annotations: an allow on them is not carried")
		return nil
	}
	if r.pattern != nil {
		note("a regular expression over the arguments' JSON text (argsPattern or commandRegex) never allows exactly: not carried (use commandPrefix, or allow the tool by name)")
		return nil
	}
	targets, _, why := geminiTargets(r.toolName, r.mcpName)
	if why != "" {
		note("%s", why)
	}
	var out []any
	for _, t := range targets {
		switch {
		case t.all:
			// a bare * allow with a command prefix cannot be (it is
			// run_shell_command only); with nothing else it ends the list
		case t.agent != "":
			if r.prefix == nil {
				out = append(out, map[string]any{"tool": geminiAgentTool, "args": map[string]any{"agent_name": t.agent}})
			}
		case r.prefix != nil:
			if t.name != ShellTool {
				note("commandPrefix on another tool than run_shell_command: not carried")
				continue
			}
			words, ok := geminiPrefixWords(*r.prefix)
			if ok && *r.prefix != strings.TrimSpace(*r.prefix) {
				note("commandPrefix %q has white space at an end, which Gemini CLI matches as written: not carried", *r.prefix)
				continue
			}
			if !ok {
				note("commandPrefix %q is not one command tooleval reads exactly (plain words): not carried", *r.prefix)
				continue
			}
			if program := strings.Fields(words)[0]; importer.IsShellWrapper(strings.ToLower(program[strings.LastIndex(program, "/")+1:])) {
				note("commandPrefix %q starts with a wrapper (sudo, env, sh ...), whose words are not the command that runs: not carried", *r.prefix)
				continue
			}
			out = append(out, map[string]any{"tool": ShellTool, "command_prefix": words})
		default:
			out = append(out, t.name)
		}
	}
	return out
}

// widened are the deny or ask entries that bite every call r matches
// (and maybe more), each with the exceptions before it (unless) that
// can concern its tool.
func (b *geminiBuilder) widened(r geminiRule, before []geminiRule) []any {
	var exceptions []any
	if !r.checker {
		seen := importer.EntryList{}
		for _, q := range before {
			if q.decision == "allow" || r.decision == "deny" && q.decision == "ask_user" {
				for _, e := range b.exact(q, false) {
					seen.Add(e)
				}
			}
		}
		exceptions = seen.Entries()
	}
	if r.subagent != "" {
		b.note(r, "subagent %q: tooleval's sub-agent policy does not tell one sub-agent from another: carried in config.subagents, for every sub-agent", r.subagent)
	}
	if r.annotations {
		b.note(r, "toolAnnotations: tooleval does not read a tool's annotations: carried for every call of its tools")
	}
	_, targets, why := geminiTargets(r.toolName, r.mcpName)
	if why != "" {
		b.note(r, "%s", why)
	}
	var expanded []geminiTarget
	for _, t := range targets {
		if !t.all {
			expanded = append(expanded, t)
			continue
		}
		for _, n := range geminiEveryTool {
			expanded = append(expanded, geminiTarget{name: n})
		}
	}
	var out []any
	patternNoted := false
	for _, t := range expanded {
		var entry map[string]any
		companion := false
		tool := t.name
		switch {
		case t.agent != "":
			if r.prefix != nil {
				continue // invoke_agent has no command
			}
			tool = geminiAgentTool
			entry = map[string]any{"tool": tool, "args": map[string]any{"agent_name": t.agent}}
		case r.prefix != nil:
			entry = b.widenedPrefix(r, tool)
		case r.pattern != nil:
			p, ok := geminiDenyPattern(*r.pattern, tool == ShellTool)
			if !ok {
				p = ""
				if !patternNoted {
					b.note(r, "a pattern tooleval cannot match as Gemini CLI does (on each part of a command, over JSON text with NULs between the members, in JavaScript's syntax): carried as a %s of every call of its tools", geminiList(r.decision))
					patternNoted = true
				}
			}
			entry = map[string]any{"tool": tool, "args_pattern": p}
			if ok && tool == ShellTool {
				companion = true
			}
		}
		var unless []any
		for _, e := range exceptions {
			if exceptionConcerns(e, tool) {
				unless = append(unless, e)
			}
		}
		if entry != nil {
			var dropped bool
			if unless, dropped = ofItsKind(entry, unless); dropped {
				b.note(r, "the rules above it that allow a command are not the exceptions of a pattern over the arguments (an exception spares a call only through its rule's reading): it bites their calls too")
			}
		}
		if len(unless) > shapeMaxEntries {
			b.note(r, "more than %d rules before it decide otherwise: the first %d are carried as its exceptions", shapeMaxEntries, shapeMaxEntries)
			unless = unless[:shapeMaxEntries]
		}
		switch {
		case entry == nil && len(unless) == 0:
			out = append(out, tool)
			continue
		case entry == nil:
			entry = map[string]any{"tool": tool, "args_pattern": ""}
		}
		if len(unless) > 0 {
			entry["unless"] = unless
		}
		out = append(out, entry)
		if companion {
			// the script of sh -c "..." is read by Gemini with a shell
			// parser before its parts are matched: bite every such call
			wrapper := map[string]any{"tool": tool, "args_pattern": geminiWrapperScript}
			if len(unless) > 0 {
				wrapper["unless"] = unless
			}
			out = append(out, wrapper)
		}
	}
	return out
}

// ofItsKind are the exceptions (unless) tooleval takes for a deny or
// ask entry: names, and argument rules that read what the entry reads
// (command, URL, paths, arguments), or every one for a whole tool's
// rule (args_pattern ""), judged as an allow list (contract: Argument
// rules). dropped says whether any was left out: without it the entry
// bites more calls than Gemini's rule, never fewer.
func ofItsKind(entry map[string]any, unless []any) (kept []any, dropped bool) {
	if p, ok := entry["args_pattern"]; ok && p == "" {
		return unless, false
	}
	reads := ruleReads(entry)
	for _, e := range unless {
		if m, ok := e.(map[string]any); ok && ruleReads(m) != reads {
			dropped = true
			continue
		}
		kept = append(kept, e)
	}
	return kept, dropped
}

// ruleReads is what an argument rule reads: command, url, path or args.
func ruleReads(rule map[string]any) string {
	for cond, reads := range map[string]string{
		"command_prefix": "command", "command": "command", "command_wildcard": "command",
		"domain": "url", "path": "path", "args_pattern": "args", "args": "args",
	} {
		if _, ok := rule[cond]; ok {
			return reads
		}
	}
	return ""
}

// shapeMaxEntries is the most exceptions a rule holds (the policy's
// shape.max_entries; TestShapeMaxEntriesIsThePolicys holds the two equal).
const shapeMaxEntries = 4096

func geminiList(decision string) string {
	if decision == "allow" {
		return "allow"
	}
	if decision == "ask_user" {
		return "ask"
	}
	return "deny"
}

// widenedPrefix is a deny or ask of a command prefix: its words, or the
// program's commands when the words are not plain, or the whole tool.
func (b *geminiBuilder) widenedPrefix(r geminiRule, tool string) map[string]any {
	if tool != ShellTool {
		b.note(r, "commandPrefix on another tool than run_shell_command: carried as a %s of every call of it", geminiList(r.decision))
		return map[string]any{"tool": tool, "args_pattern": ""}
	}
	if words, ok := geminiPrefixWords(*r.prefix); ok {
		return map[string]any{"tool": tool, "command_prefix": words}
	}
	fields := strings.Fields(*r.prefix)
	for len(fields) > 1 && strings.Contains(fields[0], "=") {
		fields = fields[1:] // the assignments in front (such a command is not read: every deny command rule bites it)
	}
	if len(fields) > 0 {
		if program, ok := geminiPrefixWords(fields[0]); ok {
			b.note(r, "commandPrefix %q is not plain words tooleval reads exactly: carried as a %s of every %q command", *r.prefix, geminiList(r.decision), program)
			return map[string]any{"tool": tool, "command_prefix": program}
		}
	}
	b.note(r, "commandPrefix %q is not a command tooleval reads exactly: carried as a %s of every shell command", *r.prefix, geminiList(r.decision))
	return map[string]any{"tool": tool, "args_pattern": ""}
}

// geminiPrefixWords: a command prefix as the words of a command_prefix
// rule, when each is a plain word (a word with = quoted, as tooleval
// reads an assignment otherwise).
func geminiPrefixWords(prefix string) (string, bool) {
	fields := strings.Fields(prefix)
	if len(fields) == 0 || len(prefix) > importer.MaxToken || strings.Contains(fields[0], "=") {
		return "", false // an assignment in front: tooleval does not read the command
	}
	for i, w := range fields {
		if !importer.PlainShellWord.MatchString(w) {
			return "", false
		}
		if strings.Contains(w, "=") {
			fields[i] = "'" + w + "'"
		}
	}
	return strings.Join(fields, " "), true
}

// exceptionConcerns: an exception (an allow entry) may match a call of
// tool (a deny entry's tool), so it belongs to that entry's exceptions.
// Leaving one in that does not concern the tool changes nothing.
func exceptionConcerns(e any, tool string) bool {
	name, ok := e.(string)
	if !ok {
		name, _ = e.(map[string]any)["tool"].(string)
	}
	name, tool = strings.ToLower(name), strings.ToLower(tool)
	switch {
	case name == tool:
		return true
	case strings.HasSuffix(tool, "*"):
		return strings.HasPrefix(name, strings.TrimSuffix(tool, "*")) || strings.HasSuffix(name, "*") && strings.HasPrefix(tool, strings.TrimSuffix(name, "*"))
	case strings.HasSuffix(name, "*"):
		return strings.HasPrefix(tool, strings.TrimSuffix(name, "*"))
	}
	return false
}

// geminiDangerous are the commands Gemini CLI asks about even where a
// rule allows every shell command, outside yolo mode (isDangerousCommand
// in packages/core/src/sandbox/utils/commandSafety.ts, which its policy
// engine applies with the sandbox on or off): rm -f, -rf or -fr, sudo of
// one, find with an option that runs or writes, rg with --pre,
// --hostname-bin, -z or --search-zip, git with a configuration override
// or status, log, diff, show or branch with arguments that write, and
// base64 -o, each looked for in the words of the whole command line. Here
// every rm, sudo, rg, git, base64 and find is asked about (the stricter
// reading of the options).
var geminiDangerous = []string{"rm", "sudo", "rg", "git", "base64", "find"}

// shellHeuristics carries what Gemini CLI does to a call that a rule
// allowing every shell command (r, the first of them; before are the
// rules above it) would allow: a dangerous command is asked about, and so
// is a redirection unless r says allowRedirection or the mode is
// autoEdit (policy-engine.ts applyShellHeuristics and
// shouldDowngradeForRedirection). A rule above that allows a command
// decides it first, so it is an exception. Headless, asks are denies.
func (b *geminiBuilder) shellHeuristics(r geminiRule, before []geminiRule, mode string, headless bool) {
	var unless []any
	for _, q := range before {
		if q.decision != "allow" {
			continue
		}
		for _, e := range b.exact(q, false) {
			if exceptionConcerns(e, ShellTool) {
				unless = append(unless, e)
			}
		}
	}
	into, list := &b.ask, "asked about"
	if headless {
		into, list = &b.deny, "refused (headless)"
	}
	add := func(entry map[string]any) {
		if kept, _ := ofItsKind(entry, unless); len(kept) > 0 {
			entry["unless"] = kept
		}
		into.Add(entry)
	}
	for _, c := range geminiDangerous {
		add(map[string]any{"tool": ShellTool, "command_prefix": c})
	}
	b.note(r, "Gemini CLI asks about the commands it calls dangerous where a rule allows every shell command: every rm, sudo, rg, git, base64 and find is %s", list)
	if !r.redirection && mode != "autoEdit" {
		add(map[string]any{"tool": ShellTool, "args_pattern": "[<>]"})
		b.note(r, "Gemini CLI asks about a redirected command where a rule without allowRedirection allows it: every shell call with < or > is %s", list)
	}
}

// yoloParseGuards: in yolo mode Gemini CLI refuses a command it cannot
// parse where the rule that matches it has a command prefix or a pattern
// ("Parsing failed for restricted rule, forcing DENY"), though it runs
// one that no rule matches. Here each command prefix allowed in yolo
// mode becomes a deny of its program's commands with the allow itself
// (and the rules above it that decide otherwise) as exceptions: it bites
// what tooleval does not read exactly (every deny command rule bites an
// unreadable command or a wrapper), which covers what Gemini cannot
// parse, and more.
func (b *geminiBuilder) yoloParseGuards(active []geminiRule) {
	for i, r := range active {
		if r.decision != "allow" || r.prefix == nil {
			continue
		}
		var above []any
		for _, q := range active[:i] {
			if q.decision != "deny" {
				for _, e := range b.exact(q, false) {
					if exceptionConcerns(e, ShellTool) {
						above = append(above, e)
					}
				}
			}
		}
		for _, e := range b.exact(r, false) {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			b.deny.Add(map[string]any{"tool": ShellTool, "command_prefix": m["command_prefix"],
				"unless": append([]any{e}, above...)})
			b.note(r, "yolo mode: Gemini CLI refuses a command it cannot parse where this rule matches it: every shell command tooleval does not read exactly, or run by a wrapper, is refused")
		}
	}
}
