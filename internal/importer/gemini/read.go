package gemini

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/gemini/geminipolicies"
)

// uniqueNotes drops a note said again (a rule of several tool names is
// several rules, each noted alike).
func uniqueNotes(notes []importer.Note) []importer.Note {
	seen := map[importer.Note]bool{}
	var out []importer.Note
	for _, n := range notes {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// readGeminiPolicy reads one policy file as Gemini's loader does
// (packages/core/src/policy/toml-loader.ts). What Gemini reports as an
// error in a file (bad TOML, a field of the wrong type, a priority out of
// range, commandPrefix on another tool) makes it not valid policy; a key
// Gemini drops is dropped, with a note. The places of the file's rules
// are recorded in places, as file number file.
func readGeminiPolicy(f importer.File, tier int, places importer.NotePlaces, file int) ([]geminiRule, []importer.Note, error) {
	var doc map[string]any
	md, err := toml.Decode(string(f.Data), &doc)
	if err != nil {
		return nil, nil, importer.Invalid(f.Name, "not TOML: %v", err)
	}
	if err := tomlNewer(string(f.Data)); err != nil {
		return nil, nil, importer.Invalid(f.Name, "%v", err)
	}
	if err := mixedArray(doc); err != nil {
		return nil, nil, importer.Invalid(f.Name, "%v", err)
	}
	if err := tomlDates(doc); err != nil {
		return nil, nil, importer.Invalid(f.Name, "%v", err)
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
		return nil, nil, importer.Invalid(f.Name, "%v", err)
	}
	checkerTables, err := tables("safety_checker")
	if err != nil {
		return nil, nil, importer.Invalid(f.Name, "%v", err)
	}
	layout := tomlLayoutOf(md)
	layout.places(places, file, f.Name, len(ruleTables), len(checkerTables))
	// Gemini's own default policies hold keys its loader drops (name in
	// agents.toml, [rule.safety_checker] in write.toml): read alike,
	// and not noted, as nothing there is the user's to fix
	userFile := tier != geminiDefaultTier
	var rules []geminiRule
	var notes []importer.Note
	if userFile {
		notes = geminiFileNotes(f.Name, doc, len(ruleTables), len(checkerTables))
	}
	for i, t := range ruleTables {
		at := fmt.Sprintf("%s: rule #%d", f.Name, i+1)
		got, ruleNotes, err := readGeminiRule(t, at, tier, false)
		if err != nil {
			return nil, nil, importer.Invalid(at, "%v", err)
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
			return nil, nil, importer.Invalid(at, "%v", err)
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
func readGeminiRule(t map[string]any, at string, tier int, checker bool) ([]geminiRule, []importer.Note, error) {
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
		if nameList || names[0] != ShellTool {
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
	var notes []importer.Note
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
			notes = append(notes, importer.Note{Location: at, Text: "Gemini CLI refuses to load a pattern this long or with nested quantifiers (a possible ReDoS): the rule is not in force there, and is not carried"})
			continue
		}
		for _, n := range names {
			c.toolName = n
			out = append(out, c)
		}
	}
	return out, notes, nil
}

// geminiDefaultPolicies are the policies Gemini CLI ships, in the order
// of their names (internal/importer/gemini/geminipolicies).
func geminiDefaultPolicies() []importer.File {
	entries, _ := geminipolicies.Files.ReadDir(".") // embedded: cannot fail
	var out []importer.File
	for _, e := range entries {
		data, _ := geminipolicies.Files.ReadFile(e.Name())
		out = append(out, importer.File{Name: "gemini default policy " + e.Name(), Data: data})
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
