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

# [list, whether simple_list reads it as an allow list, as a deny list]:
# the whole-list path takes simple lists only, and leaves every other
# list to the entry-by-entry path.
simple_list_cases := [
	[[], true, true],
	[["read_file"], true, true],
	[["Read_File", "BASH", "exec", "tool.v2", "a-b", "x_"], true, true],
	[["read_file", "read_file"], true, true],
	[["m", "mc", "mcp", "mcp_", "mcpx", "mcp_x", "MCPX"], true, true],
	[["read_file", "mcp__github"], true, true],
	[["MCP__x__y", "Mcp__X__Y*", "mcp__*", "MCP__*"], true, true],
	[["mcp__a_b__c", "mcp___a__b", "mcp__a___b", "mcp__a__", "mcp__a__b__c*"], true, true],
	[["mcp___", "mcp__a_", "mcp___a_", "mcp__a.b-c"], true, true],
	[["debug_*", "mcp_*", "m*", "mcp*"], false, true],
	# entries with a problem: read one by one, so that it is reported
	[["mcp__"], false, false],
	[["mcp____x"], false, false],
	[["mcp____*"], false, false],
	[["mcp__a*"], false, false],
	[["mcp___*"], false, false],
	[["*"], false, false],
	[["read*file"], false, false],
	[["mcp__*x"], false, false],
	# anything else: not plain characters, groups, not a list of strings
	[["read_file", "group:edit"], false, false],
	[["read_file", 3], false, false],
	[["read_file", null], false, false],
	[["réad_file"], false, false],
	# letters that a case-insensitive match would take for ASCII ones
	[["\u017f"], false, false],
	[["\u212a"], false, false],
	[["mcp__\u017frv__x"], false, false],
	[["mcp__s__\u212a*"], false, false],
	[["read file"], false, false],
	[[" read_file"], false, false],
	[["read_file\nmcp__x"], false, false],
	[["read_file\n"], false, false],
	[["a\"b"], false, false],
	[["a,b"], false, false],
	[[""], false, false],
	[[["read_file"]], false, false],
	[{"read_file"}, false, false],
	[{"a": "read_file"}, false, false],
	["read_file", false, false],
	[null, false, false],
]

test_simple_lists_take_the_whole_list_path if {
	mismatches := {[list, kind] |
		some [list, want_allow, want_deny] in simple_list_cases
		some [kind, want] in [["allow", want_allow], ["deny", want_deny]]
		_is_simple(list, kind) != want
	}
	mismatches == set()
}

_is_simple(list, kind) if {
	simple_list(list, kind)
} else := false

simple_list(list, kind) := pattern.simple_list(list, kind)

# Names of 256 characters are canonical, longer ones are not: a simple
# list has no entry of 257 or more.
test_long_entries_are_read_one_by_one if {
	long := concat("", ["a" | some _ in numbers.range(1, 256)])
	simple_list([long, "mcp__s__t"], "allow") == concat("\n", [long, "mcp__s__t"])
	not simple_list([concat("", [long, "a"])], "allow")
	not simple_list([concat("", [long, "*"])], "deny")
	pattern.list_problems([concat("", [long, "*"])], "deny", {})[0].code == "uncanonicalizable_entry"
	wildcard := concat("", [substring(long, 0, 255), "*"])
	simple_list([wildcard], "deny") == wildcard
}

test_a_capped_simple_list_is_reported if {
	list := [sprintf("t%d", [i]) | some i in numbers.range(0, shape.max_entries)]
	not simple_list(list, "allow")
	pattern.list_problems(list, "allow", {})[0].code == "too_many_entries"
}

test_simple_forms_sort_a_list_by_form if {
	text := simple_list(["Read_File", "debug_*", "mcp__*", "mcp__a_b__Read_*", "mcp__a__b__c", "mcp__a_", "mcp__x__"], "deny")
	pattern.simple_forms(text, "deny") == {
		"names": ["read_file"],
		"wildcards": ["debug_"],
		"all_mcp": true,
		"mcp_prefixes": [["mcp__a_b__read_*", "a_b", "read_"]],
		"mcp_tools": [["mcp__a__b__c", "a", "b__c"], ["mcp__x__", "x", ""]],
		"mcp_servers": [["mcp__a_", "a_"]],
	}
	allow := simple_list(["Read_File", "mcp__*", "mcp__a_b__Read_*", "mcp__a__b__c", "mcp__a_"], "allow")
	pattern.simple_forms(allow, "allow") == {
		"names": ["read_file"],
		"wildcards": [],
		"all_mcp": true,
		"mcp_prefixes": [["mcp__a_b__read_*", "a_b", "read_"]],
		"mcp_tools": [["mcp__a__b__c", "a", "b__c"]],
		"mcp_servers": [],
	}
}
