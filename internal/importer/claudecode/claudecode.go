// Package claudecode imports Claude Code's permission settings
// (settings.json files: permissions.allow, ask, deny, defaultMode) into a
// tooleval configuration overlay (docs/import.md, "Claude Code").
package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/tooleval/tooleval/internal/importer"
)

// Claude Code's permission settings, as its public documentation gives
// them (code.claude.com/docs/en/permissions, /settings,
// /permission-modes and /tools-reference):
//
//   - permissions.allow, ask and deny are lists of rules, Tool or
//     Tool(specifier), evaluated deny, then ask, then allow: the first
//     that matches wins.
//   - A call that no rule matches follows permissions.defaultMode.
//   - Settings files merge: the lists of every file apply, so a deny at
//     any level wins; the mode is the one the file of highest
//     precedence sets.
//
// The overlay is the claude_code preset and the global policy
// (config.tools): deny, ask and allow lists with argument rules, and
// otherwise "ask" where the mode asks about what no rule allows.

// claudePermissionFree are the tools the tools reference marks
// "Permission Required: No": they run without asking in every mode but
// plan's and dontAsk's own limits. A tool it marks Yes, or does not list
// here, is asked about unless a rule allows it (the stricter reading for
// a tool this list does not know).
var claudePermissionFree = []string{
	"Agent", "AskUserQuestion", "CronCreate", "CronDelete", "CronList", "EnterPlanMode",
	"EnterWorktree", "ExitWorktree", "Glob", "Grep", "LSP", "ListMcpResourcesTool", "Read",
	"ReadMcpResourceTool",
}

// claudeEditTools are the tools an Edit rule applies to ("Edit rules
// apply to all built-in tools that edit files"), and acceptEdits allows.
var claudeEditTools = []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}

// claudeReadTools are the tools a Read rule with a path applies to:
// Read, Grep and LSP, whose path arguments a path rule reads ("a
// best-effort attempt to apply Read rules to all built-in tools that read
// files like Grep and Glob"). Glob is left out: it names files by a
// pattern, which a path rule cannot read, so a path rule would refuse
// every Glob call (noted). A bare Read rule also covers Glob.
var claudeReadTools = []string{"Read", "Grep", "LSP"}

// claudeProtectedPaths are the directories whose writes Claude Code
// never approves on its own outside bypassPermissions ("protected
// paths", docs/presets.md): an edit there is asked about.
var claudeProtectedPaths = []string{".git", ".claude", ".vscode", ".idea"}

// claudeTools are the tool names as Claude Code spells them (the tools
// reference, and the claude_code preset's names and aliases). Claude
// Code's tool names are case-sensitive: an allow rule naming a tool by
// another spelling ("bash") matches nothing there and is not carried.
var claudeTools = map[string]bool{
	"Agent": true, "AskUserQuestion": true, "Bash": true, "BashOutput": true, "CronCreate": true,
	"CronDelete": true, "CronList": true, "Edit": true, "EnterPlanMode": true, "EnterWorktree": true,
	"ExitPlanMode": true, "ExitWorktree": true, "Glob": true, "Grep": true, "KillShell": true, "LS": true,
	"LSP": true, "ListMcpResourcesTool": true, "Monitor": true, "MultiEdit": true, "NotebookEdit": true,
	"NotebookRead": true, "PowerShell": true, "Read": true, "ReadMcpResourceTool": true, "SendMessage": true,
	"Skill": true, "SlashCommand": true, "Task": true, "TaskCreate": true, "TaskGet": true, "TaskList": true,
	"TaskOutput": true, "TaskStop": true, "TaskUpdate": true, "TodoWrite": true, "ToolSearch": true,
	"WebFetch": true, "WebSearch": true, "Write": true,
}

type claudeSettings struct {
	Permissions *claudePermissions `json:"permissions"`
	Hooks       json.RawMessage    `json:"hooks"`
}

type claudePermissions struct {
	Allow                        []string `json:"allow"`
	Ask                          []string `json:"ask"`
	Deny                         []string `json:"deny"`
	DefaultMode                  *string  `json:"defaultMode"`
	AdditionalDirectories        []string `json:"additionalDirectories"`
	DisableBypassPermissionsMode *string  `json:"disableBypassPermissionsMode"`
}

