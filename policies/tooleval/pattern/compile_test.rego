package tooleval.pattern_test

import data.tooleval.pattern
import data.tooleval.shape

# The vocabularies of the tests: groups (grammar_test.rego) without
# aliases, and with OpenClaw-like ones.
vocabulary := pattern.vocabulary(groups, {})

# An OpenClaw-like vocabulary: bash is an alias of exec.
aliased := pattern.vocabulary(groups, {"bash": "exec", "apply-patch": "apply_patch"})

test_compile_expands_groups_and_skips_invalid_entries if {
	m := pattern.compile(["Read_File", "group:edit", "*", "mcp__a__x*", "mcp__a__y*", "mcp__b__*", 3], "allow", vocabulary)
	m == {
		"exact": {"read_file": true, "write_file": true, "edit": true},
		"names": {"read_file": true, "write_file": true, "edit": true},
		"all_mcp": false,
		"raw": {"lengths": [0, 1], "prefixes": {"1:ax": true, "1:ay": true, "1:b": true}},
		"raw_exact": {},
		"prefixes": {"lengths": [], "prefixes": {}},
		"mcp_name_prefixes": {"lengths": [], "prefixes": {}},
	}
}

test_compile_deny_indexes_names_and_raw_identities if {
	m := pattern.compile(["debug_*", "mcp__s__q*", "mcp__foo.bar", "mcp__foo.bar__run", "mcp__*"], "deny", vocabulary)
	m == {
		"exact": {},
		"names": {"mcp__foo.bar": true, "mcp__foo.bar__run": true},
		"all_mcp": true,
		"raw": {"lengths": [0, 1], "prefixes": {"1:sq": true, "7:foo.bar": true}},
		"raw_exact": {"7:foo.barrun": true},
		"prefixes": {"lengths": [6], "prefixes": {"debug_": true}},
		"mcp_name_prefixes": {"lengths": [9, 14], "prefixes": {"mcp__s__q": true, "mcp__foo.bar__": true}},
	}
}

test_bare_server_in_allow_matches_nothing if {
	m := pattern.compile(["mcp__github"], "allow", vocabulary)
	m.names == {}
	m.raw == {"lengths": [], "prefixes": {}}
}

# Keys carry the server's length: server a with prefix bc is not server
# ab with prefix c.
test_raw_keys_do_not_collide if {
	pattern.raw_key("a", "bc") != pattern.raw_key("ab", "c")
	m := pattern.compile(["mcp__a__b\u0000c*"], "allow", vocabulary)
	not pattern.matches(m, "x", {"kind": "mcp", "server": "a\u0000b", "tool": "cd"})
	pattern.matches(m, "x", {"kind": "mcp", "server": "a", "tool": "b\u0000cd"})
}

test_a_group_named_many_times_expands_once if {
	[f.entry | some f in pattern.expand(["group:edit", "x", "GROUP:EDIT", "group:edit"], groups)] == ["x", "write_file", "edit"]
}

# Entries at the edges of the simple forms (simple_list): case variants,
# names that are prefixes of each other or of mcp__, servers with _ in
# them, every wildcard form, entries with a problem, aliases, groups.
edge_entries := [
	"read_file", "READ_FILE", "read", "read_file_2", "bash", "Bash", "exec", "apply-patch",
	"m", "mc", "mcp", "mcp_", "mcpx", "mcp_x", "mcp_*", "m*", "read*", "READ_*", "debug_*",
	"mcp__*", "MCP__*", "mcp__a", "mcp__A", "mcp__a_", "mcp___", "mcp___a", "mcp__a.b",
	"mcp__a__b", "MCP__A__B", "mcp__a__", "mcp__a_b__c", "mcp__a___b", "mcp___a__b", "mcp__a__b__c",
	"mcp__a__*", "mcp__a__b*", "mcp__A_B__Read_*", "mcp__a__b__*", "mcp___a__*",
	"mcp__", "mcp____x", "mcp_____x", "mcp____a__b", "mcp____*", "mcp_____a*", "mcp__a*", "mcp___*", "*", "read*file",
	"group:edit", "group:debug", "réad", " read", 3, "\u017f", "\u212a", "mcp__\u017f__*", "\u212a*",
	"a\", \"b", "mcp__a\", \"mcp__b", "read\u200bfile", "read\nfile",
]

# The lists a test compiles both ways: the tables' lists and every edge
# entry alone (with and without aliases), every simple edge entry with
# each of a few partners that share its canonical form, its tool, its
# server or a prefix, and all of them at once (with aliases).
generated_lists := array.concat(
	[[list, [vocabulary, aliased]] | some list in array.concat([c[0] | some c in simple_list_cases], [[e] | some e in edge_entries])],
	[[list, [aliased]] | some list in array.concat([[e, p] | some e in simple_entries; some p in partners], [simple_entries])],
)

partners := ["READ_FILE", "exec", "read*", "mcp__a", "mcp__a__b", "mcp__a__*"]

simple_entries := [e | some e in edge_entries; pattern.simple_list([e], "deny")]

# The whole-list path gives exactly what the entry-by-entry path gives,
# and finds no problem, for every list it takes; and it takes the lists
# of simple entries whatever their mix.
test_the_whole_list_path_equals_the_entry_by_entry_path if {
	mismatches := {[list, kind] |
		some [list, vocabularies] in generated_lists
		some kind in ["allow", "deny"]
		pattern.simple_list(list, kind)
		not _same_both_ways(list, kind, vocabularies)
	}
	mismatches == set()
	simple := {[list, kind] |
		some [list, _] in generated_lists
		some kind in ["allow", "deny"]
		pattern.simple_list(list, kind)
	}
	count(simple) > 300
	pattern.simple_list(["read_file", "mcp__a__b", "mcp__a__*", "MCP__*", "mcp__a", "read*"], "deny")
}

_same_both_ways(list, kind, vocabularies) if {
	pattern.list_problems(list, kind, groups) == []
	every v in vocabularies {
		pattern.compile(list, kind, v) == pattern._compile_entries(list, kind, v)
	}
}

test_nothing_is_the_matcher_of_an_empty_list if {
	pattern.nothing == pattern.compile([], "allow", aliased)
	pattern.nothing == pattern.compile([], "deny", aliased)
	pattern.nothing == pattern._compile_entries([], "deny", vocabulary)
}

# A list over the entry cap is not read: as an allow list it matches no
# tool, as a deny list every tool, built-in, peer agent or MCP.
test_a_list_over_the_cap_is_not_read if {
	long := [sprintf("t%d", [i]) | some i in numbers.range(0, shape.max_entries)]
	allow := pattern.compile(long, "allow", vocabulary)
	deny := pattern.compile(long, "deny", vocabulary)
	every tool in [
		["t1", {"name": "t1", "kind": "builtin", "server": null, "tool": null}],
		["x", {"name": "x", "kind": "agent", "server": null, "tool": null}],
		["mcp__s__t", {"name": "mcp__s__t", "kind": "mcp", "server": "s", "tool": "t"}],
	] {
		not pattern.matches(allow, tool[0], tool[1])
		pattern.matches(deny, tool[0], tool[1])
	}
	count(pattern.compile(array.slice(long, 0, shape.max_entries), "allow", vocabulary).exact) == shape.max_entries
}

# A simple list's text is the list as %v writes it: an entry holding the
# separator is quoted with backslashes and never reads as two entries.
test_an_entry_with_the_separator_is_not_simple if {
	pattern.simple_list(["a", "b"], "deny") == "a\nb"
	not pattern.simple_list(["a\", \"b"], "deny")
	not pattern.simple_list(["mcp__a\", \"mcp__b"], "allow")
}
