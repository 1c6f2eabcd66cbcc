package tooleval.pattern_test

import data.tooleval.pattern

groups := {
	"edit": ["write_file", "edit"],
	"debug": ["debug_*"],
	"nested": ["group:edit"],
	"broken": ["*"],
}

# [entry, code in an allow list, code in a deny list]; "ok" is valid.
grammar_cases := [
	["read_file", "ok", "ok"],
	["READ_FILE", "ok", "ok"],
	["mcp__*", "ok", "ok"],
	["mcp__github__*", "ok", "ok"],
	["mcp__github__read_*", "ok", "ok"],
	["mcp__github__read_issue", "ok", "ok"],
	["mcp__", "ok", "ok"],
	["group:edit", "ok", "ok"],
	["GROUP:Edit", "ok", "ok"],
	["debug_*", "builtin_wildcard_in_allow", "ok"],
	["mcp_*", "builtin_wildcard_in_allow", "ok"],
	["", "empty_entry", "empty_entry"],
	["\u200b", "empty_entry", "empty_entry"],
	[" read_file", "surrounding_whitespace", "surrounding_whitespace"],
	["read_file\n", "surrounding_whitespace", "surrounding_whitespace"],
	["*", "bare_wildcard", "bare_wildcard"],
	["\uff0a", "bare_wildcard", "bare_wildcard"],
	["read*file", "misplaced_wildcard", "misplaced_wildcard"],
	["*_file", "misplaced_wildcard", "misplaced_wildcard"],
	["mcp__*x", "misplaced_wildcard", "misplaced_wildcard"],
	["mcp____*", "empty_mcp_server", "empty_mcp_server"],
	["mcp____read*", "empty_mcp_server", "empty_mcp_server"],
	["mcp__github*", "incomplete_mcp_pattern", "incomplete_mcp_pattern"],
	["group:nope", "unknown_group", "unknown_group"],
	["e\u0301", "uncanonicalizable_entry", "uncanonicalizable_entry"],
	[7, "non_string_entry", "non_string_entry"],
	[null, "non_string_entry", "non_string_entry"],
]

code(entry, kind) := c if {
	c := pattern.entry_problem(entry, kind, groups)
} else := "ok"

test_grammar if {
	mismatches := {[entry, got_allow, got_deny] |
		some [entry, want_allow, want_deny] in grammar_cases
		got_allow := code(entry, "allow")
		got_deny := code(entry, "deny")
		[got_allow, got_deny] != [want_allow, want_deny]
	}
	mismatches == set()
	count([1 | some c in grammar_cases; code(c[0], "allow"); code(c[0], "deny")]) == count(grammar_cases)
}

test_every_code_has_a_message if {
	every c in grammar_cases {
		every code in {c[1], c[2]} - {"ok"} {
			pattern.problem_messages[code]
		}
	}
}

test_list_problems_locate_entries_and_group_members if {
	entries := ["read_file", "*", "group:debug", "group:nested", "group:edit"]
	problems := pattern.list_problems(entries, "allow", groups)
	count(problems) == 3
	problems[0] == {"index": 1, "entry": "*", "code": "bare_wildcard"}
	json.marshal(problems[1]) == json.marshal({"index": 2, "entry": "group:debug", "code": "builtin_wildcard_in_allow", "group": "debug", "group_index": 0})
	json.marshal(problems[2]) == json.marshal({"index": 3, "entry": "group:nested", "code": "nested_group", "group": "nested", "group_index": 0})
}

test_parse if {
	pattern.parse("mcp__*") == {"kind": "all_mcp"}
	pattern.parse("mcp__git.hub__read_*") == {"kind": "mcp_prefix", "server": "git.hub", "prefix": "read_"}
	pattern.parse("mcp__github__*") == {"kind": "mcp_prefix", "server": "github", "prefix": ""}
	pattern.parse("debug_*") == {"kind": "prefix", "prefix": "debug_"}
	pattern.parse("read_file") == {"kind": "exact", "name": "read_file"}
}

test_compile_expands_groups_and_skips_invalid_entries if {
	m := pattern.compile(["Read_File", "group:edit", "*", "mcp__a__x*", "mcp__a__y*", "mcp__b__*", 3], "allow", groups)
	m == {
		"exact": {"read_file": true, "write_file": true, "edit": true},
		"all_mcp": false,
		"mcp_prefixes": {"a": ["x", "y"], "b": [""]},
		"prefixes": [],
	}
}

builtin(name) := {"canonical": name, "kind": "builtin", "server": null, "tool": null}

peer(name) := {"canonical": name, "kind": "agent", "server": null, "tool": null}

mcp(name, server, tool) := {"canonical": name, "kind": "mcp", "server": server, "tool": tool}

# [list, kind, tool, matches]
match_cases := [
	[["read_file"], "allow", builtin("read_file"), true],
	[["read_file"], "allow", builtin("read_files"), false],
	[["mcp__*"], "allow", mcp("mcp__s__t", "s", "t"), true],
	[["mcp__*"], "allow", builtin("mcp__s__t"), false],
	[["mcp__*"], "allow", peer("researcher"), false],
	[["mcp__foo.bar__*"], "allow", mcp("mcp__foo_bar__q", "foo.bar", "q"), true],
	[["mcp__foo.bar__*"], "allow", mcp("mcp__foo_bar__q", "foo_bar", "q"), false],
	[["mcp__foo_bar__*"], "allow", mcp("mcp__foo_bar__q", "foo.bar", "q"), false],
	[["mcp__s__read_*"], "allow", mcp("mcp__s__read_x", "s", "read_x"), true],
	[["mcp__s__read_*"], "allow", mcp("mcp__s__write_x", "s", "write_x"), false],
	[["mcp__s__t"], "allow", mcp("mcp__s__t", "s", "t"), true],
	[["debug_*"], "deny", builtin("debug_dump"), true],
	[["debug_*"], "deny", peer("debug_agent"), true],
	[["debug_*"], "deny", mcp("debug_dump", "s", "debug_dump"), false],
	[["group:edit"], "deny", builtin("edit"), true],
	[[], "allow", builtin("read_file"), false],
]

matched(list, kind, tool) if {
	pattern.matched(pattern.compile(list, kind, groups), {tool.canonical: tool})[tool.canonical]
} else := false

test_matches if {
	mismatches := {[list, tool, want] |
		some [list, kind, tool, want] in match_cases
		got := matched(list, kind, tool)
		got != want
	}
	mismatches == set()
}

test_group_errors if {
	pattern.group_errors({}) == []
	pattern.group_errors({"groups": {"edit": ["write_file"]}}) == []
	[e.message | some e in pattern.group_errors({"groups": []})] == ["config.groups must be an object"]
	codes := [[e.code, e.group] | some e in pattern.group_errors({"groups": {"Edit": ["x"], "a": "x", "b": ["group:a", "*"]}})]
	codes == [
		["invalid_config_value", "Edit"],
		["invalid_list", "a"],
		["nested_group", "b"],
		["bare_wildcard", "b"],
	]
}