// claudeRule is one rule of a settings file, where it was found.
type claudeRule struct {
	text, location string
}

// claudeRuleSyntax is Tool or Tool(specifier). The tool is read as
// written, whatever its characters, so that a deny or ask of a name
// Claude Code does not spell that way is still carried (tooleval compares
// names canonically: it bites more), while an allow of it is not.
var claudeRuleSyntax = regexp.MustCompile(`^([^\s()]+)(?:\((.*)\))?$`)

// claudeMCPExact is an MCP rule whose name tooleval compares as Claude
// Code does: Claude Code compares names exactly and writes an MCP
// server's and tool's names with letters, digits, _ and - only;
// tooleval compares them canonically (any case, full-width and
// zero-width characters folded), so an allow is carried only when its
// name is lower-case ASCII, which no other spelling folds onto.
var claudeMCPExact = regexp.MustCompile(`^mcp__[a-z0-9_-]+(__[a-z0-9_-]*\*?)?$`)

// Import imports Claude Code settings files, given lowest precedence
// first (user, project, local, managed), into a configuration overlay.
func Import(files []importer.File) (importer.Result, error) {
	var allow, ask, deny []claudeRule
	mode, modeAt := "default", ""
	disableBypass := false
	var notes []importer.Note
	places := importer.NotePlaces{}
	for i, f := range files {
		var s claudeSettings
		dec := json.NewDecoder(bytes.NewReader(f.Data))
		if err := dec.Decode(&s); err != nil {
			return importer.Result{}, importer.Invalid(f.Name, "a settings file is a JSON object (%s)", importer.JSONProblem(err))
		}
		if dec.More() {
			return importer.Result{}, importer.Invalid(f.Name, "a settings file is one JSON object")
		}
		places.JSONPlaces(i, f.Name, f.Data)
		rules := 0
		if s.Permissions != nil {
			rules = len(s.Permissions.Allow) + len(s.Permissions.Ask) + len(s.Permissions.Deny)
		}
		notes = append(notes, claudeUnknownKeys(f, rules)...)
		if len(s.Hooks) > 0 && string(s.Hooks) != "null" && string(s.Hooks) != "{}" {
			notes = append(notes, importer.Note{Location: f.Name + ": hooks", Text: "not carried: a PreToolUse hook's decisions are its own; keep the hook in the runtime"})
		}
		p := s.Permissions
		if p == nil {
			continue
		}
		for _, list := range []struct {
			name  string
			rules []string
			into  *[]claudeRule
		}{{"allow", p.Allow, &allow}, {"ask", p.Ask, &ask}, {"deny", p.Deny, &deny}} {
			for i, r := range list.rules {
				at := fmt.Sprintf("%s: permissions.%s[%d]", f.Name, list.name, i)
				if !claudeRuleSyntax.MatchString(r) {
					return importer.Result{}, importer.Invalid(at, "%q is not a rule (Tool or Tool(specifier))", r)
				}
				*list.into = append(*list.into, claudeRule{r, at})
			}
		}
		if p.DefaultMode != nil {
			mode, modeAt = *p.DefaultMode, f.Name+": permissions.defaultMode"
		}
		if p.DisableBypassPermissionsMode != nil && *p.DisableBypassPermissionsMode == "disable" {
			disableBypass = true
		}
		if len(p.AdditionalDirectories) > 0 {
			notes = append(notes, importer.Note{Location: f.Name + ": permissions.additionalDirectories",
				Text: "not carried: directories are the request's workspace (workspace.read_roots), which the runtime sends; none is added"})
		}
	}

	m, err := claudeModeOf(mode, modeAt, disableBypass, &notes)
	if err != nil {
		return importer.Result{}, err
	}
	var allowList, askList, denyList importer.EntryList
	deniedNames := map[string]bool{}
	for _, r := range deny {
		for _, e := range claudeEntries(r, "deny", &notes) {
			denyList.Add(e)
			if name, ok := e.(string); ok {
				deniedNames[name] = true
			}
		}
	}
	for _, r := range ask {
		into := &askList
		if m.asksAreDenied {
			into = &denyList
			notes = append(notes, importer.Note{Location: r.location, Text: fmt.Sprintf("%s: dontAsk denies what would be asked: carried as a deny rule", r.text)})
		}
		for _, e := range claudeEntries(r, "ask", &notes) {
			into.Add(e)
		}
	}
	if !m.allowAll {
		for _, name := range claudePermissionFree {
			if !deniedNames[name] {
				allowList.Add(name)
			}
		}
		if m.acceptEdits {
			for _, name := range claudeEditTools {
				if !deniedNames[name] {
					allowList.Add(name)
				}
			}
		}
		for _, r := range allow {
			if m.readOnly {
				notes = append(notes, importer.Note{Location: r.location, Text: fmt.Sprintf("%s: plan mode runs read-only tools only: not carried", r.text)})
				continue
			}
			for _, e := range claudeEntries(r, "allow", &notes) {
				allowList.Add(e)
			}
		}
	}
	if !m.allowAll {
		// writes to protected paths are never approved on their own
		into := &askList
		if m.asksAreDenied {
			into = &denyList
		}
		for _, t := range claudeEditTools {
			for _, p := range claudeProtectedPaths {
				into.Add(map[string]any{"tool": t, "path": p})
			}
		}
	}
	if at := firstReadRule(slices.Concat(deny, ask)); at != "" {
		notes = append(notes, importer.Note{Location: at, Text: "Read rules with a path apply to Read, Grep and LSP here, on the paths they name: Glob (files named by a pattern) and a Grep over a directory that holds the file escape them; deny Glob or Grep by name if that matters"})
	}

	tools := map[string]any{
		"deny":      denyList.List(),
		"ask":       askList.List(),
		"otherwise": m.otherwise,
	}
	if m.allowAll {
		tools["allow"] = nil
	} else {
		tools["allow"] = allowList.List()
	}
	return importer.NewResult(map[string]any{"preset": "claude_code", "tools": tools}, places.InFileOrder(notes)), nil
}

