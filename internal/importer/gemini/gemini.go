// Package gemini imports Gemini CLI's policy files (TOML, of the user and
// admin tiers, with Gemini's default policies) into a tooleval
// configuration overlay (docs/import.md, "Gemini CLI").
package gemini

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/tooleval/tooleval/internal/importer"
)

// Gemini CLI's policy engine (docs/import.md, "Gemini CLI"), from its
// public reference (docs/reference/policy-engine.md) and its open-source
// engine (packages/core/src/policy in google-gemini/gemini-cli):
//
//   - A policy file is TOML with [[rule]] tables: toolName (a name or a
//     list), mcpName, argsPattern, commandPrefix (a string or a list),
//     commandRegex, decision (allow, deny, ask_user), priority (0-999),
//     modes, interactive, subagent, toolAnnotations, allowRedirection.
//   - A rule's priority is its tier plus priority/1000 (default 1, user
//     4, admin 5). The rule of highest priority that matches decides;
//     among equals, the one loaded first. Nothing matching: ask_user,
//     deny when headless, allow in yolo mode.
//   - A shell command is decided whole and then part by part (pipes,
//     lists, substitutions, bash -c scripts), the strictest decision
//     winning.
//
// The overlay is plain configuration: Gemini's tool names
// (builtin_tools), where run_shell_command keeps its command
// (rule_arguments) and the global policy (config.tools), whose deny and
// ask rules carry as exceptions (unless) the rules of higher priority
// that decide otherwise, so that an allow of higher priority narrows a
// lower deny exactly.

// Options are the settings of the Gemini CLI run an import mirrors.
type Options struct {
	// ApprovalMode is Gemini's approval mode: "default" (when empty),
	// "autoEdit", "plan" or "yolo". A rule with modes applies in those
	// only.
	ApprovalMode string
	// Headless is a non-interactive run (gemini -p): ask_user is deny.
	Headless bool
	// Admin are policy files of the admin tier (Gemini's system policy
	// directory and --admin-policy); the files given to Gemini are of the
	// user tier.
	Admin []importer.File
	// NoDefaults leaves out the policies Gemini CLI ships (tier 1).
	NoDefaults bool
}

// Gemini's policy tiers (packages/core/src/policy/config.ts).
const (
	geminiDefaultTier = 1
	geminiUserTier    = 4
	geminiAdminTier   = 5
)

// ShellTool is Gemini CLI's shell tool; its command is `command`.
const ShellTool = "run_shell_command"

// geminiAgentTool is the tool that runs a sub-agent: a rule naming the
// sub-agent (its agent_name) applies to it.
const geminiAgentTool = "invoke_agent"

// geminiTools are Gemini CLI's built-in tools (ALL_BUILTIN_TOOL_NAMES in
// packages/core/src/tools/tool-names.ts), named in the overlay's
// builtin_tools.
var geminiTools = []string{
	"glob", "write_todos", "write_file", "google_web_search", "web_fetch", "replace", ShellTool,
	"grep_search", "read_many_files", "read_file", "list_directory", "activate_skill", "ask_user",
	"tracker_create_task", "tracker_update_task", "tracker_get_task", "tracker_list_tasks",
	"tracker_add_dependency", "tracker_visualize", "get_internal_docs", "enter_plan_mode",
	"exit_plan_mode", "update_topic", "complete_task", geminiAgentTool, "read_mcp_resource",
	"list_mcp_resources",
}

// geminiLegacyNames are Gemini's other names of a tool (TOOL_LEGACY_ALIASES):
// a rule naming either matches both. A runtime that declares a tool by
// its legacy name reaches it by that name: a deny or ask names both, an
// allow the current one.
var geminiLegacyNames = map[string]string{"search_file_content": "grep_search"}

// geminiEveryTool are the entries a deny or ask that matches every tool
// becomes: the built-in tools and their legacy names, the tools Gemini
// discovers by command (discovered_tool_NAME) and every MCP tool.
var geminiEveryTool = slices.Concat(geminiTools, []string{"search_file_content", geminiDiscoveredTools, "mcp__*"})

// Preset is the preset the overlay selects (docs/presets.md,
// gemini_cli): Gemini CLI's tool names, where run_shell_command keeps its
// command (rule_arguments), which argument of which tool is a path, and
// what a sub-agent may not call (invoke_agent, update_topic).
const Preset = "gemini_cli"

