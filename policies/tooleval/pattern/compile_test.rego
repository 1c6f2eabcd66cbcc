package tooleval.pattern_test

import data.tooleval.pattern

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