// claudeMode is what a permission mode makes of the overlay.
type claudeMode struct {
	allowAll      bool   // bypassPermissions: no allow list
	acceptEdits   bool   // file edits and the named filesystem commands run
	readOnly      bool   // plan: only the permission-free tools
	asksAreDenied bool   // dontAsk: whatever would ask is denied
	otherwise     string // what a call no rule allows gets
}

func claudeModeOf(mode, at string, disableBypass bool, notes *[]importer.Note) (claudeMode, error) {
	switch mode {
	case "default", "manual":
		return claudeMode{otherwise: "ask"}, nil
	case "acceptEdits":
		*notes = append(*notes, importer.Note{Location: at, Text: "acceptEdits: file edits run without asking (not in protected paths); its filesystem commands (mkdir, touch, mv, cp, etc.) are asked about, since tooleval cannot tell that their paths stay in the working directory; edits outside the workspace are refused by the workspace rules"})
		return claudeMode{acceptEdits: true, otherwise: "ask"}, nil
	case "plan":
		*notes = append(*notes, importer.Note{Location: at, Text: "plan: read-only tools run, everything else is refused (read-only shell commands too: tooleval cannot tell them)"})
		return claudeMode{readOnly: true, otherwise: "deny"}, nil
	case "dontAsk":
		return claudeMode{asksAreDenied: true, otherwise: "deny"}, nil
	case "auto":
		*notes = append(*notes, importer.Note{Location: at, Text: "auto: its classifier cannot be carried; read as default (what no rule allows is asked about)"})
		return claudeMode{otherwise: "ask"}, nil
	case "bypassPermissions":
		if disableBypass {
			*notes = append(*notes, importer.Note{Location: at, Text: "bypassPermissions is disabled (disableBypassPermissionsMode): read as default"})
			return claudeMode{otherwise: "ask"}, nil
		}
		*notes = append(*notes, importer.Note{Location: at, Text: "bypassPermissions: every tool runs, but deny and ask rules still apply (the stricter reading)"})
		return claudeMode{allowAll: true, otherwise: "deny"}, nil
	}
	return claudeMode{}, importer.Invalid(at, "%q is not a permission mode (default, acceptEdits, plan, auto, dontAsk, bypassPermissions)", mode)
}