var geminiModes = []string{"default", "autoEdit", "plan", "yolo"}

// geminiRule is one rule of a policy file for one tool name and one
// command prefix (Gemini's loader makes as many), in the order loaded.
type geminiRule struct {
	location    string
	rank        int // tier*1000 + priority
	decision    string
	toolName    string
	mcpName     *string
	subagent    string
	annotations bool
	prefix      *string // commandPrefix
	pattern     *string // argsPattern, or commandRegex as Gemini writes it
	redirection bool
	modes       map[string]bool // nil: every mode
	interactive *bool           // nil: both
	checker     bool            // a safety checker, carried as a deny
	notes       []string        // said when the rule is in force
}

// Import imports Gemini CLI policy files of the user tier (and
// opts.Admin of the admin tier), in the order Gemini loads them, with
// Gemini's default policies unless opts.NoDefaults.
func Import(files []importer.File, opts Options) (importer.Result, error) {
	mode := opts.ApprovalMode
	if mode == "" {
		mode = "default"
	}
	if !slices.Contains(geminiModes, mode) {
		return importer.Result{}, fmt.Errorf("approval mode %q: Gemini CLI's are default, autoEdit, plan and yolo", mode)
	}
	var rules []geminiRule
	var notes []importer.Note
	places, read := importer.NotePlaces{}, 0 // read: the files read so far, in Gemini's order
	load := func(fs []importer.File, tier int) error {
		for _, f := range fs {
			got, fileNotes, err := readGeminiPolicy(f, tier, places, read)
			read++
			if err != nil {
				return err
			}
			rules = append(rules, got...)
			notes = append(notes, fileNotes...)
		}
		return nil
	}
	if err := load(opts.Admin, geminiAdminTier); err != nil {
		return importer.Result{}, err
	}
	if err := load(files, geminiUserTier); err != nil {
		return importer.Result{}, err
	}
	if !opts.NoDefaults {
		if err := load(geminiDefaultPolicies(), geminiDefaultTier); err != nil {
			return importer.Result{}, fmt.Errorf("gemini default policies: %w", err)
		}
	}
	// the rules in force, highest priority first (stable: the first
	// loaded wins a tie, as in Gemini's engine)
	var active []geminiRule
	asked := false
	for _, r := range rules {
		if r.applies(mode, opts.Headless) {
			if opts.Headless && r.decision == "ask_user" {
				r.decision, asked = "deny", true // ask_user is deny when headless
			}
			active = append(active, r)
		}
	}
	if asked {
		notes = append(notes, importer.Note{Location: "--headless", Text: "Gemini CLI refuses what it would ask about when it runs non-interactively: its ask_user rules are carried as deny rules"})
	}
	sort.SliceStable(active, func(i, j int) bool { return active[i].rank > active[j].rank })

	// what Gemini does with a call no rule matches, unless a rule that
	// matches every call decides it first (the rules after it never do)
	fallback := "ask_user"
	switch {
	case mode == "yolo":
		fallback = "allow"
	case opts.Headless:
		fallback = "deny"
	}
	var catchAll *geminiRule
	for i, r := range active {
		if r.matchesEverything() {
			fallback, catchAll = r.decision, &r
			active = active[:i]
			break
		}
	}

	b := geminiBuilder{notes: notes}
	shellAllow, shellAllowAt := catchAll, len(active) // the first rule that allows every shell command
	if catchAll != nil && catchAll.decision != "allow" {
		shellAllow = nil
	}
	for i, r := range active {
		for _, n := range r.notes {
			b.notes = append(b.notes, importer.Note{Location: r.location, Text: n})
		}
		switch {
		case r.decision == "allow":
			exact := b.exact(r, true)
			for _, e := range exact {
				b.allow.Add(e)
			}
			if shellAllowAt == len(active) && r.prefix == nil && slices.Contains(exact, any(ShellTool)) {
				shellAllow, shellAllowAt = &r, i
			}
		case r.subagent != "":
			into := map[string]*importer.EntryList{"deny": &b.subDeny, "ask_user": &b.subAsk}[r.decision]
			for _, e := range b.widened(r, active[:i]) {
				into.Add(e)
			}
		default:
			into := map[string]*importer.EntryList{"deny": &b.deny, "ask_user": &b.ask}[r.decision]
			for _, e := range b.widened(r, active[:i]) {
				into.Add(e)
			}
			if r.decision == "ask_user" && fallback == "deny" {
				// a call an ask rule matches is asked about, not refused
				// as one the allow list does not hold
				for _, e := range b.exact(r, false) {
					b.allow.Add(e)
				}
			}
		}
	}
	if shellAllow != nil && mode != "yolo" {
		b.shellHeuristics(*shellAllow, active[:shellAllowAt], mode, opts.Headless)
	}
	if mode == "yolo" {
		b.yoloParseGuards(active)
	}
	b.protections(opts.Headless)
	tools := map[string]any{"deny": b.deny.List(), "ask": b.ask.List()}
	switch fallback {
	case "allow":
		tools["allow"] = nil
	case "deny":
		tools["allow"], tools["otherwise"] = b.allow.List(), "deny"
	default:
		tools["allow"], tools["otherwise"] = b.allow.List(), "ask"
	}
	overlay := map[string]any{"preset": Preset, "builtin_tools": geminiBuiltinTools(), "tools": tools}
	if b.subDeny.Len() > 0 || b.subAsk.Len() > 0 {
		overlay["subagents"] = map[string]any{"deny": b.subDeny.List(), "ask": b.subAsk.List()}
	}
	return importer.NewResult(overlay, places.InFileOrder(uniqueNotes(b.notes))), nil
}

