package tooleval.pattern_test

import data.tooleval.pattern
import data.tooleval.shape

groups := {
	"edit": ["write_file", "edit"],
	"debug": ["debug_*"],
	"nested": ["group:edit"],
	"broken": ["*"],
}

vocabulary := pattern.vocabulary(groups, {})

# An OpenClaw-like vocabulary: bash is an alias of exec.
aliased := pattern.vocabulary(groups, {"bash": "exec", "apply-patch": "apply_patch"})

# The names of exec and apply_patch, as declared records carry them.
exec_names := {"key": "exec", "names": {"exec": true, "bash": true}}

patch_names := {"key": "apply_patch", "names": {"apply_patch": true, "apply-patch": true}}

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
	# In a deny list an MCP pattern also bites on the model-visible name,
	# and a bare mcp__S denies the whole server.
	[["mcp__foo_bar__*"], "deny", mcp("mcp__foo_bar__q", "foo.bar", "q"), true],
	[["mcp__foo_bar__q*"], "deny", mcp("mcp__foo_bar__qx", "foo.bar", "qx"), true],
	[["mcp__foo.bar__*"], "deny", mcp("mcp__foo_bar__q", "foo.bar", "q"), true],
	[["mcp__foo.bar"], "deny", mcp("mcp__foo_bar__q", "foo.bar", "q"), true],
	[["mcp__foo_bar"], "deny", mcp("mcp__foo_bar__q", "foo.bar", "q"), true],
	[["mcp__foo.bar__q"], "deny", mcp("mcp__foo_bar__q", "foo.bar", "q"), true],
	[["mcp__foo.bar__r"], "deny", mcp("mcp__foo_bar__q", "foo.bar", "q"), false],
	[["mcp__github"], "deny", mcp("mcp__github__read", "github", "read"), true],
	[["mcp__github"], "deny", mcp("mcp__githubx__read", "githubx", "read"), false],
	[["mcp__github"], "deny", builtin("github"), false],
	[["mcp__github"], "allow", mcp("mcp__github__read", "github", "read"), false],
	[["mcp__foo.bar__q"], "allow", mcp("mcp__foo_bar__q", "foo.bar", "q"), false],
	[["mcp__s__*"], "deny", mcp("s_read", "s", "read"), true],
	[["mcp__s__read*"], "deny", mcp("mcp__t__x", "s", "read_x"), true],
	# Many prefixes of one server cost one look-up per distinct length.
	[["mcp__s__q1*", "mcp__s__q22*", "mcp__s__q333*"], "deny", mcp("mcp__s__q333x", "s", "q333x"), true],
	[["mcp__s__q1*", "mcp__s__q22*", "mcp__s__q333*"], "deny", mcp("mcp__s__q3", "s", "q3"), false],
]

matched(list, kind, tool) if {
	pattern.matched(pattern.compile(list, kind, vocabulary), {tool.canonical: tool})[tool.canonical]
} else := false

aliased_match(list, kind, tool) if {
	pattern.matched(pattern.compile(list, kind, aliased), {tool.canonical: tool})[tool.canonical]
} else := false

# [list, kind, tool, matches] under aliases: an alias and its tool are one
# name in every list; a deny prefix bites on any of the tool's names.
alias_cases := [
	[["bash"], "deny", object.union(builtin("exec"), exec_names), true],
	[["exec"], "deny", object.union(builtin("bash"), exec_names), true],
	[["BASH"], "allow", object.union(builtin("exec"), exec_names), true],
	[["apply-patch"], "allow", object.union(builtin("apply_patch"), patch_names), true],
	[["ba*"], "deny", object.union(builtin("exec"), exec_names), true],
	[["ex*"], "deny", object.union(builtin("bash"), exec_names), true],
	[["bash"], "deny", builtin("bashful"), false],
	[["bash"], "deny", mcp("bash", "s", "bash"), true],
	[["exec"], "deny", mcp("bash", "s", "bash"), false],
	[["group:edit"], "deny", builtin("exec"), false],
]

test_aliases_are_one_name if {
	mismatches := {[list, tool, want] |
		some [list, kind, tool, want] in alias_cases
		got := aliased_match(list, kind, tool)
		got != want
	}
	mismatches == set()
}

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

test_lists_are_capped if {
	long := [sprintf("t%d", [i]) | some i in numbers.range(0, 4096)]
	pattern.list_problems(long, "deny", groups) == [{"index": 4096, "entry": "t4096", "code": "too_many_entries"}]
	pattern.list_problems(array.slice(long, 0, 4096), "deny", groups) == []
	pattern.problem_messages.too_many_entries == "a list may have at most 4096 entries"
}

test_a_group_named_many_times_expands_once if {
	[f.entry | some f in pattern.expand(["group:edit", "x", "GROUP:EDIT", "group:edit"], groups)] == ["x", "write_file", "edit"]
}

# matched works a whole catalog at a time, and must hold for exactly the
# tools matches holds for: every list of the tables above, against a
# catalog of every tool in them (one record per canonical name).
test_matched_is_matches_over_a_catalog if {
	mismatches := {[list, kind] |
		some [vocab, cases] in [[vocabulary, match_cases], [aliased, alias_cases]]
		catalog := {name: [c[2] | some c in cases; c[2].canonical == name][0] |
			some name in {c[2].canonical | some c in cases}
		}
		some [list, kind, _, _] in cases
		m := pattern.compile(list, kind, vocab)
		pattern.matched(m, catalog) != {name | some name, record in catalog; pattern.matches(m, name, record)}
	}
	mismatches == set()
}

test_matched_undefined_for_what_is_not_a_compiled_list if {
	tools := {"read_file": builtin("read_file")}
	not pattern.matched({}, tools)
	not pattern.matched("read_file", tools)
	not pattern.matched(object.remove(pattern.compile(["read_file"], "allow", vocabulary), ["raw"]), tools)
	pattern.matched(pattern.compile(["read_file"], "allow", vocabulary), tools) == {"read_file"}
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

test_the_whole_list_path_equals_the_entry_by_entry_path if {
	every list in array.concat(plain_lists, [["bash", "exec", "shell"], ["exec", "bash"]]) {
		every kind in ["allow", "deny"] {
			every v in [vocabulary, pattern.vocabulary(groups, {"bash": "exec", "shell": "exec"})] {
				pattern.compile(list, kind, v) == pattern._compile_entries(list, kind, v)
				pattern.list_problems(list, kind, v.groups) == []
			}
		}
	}
}

test_a_capped_plain_list_is_reported if {
	list := [sprintf("t%d", [i]) | some i in numbers.range(0, shape.max_entries)]
	not pattern.plain_list(list)
	pattern.list_problems(list, "allow", {})[0].code == "too_many_entries"
}