// firstReadRule is the location of the first Read rule with a
// specifier of rules, or "".
func firstReadRule(rules []claudeRule) string {
	for _, r := range rules {
		if strings.HasPrefix(r.text, "Read(") {
			return r.location
		}
	}
	return ""
}

// claudeEntries are the overlay entries of one rule in a list (allow,
// ask or deny). What tooleval cannot express exactly is carried in its
// stricter reading: an allow is dropped or narrowed, a deny or ask
// widened, with a note.
func claudeEntries(r claudeRule, list string, notes *[]importer.Note) []any {
	m := claudeRuleSyntax.FindStringSubmatch(r.text)
	tool, spec, hasSpec := m[1], m[2], strings.Contains(r.text, "(")
	note := func(format string, args ...any) {
		*notes = append(*notes, importer.Note{Location: r.location, Text: r.text + ": " + fmt.Sprintf(format, args...)})
	}
	if strings.HasPrefix(tool, "mcp__") {
		server, _, _ := strings.Cut(strings.TrimPrefix(tool, "mcp__"), "__")
		if server == "" || strings.Contains(server, "*") || hasSpec {
			note("not an MCP server or tool tooleval can name: not carried")
			return nil
		}
		if list == "allow" && !claudeMCPExact.MatchString(tool) {
			// Claude Code compares names exactly, tooleval canonically: an
			// allow would also cover another server's or tool's spelling
			note("tooleval compares MCP names canonically (any case, full-width and zero-width characters folded), Claude Code exactly: an allow of a name with capitals or other characters than a-z, 0-9, _ and - is not carried (spell the server and tool in lower case to carry it)")
			return nil
		}
		return []any{claudeToolName(tool)}
	}
	if !claudeTools[tool] {
		if list == "allow" {
			note("Claude Code has no tool spelled %q (tool names are case-sensitive): not carried", tool)
			return nil
		}
		if strings.Contains(tool, "*") {
			note("not a tool name: not carried")
			return nil
		}
		note("Claude Code has no tool spelled %q: carried as a %s of every tool of that name in any case", tool, list)
		return []any{tool}
	}
	if !hasSpec || spec == "*" {
		if list == "allow" {
			// an allow lets through the tool it names, never the others
			// a deny of it also covers (narrower: a Write under an Edit
			// allow is asked about)
			return []any{tool}
		}
		switch tool { // the rule covers every tool it applies to
		case "Edit":
			return importer.AnyList(claudeEditTools)
		case "Read":
			return importer.AnyList(append(slices.Clone(claudeReadTools), "Glob"))
		}
		return []any{tool}
	}
	// what a rule that cannot be expressed becomes
	unexpressible := func(why string) []any {
		if list == "allow" {
			note("%s: not carried (its calls are asked about or refused)", why)
			return nil
		}
		note("%s: carried as a %s of every %s call", why, list, tool)
		return []any{tool}
	}
	switch tool {
	case "Bash":
		return claudeBash(tool, spec, list, note, unexpressible)
	case "Read":
		out := claudePath(tool, spec, list, note, unexpressible)
		if list != "allow" {
			out = append(out, claudeReadShell(spec)...)
		}
		return out
	case "Edit":
		return claudePath(tool, spec, list, note, unexpressible)
	case "Write", "MultiEdit", "NotebookEdit":
		// Claude Code reads the path rules of file edits under the name
		// Edit only ("Edit rules apply to all built-in tools that edit
		// files", code.claude.com/docs/en/permissions): a Write(PATH)
		// rule applies to no call (seen with the pinned release: an
		// allow lets nothing through, a deny refuses nothing)
		if list == "allow" {
			note("Claude Code applies no path rule named %s, only Edit(PATH) rules, to file edits: it lets nothing through, not carried (write Edit(%s) to allow edits there)", tool, spec)
			return nil
		}
		note("Claude Code applies no path rule named %s, only Edit(PATH) rules, to file edits: it refuses nothing there; carried as written (stricter than Claude Code)", tool)
		return claudePath(tool, spec, list, note, unexpressible)
	case "WebFetch":
		domain, ok := strings.CutPrefix(spec, "domain:")
		if !ok || !claudeDomain.MatchString(domain) {
			return unexpressible("not a domain:NAME specifier tooleval reads")
		}
		return []any{map[string]any{"tool": tool, "domain": strings.ToLower(domain)}}
	case "Agent", "Task":
		if !claudeAgentType.MatchString(spec) {
			return unexpressible("not an agent type")
		}
		return []any{map[string]any{"tool": "Agent", "args": map[string]any{"subagent_type": spec}}}
	}
	return unexpressible("tooleval has no argument rule for this specifier")
}

