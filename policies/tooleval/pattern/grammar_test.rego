package tooleval.pattern_test

import data.tooleval.pattern
import data.tooleval.shape

# The groups of the tests (vocabulary and aliased, in compile_test.rego,
# are built from them).
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
	["mcp__github", "ok", "ok"],
	["mcp__foo.bar", "ok", "ok"],
	["mcp__", "empty_mcp_server", "empty_mcp_server"],
	["mcp____x", "empty_mcp_server", "empty_mcp_server"],
	["mcp__github __*", "mcp_whitespace", "mcp_whitespace"],
	["mcp__ github__*", "mcp_whitespace", "mcp_whitespace"],
	["mcp__github__\u3000*", "mcp_whitespace", "mcp_whitespace"],
	["mcp__github__ read*", "mcp_whitespace", "mcp_whitespace"],
	["mcp__github__read *", "mcp_whitespace", "mcp_whitespace"],
	["mcp__github __read_issue", "mcp_whitespace", "mcp_whitespace"],
	["mcp__github\u00a0", "surrounding_whitespace", "surrounding_whitespace"],
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
	pattern.parse("mcp__foo.bar__run") == {"kind": "mcp_exact", "name": "mcp__foo.bar__run", "server": "foo.bar", "tool": "run"}
	pattern.parse("mcp__foo.bar") == {"kind": "mcp_server", "name": "mcp__foo.bar", "server": "foo.bar"}
}

test_lists_are_capped if {
	long := [sprintf("t%d", [i]) | some i in numbers.range(0, 4096)]
	pattern.list_problems(long, "deny", groups) == [{"index": 4096, "entry": "t4096", "code": "too_many_entries"}]
	pattern.list_problems(array.slice(long, 0, 4096), "deny", groups) == []
	pattern.problem_messages.too_many_entries == "a list may have at most 4096 entries"
}

# Lists the whole-list path (plain_list) takes, and lists it must leave
# to the entry-by-entry path.
plain_lists := [
	[],
	["read_file"],
	["Read_File", "BASH", "exec", "tool.v2", "a-b", "x_"],
	["read_file", "read_file"],
]

not_plain_lists := [
	["read_file", "mcp__github"],
	["MCP__x__y"],
	["read_file", "group:edit"],
	["debug_*"],
	["read_file", 3],
	["read_file", null],
	["réad_file"],
	["read file"],
	[" read_file"],
	["read_file\nmcp__x"],
	["a\"b"],
	[""],
	[["read_file"]],
	{"read_file"},
	{"a": "read_file"},
	"read_file",
	null,
]

test_plain_lists_take_the_whole_list_path if {
	every list in plain_lists {
		pattern.plain_list(list)
	}
	every list in not_plain_lists {
		not pattern.plain_list(list)
	}
}

test_a_capped_plain_list_is_reported if {
	list := [sprintf("t%d", [i]) | some i in numbers.range(0, shape.max_entries)]
	not pattern.plain_list(list)
	pattern.list_problems(list, "allow", {})[0].code == "too_many_entries"
}
