package importer

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tooleval/tooleval/internal/importer/geminipolicies"
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

// GeminiOptions are the settings of the Gemini CLI run an import mirrors.
type GeminiOptions struct {
	// ApprovalMode is Gemini's approval mode: "default" (when empty),
	// "autoEdit", "plan" or "yolo". A rule with modes applies in those
	// only.
	ApprovalMode string
	// Headless is a non-interactive run (gemini -p): ask_user is deny.
	Headless bool
	// Admin are policy files of the admin tier (Gemini's system policy
	// directory and --admin-policy); the files given to Gemini are of the
	// user tier.
	Admin []File
	// NoDefaults leaves out the policies Gemini CLI ships (tier 1).
	NoDefaults bool
}

// Gemini's policy tiers (packages/core/src/policy/config.ts).
const (
	geminiDefaultTier = 1
	geminiUserTier    = 4
	geminiAdminTier   = 5
)

// GeminiShellTool is Gemini CLI's shell tool; its command is `command`.
const GeminiShellTool = "run_shell_command"

// geminiAgentTool is the tool that runs a sub-agent: a rule naming the
// sub-agent (its agent_name) applies to it.
const geminiAgentTool = "invoke_agent"

// geminiTools are Gemini CLI's built-in tools (ALL_BUILTIN_TOOL_NAMES in
// packages/core/src/tools/tool-names.ts), named in the overlay's
// builtin_tools.
var geminiTools = []string{
	"glob", "write_todos", "write_file", "google_web_search", "web_fetch", "replace", GeminiShellTool,
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

// GeminiPreset is the preset the overlay selects (docs/presets.md,
// gemini_cli): Gemini CLI's tool names, where run_shell_command keeps its
// command (rule_arguments), which argument of which tool is a path, and
// what a sub-agent may not call (invoke_agent, update_topic).
const GeminiPreset = "gemini_cli"

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

// Gemini imports Gemini CLI policy files of the user tier (and
// opts.Admin of the admin tier), in the order Gemini loads them, with
// Gemini's default policies unless opts.NoDefaults.
func Gemini(files []File, opts GeminiOptions) (Result, error) {
	mode := opts.ApprovalMode
	if mode == "" {
		mode = "default"
	}
	if !slices.Contains(geminiModes, mode) {
		return Result{}, fmt.Errorf("approval mode %q: Gemini CLI's are default, autoEdit, plan and yolo", mode)
	}
	var rules []geminiRule
	var notes []Note
	places, read := notePlaces{}, 0 // read: the files read so far, in Gemini's order
	load := func(fs []File, tier int) error {
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
		return Result{}, err
	}
	if err := load(files, geminiUserTier); err != nil {
		return Result{}, err
	}
	if !opts.NoDefaults {
		if err := load(geminiDefaultPolicies(), geminiDefaultTier); err != nil {
			return Result{}, fmt.Errorf("gemini default policies: %w", err)
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
		notes = append(notes, Note{"--headless", "Gemini CLI refuses what it would ask about when it runs non-interactively: its ask_user rules are carried as deny rules"})
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
			b.notes = append(b.notes, Note{r.location, n})
		}
		switch {
		case r.decision == "allow":
			exact := b.exact(r, true)
			for _, e := range exact {
				b.allow.add(e)
			}
			if shellAllowAt == len(active) && r.prefix == nil && slices.Contains(exact, any(GeminiShellTool)) {
				shellAllow, shellAllowAt = &r, i
			}
		case r.subagent != "":
			into := map[string]*entryList{"deny": &b.subDeny, "ask_user": &b.subAsk}[r.decision]
			for _, e := range b.widened(r, active[:i]) {
				into.add(e)
			}
		default:
			into := map[string]*entryList{"deny": &b.deny, "ask_user": &b.ask}[r.decision]
			for _, e := range b.widened(r, active[:i]) {
				into.add(e)
			}
			if r.decision == "ask_user" && fallback == "deny" {
				// a call an ask rule matches is asked about, not refused
				// as one the allow list does not hold
				for _, e := range b.exact(r, false) {
					b.allow.add(e)
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
	tools := map[string]any{"deny": b.deny.list(), "ask": b.ask.list()}
	switch fallback {
	case "allow":
		tools["allow"] = nil
	case "deny":
		tools["allow"], tools["otherwise"] = b.allow.list(), "deny"
	default:
		tools["allow"], tools["otherwise"] = b.allow.list(), "ask"
	}
	overlay := map[string]any{"preset": GeminiPreset, "builtin_tools": geminiBuiltinTools(), "tools": tools}
	if len(b.subDeny.items) > 0 || len(b.subAsk.items) > 0 {
		overlay["subagents"] = map[string]any{"deny": b.subDeny.list(), "ask": b.subAsk.list()}
	}
	return result(overlay, places.inFileOrder(uniqueNotes(b.notes))), nil
}

// uniqueNotes drops a note said again (a rule of several tool names is
// several rules, each noted alike).
func uniqueNotes(notes []Note) []Note {
	seen := map[Note]bool{}
	var out []Note
	for _, n := range notes {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// applies: the rule is in force in this mode and run.
func (r geminiRule) applies(mode string, headless bool) bool {
	return (r.modes == nil || r.modes[mode]) && (r.interactive == nil || *r.interactive != headless)
}

// readGeminiPolicy reads one policy file as Gemini's loader does
// (packages/core/src/policy/toml-loader.ts). What Gemini reports as an
// error in a file (bad TOML, a field of the wrong type, a priority out of
// range, commandPrefix on another tool) makes it not valid policy; a key
// Gemini drops is dropped, with a note. The places of the file's rules
// are recorded in places, as file number file.
func readGeminiPolicy(f File, tier int, places notePlaces, file int) ([]geminiRule, []Note, error) {
	var doc map[string]any
	md, err := toml.Decode(string(f.Data), &doc)
	if err != nil {
		return nil, nil, invalid(f.Name, "not TOML: %v", err)
	}
	if err := tomlNewer(string(f.Data)); err != nil {
		return nil, nil, invalid(f.Name, "%v", err)
	}
	if err := mixedArray(doc); err != nil {
		return nil, nil, invalid(f.Name, "%v", err)
	}
	if err := tomlDates(doc); err != nil {
		return nil, nil, invalid(f.Name, "%v", err)
	}
	tables := func(key string) ([]map[string]any, error) {
		v, ok := doc[key]
		if !ok {
			return nil, nil
		}
		switch t := v.(type) {
		case []map[string]any:
			return t, nil
		case []any:
			var out []map[string]any
			for _, e := range t {
				m, ok := e.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s is an array of tables", key)
				}
				out = append(out, m)
			}
			return out, nil
		}
		return nil, fmt.Errorf("%s is an array of tables", key)
	}
	ruleTables, err := tables("rule")
	if err != nil {
		return nil, nil, invalid(f.Name, "%v", err)
	}
	checkerTables, err := tables("safety_checker")
	if err != nil {
		return nil, nil, invalid(f.Name, "%v", err)
	}
	layout := tomlLayoutOf(md)
	layout.places(places, file, f.Name, len(ruleTables), len(checkerTables))
	// Gemini's own default policies hold keys its loader drops (name in
	// agents.toml, [rule.safety_checker] in write.toml): read alike,
	// and not noted, as nothing there is the user's to fix
	userFile := tier != geminiDefaultTier
	var rules []geminiRule
	var notes []Note
	if userFile {
		notes = geminiFileNotes(f.Name, doc, len(ruleTables), len(checkerTables))
	}
	for i, t := range ruleTables {
		at := fmt.Sprintf("%s: rule #%d", f.Name, i+1)
		got, ruleNotes, err := readGeminiRule(t, at, tier, false)
		if err != nil {
			return nil, nil, invalid(at, "%v", err)
		}
		rules = append(rules, got...)
		if userFile {
			_, keys := layout.table("rule", i, t)
			notes = append(notes, geminiUnknownKeys(t, keys, at, false)...)
		}
		notes = append(notes, ruleNotes...)
	}
	for i, t := range checkerTables {
		at := fmt.Sprintf("%s: safety_checker #%d", f.Name, i+1)
		got, ruleNotes, err := readGeminiRule(t, at, tier, true)
		if err != nil {
			return nil, nil, invalid(at, "%v", err)
		}
		rules = append(rules, got...)
		if userFile {
			_, keys := layout.table("safety_checker", i, t)
			notes = append(notes, geminiUnknownKeys(t, keys, at, true)...)
		}
		notes = append(notes, ruleNotes...)
	}
	return rules, notes, nil
}

// readGeminiRule checks one [[rule]] (or [[safety_checker]]) table
// against Gemini's schema and expands it: one rule per tool name and
// command prefix.
func readGeminiRule(t map[string]any, at string, tier int, checker bool) ([]geminiRule, []Note, error) {
	str := func(key string) (*string, error) {
		v, ok := t[key]
		if !ok {
			return nil, nil
		}
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s must be a string", key)
		}
		return &s, nil
	}
	strs := func(key string) ([]string, bool, error) {
		v, ok := t[key]
		if !ok {
			return nil, false, nil
		}
		switch x := v.(type) {
		case string:
			return []string{x}, false, nil
		case []any:
			out := make([]string, len(x))
			for i, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, true, fmt.Errorf("%s must be a string or a list of strings", key)
				}
				out[i] = s
			}
			return out, true, nil
		}
		return nil, false, fmt.Errorf("%s must be a string or a list of strings", key)
	}
	boolean := func(key string) (*bool, error) {
		v, ok := t[key]
		if !ok {
			return nil, nil
		}
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%s must be a boolean", key)
		}
		return &b, nil
	}
	names, nameList, err := strs("toolName")
	if err != nil {
		return nil, nil, err
	}
	if _, ok := t["toolName"]; !ok {
		return nil, nil, errors.New("toolName is required (\"*\" for every tool)")
	}
	r := geminiRule{location: at, checker: checker}
	var mcpName, subagent, argsPattern, commandRegex, denyMessage, denyMessageOld *string
	for _, field := range []struct {
		key  string
		into **string
	}{{"mcpName", &mcpName}, {"subagent", &subagent}, {"argsPattern", &argsPattern},
		{"commandRegex", &commandRegex}, {"denyMessage", &denyMessage}, {"deny_message", &denyMessageOld}} {
		if checker && !slices.Contains(geminiCheckerKeys, field.key) {
			continue // not in a checker's schema: Gemini drops it (geminiUnknownKeys)
		}
		if *field.into, err = str(field.key); err != nil {
			return nil, nil, err
		}
	}
	prefixes, prefixList, err := strs("commandPrefix")
	if err != nil {
		return nil, nil, err
	}
	_, hasPrefix := t["commandPrefix"]
	if checker {
		r.decision = "deny"
		if err := geminiChecker(t["checker"]); err != nil {
			return nil, nil, err
		}
		subagent = nil // not in a checker's schema: it checks every caller
	} else {
		d, _ := t["decision"].(string)
		if !slices.Contains([]string{"allow", "deny", "ask_user"}, d) {
			return nil, nil, errors.New(`decision must be "allow", "deny" or "ask_user"`)
		}
		r.decision = d
	}
	priority := 0.0
	switch p := t["priority"].(type) {
	case int64:
		priority = float64(p)
	case float64:
		priority = p
	case nil:
		if !checker {
			return nil, nil, errors.New("priority is required")
		}
	default:
		return nil, nil, errors.New("priority must be a number")
	}
	if priority != math.Trunc(priority) {
		return nil, nil, errors.New("priority must be an integer")
	}
	if !checker && (priority < 0 || priority > 999) {
		return nil, nil, errors.New("priority must be from 0 to 999")
	}
	r.rank = tier*1000 + int(priority)
	if checker {
		r.rank = math.MaxInt32 // a checker runs on every decision but deny
	}
	if v, ok := t["modes"]; ok {
		list, ok := v.([]any)
		if !ok {
			return nil, nil, errors.New("modes must be a list")
		}
		if len(list) > 0 {
			r.modes = map[string]bool{}
		}
		for _, m := range list {
			s, _ := m.(string)
			if !slices.Contains(geminiModes, s) {
				return nil, nil, fmt.Errorf("modes: %v is not an approval mode (default, autoEdit, plan, yolo)", m)
			}
			r.modes[s] = true
		}
	}
	if !checker {
		if r.interactive, err = boolean("interactive"); err != nil {
			return nil, nil, err
		}
		for _, key := range []string{"allowRedirection", "allow_redirection"} {
			b, err := boolean(key)
			if err != nil {
				return nil, nil, err
			}
			r.redirection = r.redirection || b != nil && *b
		}
	}
	if v, ok := t["toolAnnotations"]; ok {
		if _, ok := v.(map[string]any); !ok {
			return nil, nil, errors.New("toolAnnotations must be a table")
		}
		r.annotations = true
	}
	// validateShellCommandSyntax (rules only)
	if !checker && (hasPrefix || commandRegex != nil) {
		if nameList || names[0] != GeminiShellTool {
			return nil, nil, errors.New(`commandPrefix and commandRegex can only be used with toolName = "run_shell_command"`)
		}
		if argsPattern != nil {
			return nil, nil, errors.New("commandPrefix or commandRegex cannot be used with argsPattern")
		}
		if hasPrefix && commandRegex != nil {
			return nil, nil, errors.New("commandPrefix and commandRegex cannot be used together")
		}
	}
	if slices.Contains(names, "") {
		return nil, nil, errors.New(`toolName cannot be an empty string ("*" for every tool)`)
	}
	if mcpName != nil && *mcpName == "" || subagent != nil && *subagent == "" {
		return nil, nil, errors.New("mcpName and subagent cannot be empty strings")
	}
	r.mcpName = mcpName
	if subagent != nil {
		r.subagent = *subagent
	}
	if (denyMessage != nil || denyMessageOld != nil) && tier != geminiDefaultTier {
		r.notes = append(r.notes, "denyMessage: not carried: a refusal gives tooleval's reason")
	}
	if r.redirection && r.decision == "allow" {
		r.notes = append(r.notes, "allowRedirection: not carried: tooleval does not read a redirected command, so no allow rule lets one through (it is asked about, or refused when headless)")
	}
	if checker {
		r.notes = append(r.notes, "a safety checker's verdicts are its own: carried as a deny of every call it checks (keep the checker in Gemini CLI, or leave it out here)")
	}
	var notes []Note
	// buildArgsPatterns: each command prefix is a pattern of its own
	var conds []geminiRule
	switch {
	case hasPrefix && (prefixList || prefixes[0] != ""): // a lone "" is no prefix to Gemini, an empty list no rule
		for _, p := range prefixes {
			c := r
			c.prefix = &p
			conds = append(conds, c)
		}
	case commandRegex != nil && *commandRegex != "":
		c := r
		p := `"command":"` + *commandRegex
		c.pattern = &p
		conds = append(conds, c)
	default:
		c := r
		if argsPattern != nil && *argsPattern != "" {
			c.pattern = argsPattern
		}
		conds = append(conds, c)
	}
	var out []geminiRule
	for _, c := range conds {
		if c.pattern != nil && geminiDropsPattern(*c.pattern) {
			notes = append(notes, Note{at, "Gemini CLI refuses to load a pattern this long or with nested quantifiers (a possible ReDoS): the rule is not in force there, and is not carried"})
			continue
		}
		for _, n := range names {
			c.toolName = n
			out = append(out, c)
		}
	}
	return out, notes, nil
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

// geminiBuilder gathers the overlay's lists.
type geminiBuilder struct {
	allow, deny, ask, subDeny, subAsk entryList
	notes                             []Note
}

func (b *geminiBuilder) note(r geminiRule, format string, args ...any) {
	b.notes = append(b.notes, Note{r.location, fmt.Sprintf(format, args...)})
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
			if t.name != GeminiShellTool {
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
			if program := strings.Fields(words)[0]; shellWrappers[strings.ToLower(program[strings.LastIndex(program, "/")+1:])] {
				note("commandPrefix %q starts with a wrapper (sudo, env, sh ...), whose words are not the command that runs: not carried", *r.prefix)
				continue
			}
			out = append(out, map[string]any{"tool": GeminiShellTool, "command_prefix": words})
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
		seen := entryList{}
		for _, q := range before {
			if q.decision == "allow" || r.decision == "deny" && q.decision == "ask_user" {
				for _, e := range b.exact(q, false) {
					seen.add(e)
				}
			}
		}
		exceptions = seen.items
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
			p, ok := geminiDenyPattern(*r.pattern, tool == GeminiShellTool)
			if !ok {
				p = ""
				if !patternNoted {
					b.note(r, "a pattern tooleval cannot match as Gemini CLI does (on each part of a command, over JSON text with NULs between the members, in JavaScript's syntax): carried as a %s of every call of its tools", geminiList(r.decision))
					patternNoted = true
				}
			}
			entry = map[string]any{"tool": tool, "args_pattern": p}
			if ok && tool == GeminiShellTool {
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
// shape.max_entries).
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
	if tool != GeminiShellTool {
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
	if len(fields) == 0 || len(prefix) > maxCodexToken || strings.Contains(fields[0], "=") {
		return "", false // an assignment in front: tooleval does not read the command
	}
	for i, w := range fields {
		if !plainShellWord.MatchString(w) {
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

// geminiDefaultPolicies are the policies Gemini CLI ships, in the order
// of their names (internal/importer/geminipolicies).
func geminiDefaultPolicies() []File {
	entries, _ := geminipolicies.Files.ReadDir(".") // embedded: cannot fail
	var out []File
	for _, e := range entries {
		data, _ := geminipolicies.Files.ReadFile(e.Name())
		out = append(out, File{Name: "gemini default policy " + e.Name(), Data: data})
	}
	return out
}

// geminiChecker checks a safety checker's checker table as Gemini's
// schema does: type "in-process" with a name Gemini has, or "external"
// with a name; required_context a list of strings, config a table.
func geminiChecker(v any) error {
	c, ok := v.(map[string]any)
	if !ok {
		return errors.New("a safety checker needs its checker table")
	}
	name, ok := c["name"].(string)
	if !ok {
		return errors.New("checker.name must be a string")
	}
	switch c["type"] {
	case "in-process":
		if name != "allowed-path" && name != "conseca" {
			return fmt.Errorf("checker.name %q is not an in-process checker (allowed-path, conseca)", name)
		}
	case "external":
	default:
		return errors.New(`checker.type must be "in-process" or "external"`)
	}
	if rc, ok := c["required_context"]; ok {
		list, ok := rc.([]any)
		if !ok {
			return errors.New("checker.required_context must be a list of strings")
		}
		for _, e := range list {
			if _, ok := e.(string); !ok {
				return errors.New("checker.required_context must be a list of strings")
			}
		}
	}
	if cfg, ok := c["config"]; ok {
		if _, ok := cfg.(map[string]any); !ok {
			return errors.New("checker.config must be a table")
		}
	}
	return nil
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
			if exceptionConcerns(e, GeminiShellTool) {
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
		into.add(entry)
	}
	for _, c := range geminiDangerous {
		add(map[string]any{"tool": GeminiShellTool, "command_prefix": c})
	}
	b.note(r, "Gemini CLI asks about the commands it calls dangerous where a rule allows every shell command: every rm, sudo, rg, git, base64 and find is %s", list)
	if !r.redirection && mode != "autoEdit" {
		add(map[string]any{"tool": GeminiShellTool, "args_pattern": "[<>]"})
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
					if exceptionConcerns(e, GeminiShellTool) {
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
			b.deny.add(map[string]any{"tool": GeminiShellTool, "command_prefix": m["command_prefix"],
				"unless": append([]any{e}, above...)})
			b.note(r, "yolo mode: Gemini CLI refuses a command it cannot parse where this rule matches it: every shell command tooleval does not read exactly, or run by a wrapper, is refused")
		}
	}
}