var (
	claudeDomain    = regexp.MustCompile(`^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$`)
	claudeAgentType = regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`)
	// a command word tooleval reads exactly: nothing a shell expands
	claudeWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)
)

// claudeToolName is a rule's tool as a list entry: MCP server rules
// (mcp__server, which in Claude Code matches every tool of the server)
// become mcp__server__*.
func claudeToolName(tool string) string {
	if strings.HasPrefix(tool, "mcp__") && !strings.Contains(strings.TrimPrefix(tool, "mcp__"), "__") {
		return tool + "__*"
	}
	return tool
}

// claudeBash reads a Bash specifier: "cmd:*" and "cmd *" are prefixes of
// words, a specifier without * the command itself, one with a * inside a
// word or between words (but not in the program) a wildcard, which
// tooleval matches by words, not text. Anything else is not one command
// tooleval reads exactly: an allow is dropped (a lone "prog*" is
// narrowed to the prefix "prog"), a deny or ask widened to every command
// of its program, or to every Bash call when the program has a *.
func claudeBash(tool, spec, list string, note func(string, ...any), unexpressible func(string) []any) []any {
	words := strings.Fields(spec)
	if len(spec) > 1000 {
		return unexpressible("a command longer than tooleval reads in a rule")
	}
	if first := strings.Fields(strings.TrimSuffix(spec, ":*")); list == "allow" && len(first) > 0 &&
		importer.IsShellWrapper(first[0][strings.LastIndex(first[0], "/")+1:]) {
		return unexpressible("a command run by a wrapper (sudo, env, sh ...), whose words are not the command that runs")
	}
	prefix, isPrefix := strings.CutSuffix(spec, ":*")
	if !isPrefix {
		prefix, isPrefix = strings.CutSuffix(spec, " *")
	}
	if isPrefix && plainWords(strings.Fields(prefix)) {
		return []any{map[string]any{"tool": tool, "command_prefix": strings.Join(strings.Fields(prefix), " ")}}
	}
	if !strings.Contains(spec, "*") && plainWords(words) {
		return []any{map[string]any{"tool": tool, "command": strings.Join(words, " ")}}
	}
	if len(words) == 0 {
		return unexpressible("an empty command")
	}
	program := words[0]
	// a * inside a word matches spaces in Claude Code, but one word in
	// tooleval: exact enough for an allow (narrower), not for a deny
	innerStar := slices.ContainsFunc(words[1:], func(w string) bool { return w != "*" && strings.Contains(w, "*") })
	if !strings.Contains(program, "*") && plainWords(strings.Fields(strings.ReplaceAll(spec, "*", "x"))) && (list == "allow" || !innerStar) {
		if list != "allow" {
			note("a wildcard, which tooleval matches by words: it bites every command with these words in order")
		}
		return []any{map[string]any{"tool": tool, "command_wildcard": strings.Join(words, " ")}}
	}
	stem := strings.TrimSuffix(program, "*")
	switch {
	case list == "allow" && len(words) == 1 && plainWords([]string{stem}):
		note("Claude Code's %q also matches longer program names: carried as the prefix %q (that program only)", spec, stem)
		return []any{map[string]any{"tool": tool, "command_prefix": stem}}
	case list != "allow" && plainWords([]string{program}):
		note("not one command tooleval reads exactly: carried as a %s of every %q command", list, program)
		return []any{map[string]any{"tool": tool, "command_prefix": program}}
	}
	return unexpressible("not one command tooleval reads exactly")
}

// plainWords: every word is one tooleval reads as written, and the first
// is not an assignment.
func plainWords(words []string) bool {
	return len(words) > 0 && !strings.Contains(words[0], "=") &&
		!slices.ContainsFunc(words, func(w string) bool { return !claudeWord.MatchString(w) })
}