// applies: the rule is in force in this mode and run.
func (r geminiRule) applies(mode string, headless bool) bool {
	return (r.modes == nil || r.modes[mode]) && (r.interactive == nil || *r.interactive != headless)
}

// matchesEverything: the rule matches every call (a bare "*" with no
// other condition), so that no rule after it ever decides.
func (r geminiRule) matchesEverything() bool {
	return r.toolName == "*" && r.mcpName == nil && r.subagent == "" && !r.annotations &&
		r.prefix == nil && r.pattern == nil && !r.checker
}

// geminiTarget is what a rule's tool name (with its mcpName) names.
type geminiTarget struct {
	all   bool   // every tool
	name  string // a list entry: a built-in, an MCP name or pattern, a deny prefix
	agent string // invoke_agent with this agent_name (Gemini matches a rule's name against it)
}

// geminiTargets are what a rule's tool names: exactly (for an allow and
// an exception; none when that cannot be said exactly) and widened (for
// a deny or an ask), with why they differ.
func geminiTargets(toolName string, mcpName *string) (exact, wide []geminiTarget, why string) {
	named := func(names ...string) []geminiTarget {
		var out []geminiTarget
		for _, n := range names {
			out = append(out, geminiTarget{name: n})
		}
		return out
	}
	// Gemini compares names exactly (ruleMatches in
	// packages/core/src/policy/policy-engine.ts: toolCall.name !==
	// rule.toolName), tooleval by canonical form (NFKC_Casefold, default
	// ignorables dropped): an allow is carried only when its name is one
	// tooleval compares as written, so that it covers no other spelling
	exactIfLower := func(t []geminiTarget, name string) ([]geminiTarget, []geminiTarget, string) {
		if strings.HasPrefix(t[0].name, "mcp__") && !geminiMCPName.MatchString(name) {
			return nil, t, "Gemini CLI writes an MCP server's and tool's names with only letters, digits and _ . : - (generateValidName), so this rule matches no MCP tool there: an allow is not carried"
		}
		if !geminiExactName.MatchString(name) {
			return nil, t, "Gemini CLI compares tool names exactly, tooleval by their canonical form (any case, full-width and zero-width characters folded): an allow of a name with capitals or other characters than a-z, 0-9 and _ . : - would also allow another tool's spelling, and is not carried"
		}
		return t, t, ""
	}
	if toolName != strings.TrimSpace(toolName) || strings.ContainsFunc(toolName, func(r rune) bool { return r < ' ' }) {
		return nil, nil, "a tool name with white space or control characters names no tool: not carried"
	}
	if mcpName != nil {
		server := *mcpName
		switch {
		case server == "*" && toolName == "*":
			return named("mcp__*"), named("mcp__*"), ""
		case server == "*":
			return nil, named("mcp__*"), `Gemini CLI's engine matches no tool with mcpName "*" and a tool name (its reference: that tool on every server): an allow is not carried, a deny or ask covers every MCP tool`
		case !plainMCPName(server):
			return nil, named("mcp__*"), "an MCP server name tooleval cannot write (a *, __ or white space): an allow is not carried, a deny or ask covers every MCP tool"
		case toolName == "*":
			return exactIfLower(named("mcp__"+server+"__*"), server)
		case strings.Contains(toolName, "*"):
			return nil, named("mcp__" + server + "__*"), "a * inside a tool name matches only that name in Gemini CLI: an allow is not carried, a deny or ask covers the server's every tool"
		}
		return exactIfLower(named("mcp__"+server+"__"+toolName), server+toolName)
	}
	switch {
	case toolName == "*":
		return []geminiTarget{{all: true}}, []geminiTarget{{all: true}}, ""
	case toolName == "mcp_*":
		return named("mcp__*"), named("mcp__*"), ""
	case strings.HasPrefix(toolName, "mcp_") && strings.HasSuffix(toolName, "_*") && len(toolName) > len("mcp__*"):
		server := strings.TrimSuffix(strings.TrimPrefix(toolName, "mcp_"), "_*")
		if !plainMCPName(server) {
			return nil, named("mcp__*"), "an MCP server name tooleval cannot write: an allow is not carried, a deny or ask covers every MCP tool"
		}
		return exactIfLower(named("mcp__"+server+"__*"), server)
	case strings.HasPrefix(toolName, "mcp_") && strings.Contains(toolName, "*"):
		return nil, named("mcp__*"), "Gemini CLI's engine matches this name only as written (its reference: mcp_*_TOOL is that tool on every server): an allow is not carried, a deny or ask covers every MCP tool"
	case strings.Contains(toolName, "__"):
		return nil, named(toolName), `Gemini CLI no longer reads "__" in tool names (it matches no MCP tool): an allow is not carried, a deny or ask is carried as tooleval reads the name (an MCP server or tool)`
	case strings.HasPrefix(toolName, "mcp_"):
		// mcp_SERVER_TOOL is compared whole: every server and tool it
		// may be split into
		rest := strings.TrimPrefix(toolName, "mcp_")
		var names []string
		for i := 1; i < len(rest)-1; i++ {
			if rest[i] == '_' {
				names = append(names, "mcp__"+rest[:i]+"__"+rest[i+1:])
			}
		}
		if len(names) == 0 {
			return nil, nil, "names no MCP tool (mcp_SERVER_TOOL): not carried"
		}
		return exactIfLower(named(names...), rest)
	case strings.Contains(toolName, "*"):
		stem, _, _ := strings.Cut(toolName, "*")
		wide = []geminiTarget{{all: true}}
		if stem != "" {
			wide = named(stem + "*")
		}
		return nil, wide, "a * here matches only this very name in Gemini CLI: an allow is not carried, a deny or ask covers every tool whose name starts " + fmt.Sprintf("%q", stem)
	}
	current := toolName
	if alias, ok := geminiLegacyNames[toolName]; ok {
		current = alias
	}
	for legacy, name := range geminiLegacyNames {
		if name == current {
			// one tool by either name: the exact entry is its current
			// name, a deny or ask names both
			return named(current), named(current, legacy), ""
		}
	}
	t := named(toolName)
	if !slices.Contains(geminiTools, toolName) {
		t = append(t, geminiTarget{agent: toolName}) // a sub-agent's name
	}
	exact, wide, why = exactIfLower(t, toolName)
	if exact == nil && len(t) == 2 {
		exact = t[1:] // the agent_name is compared exactly
	}
	return exact, wide, why
}

// geminiExactName is a name tooleval's canonical form leaves as it is
// and Gemini CLI's names are spelt in: lower-case ASCII letters, digits
// and _ . : - (its built-in tools; a function name the Gemini API takes;
// an MCP server's and tool's names after generateValidName, lower case).
var geminiExactName = regexp.MustCompile(`^[a-z0-9_.:-]+$`)

// geminiMCPName is what Gemini CLI leaves of an MCP server's or tool's
// name (mcp-tool.ts generateValidName rewrites every other character).
var geminiMCPName = regexp.MustCompile(`^[A-Za-z0-9_.:*-]*$`)

// plainMCPName: a server name tooleval writes as mcp__SERVER__...
func plainMCPName(s string) bool {
	return s != "" && s == strings.TrimSpace(s) && !strings.Contains(s, "*") && !strings.Contains(s, "__")
}
