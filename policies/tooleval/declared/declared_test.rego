package tooleval.declared_test

import data.tooleval.declared

errors_of(list) := [[e.code, e.index] | some e in declared.errors(list)]

# [declarations, expected [code, index] errors]
error_cases := [
	[[{"name": "read_file"}, {"name": "mcp__s__t", "mcp": {"server": "s", "tool": "t"}}, {"name": "r", "agent": true}], []],
	[[5], [["invalid_declaration", 0]]],
	[[{"name": 5}], [["invalid_declaration", 0]]],
	[[{"name": "e\u0301"}], [["uncanonicalizable_name", 0]]],
	[[{"name": "\u200b"}], [["invalid_declaration", 0]]],
	[[{"name": "x", "agent": "yes"}], [["invalid_declaration", 0]]],
	[[{"name": "mcp__s__t", "agent": true, "mcp": {"server": "s", "tool": "t"}}], [["invalid_declaration", 0]]],
	[[{"name": "mcp__s__t", "mcp": "s"}], [["invalid_declaration", 0]]],
	[[{"name": "mcp__s__t", "mcp": {"server": "s"}}], [["invalid_declaration", 0]]],
	[[{"name": "mcp__s__t", "mcp": {"server": "e\u0301", "tool": "t"}}], [["uncanonicalizable_name", 0]]],
	[[{"name": "mcp__s__t", "mcp": {"server": "", "tool": "t"}}], [["invalid_declaration", 0]]],
	[[{"name": "MCP__github__read"}], [["builtin_impersonates_mcp", 0]]],
	[[{"name": "mcp__x", "agent": true}], [["builtin_impersonates_mcp", 0]]],
	[[{"name": "Search"}, {"name": "ok"}, {"name": "\uff33earch"}], [["duplicate_declaration", 0], ["duplicate_declaration", 2]]],
]

test_declaration_errors if {
	mismatches := {[list, got, want] |
		some [list, want] in error_cases
		got := errors_of(list)
		got != want
	}
	mismatches == set()
}

test_index_keeps_valid_unambiguous_declarations if {
	list := [{"name": "Search"}, {"name": "SEARCH"}, {"name": 1}, {"name": "Read_File"}, {"name": "mcp__S__T", "mcp": {"server": "Git.Hub", "tool": "Read"}}]
	index := declared.index(list, {})
	object.keys(index) == {"read_file", "mcp__s__t"}
	index.read_file.name == "Read_File"
	index.mcp__s__t.server == "git.hub"
	index.mcp__s__t.tool == "read"
	index.mcp__s__t.kind == "mcp"
}

test_clean_declarations_take_the_fast_path if {
	list := [{"name": "Read_File"}, {"name": "r", "agent": true}, {"name": "mcp__s__t", "mcp": {"server": "S", "tool": "T"}}]
	declared.clean(list)
	declared.errors(list) == []
	declared.index(list, {}) == {
		"read_file": {"name": "Read_File", "kind": "builtin", "server": null, "tool": null},
		"r": {"name": "r", "kind": "agent", "server": null, "tool": null},
		"mcp__s__t": {"name": "mcp__s__t", "kind": "mcp", "server": "s", "tool": "t"},
	}
	not declared.clean([{"name": "a"}, {"name": "A"}])
	not declared.clean([{"name": "a", "agent": "yes"}])
	not declared.clean([{"name": "mcp__a"}])
}

test_built_ins_with_aliases_carry_their_names if {
	names := {"bash": {"key": "exec", "names": {"exec": true, "bash": true}}}
	declared.index([{"name": "Bash"}], names) == {"bash": {
		"name": "Bash", "kind": "builtin", "server": null, "tool": null,
		"key": "exec", "names": {"exec": true, "bash": true},
	}}
}

# Lists the whole-list path (_plain_list_tools) takes, and lists it
# leaves to the declaration-by-declaration path.
plain_declaration_lists := [
	[],
	[{"name": "Read_File"}, {"name": "r", "agent": true}, {"name": "w", "agent": false}],
	[{"name": "mcp__s__t", "mcp": {"server": "S", "tool": "T"}}, {"name": "X", "mcp": {"server": "s", "tool": "t"}, "agent": false}],
	[{"name": "Bash"}, {"name": "grep"}, {"name": "mcp__s__bash", "mcp": {"server": "s", "tool": "bash"}}],
	[{"name": long_name(256)}, {"name": "m", "mcp": {"server": long_name(256), "tool": long_name(256)}}],
	[{"name": "A.b-C_9", "agent": true}, {"name": "Mcp__S__T", "mcp": {"server": "S.1", "tool": "T-2"}, "agent": false}],
	[{"name": "e", "agent": false}, {"name": "xmcp__y"}, {"name": "mcp", "agent": true}, {"name": "mcp_x"}],
	[{"name": "a"}, {"name": "mcp__a", "mcp": {"server": "a", "tool": "a"}}],
]

not_plain_declaration_lists := [
	[{"name": "a"}, {"name": "A"}],
	[{"name": "a"}, {"name": "A", "mcp": {"server": "s", "tool": "t"}}],
	[{"name": "a", "agent": "yes"}],
	[{"name": "a", "agent": null}],
	[{"name": "a", "mcp": null}],
	[{"name": "a", "description": "more members than the plain form"}],
	[{"name": "MCP__a"}],
	[{"name": "mcp__x", "agent": true}],
	[{"name": "mcp__s__t", "agent": true, "mcp": {"server": "s", "tool": "t"}}],
	[{"name": "mcp__s__t", "mcp": {"server": "s", "tool": "t", "title": "T"}}],
	[{"name": "mcp__s__t", "mcp": {"server": "", "tool": "t"}}],
	[{"name": "e\u0301"}],
	[{"name": "a b"}],
	[{"name": ""}],
	[{"name": "x\"},{\"name\":\"y"}],
	[{"name": "x\"}, {\"name\": \"y"}],
	[{"name": "x"}, {"name": "mcp\", \"name\": \"y"}],
	[5],
	[{"name": 5}],
	[{"name": long_name(257)}],
	[{"name": "m", "mcp": {"server": long_name(257), "tool": "t"}}],
	[{"name": "m", "mcp": {"server": "s", "tool": long_name(257)}}],
	[{"name": "m", "mcp": {"server": "s", "tool": ""}}],
	[{"name": "mcp__x", "agent": false}],
	[{"name": "Mcp__x", "agent": true}],
	[{"name": "a"}, {"name": "a"}],
	[{"name": "a", "agent": true}, {"name": "A", "agent": false}],
	[{"name": "b"}, {"name": "a", "agent": true}, {"name": "A", "mcp": {"server": "s", "tool": "t"}, "agent": false}],
	[{"name": "a", "mcp": {"server": "s", "tool": "t"}, "agent": true}],
	[{"name": "a", "mcp": {"tool": "t", "server": "s", "x": "y"}}],
	[{"name": "a", "mcp": {"server": "s", "tool": 5}}],
	[{"name": "a", "agent": 0}],
	[[{"name": "a"}]],
	[{"name": "\u00c5"}],
	[{"name": "a\u212a"}],
	[{"name": "tab\tname"}],
	# not a list: a string that %v would write as one, unquoted
	`[{"name": "x"}]`,
	`[[{"name": "x"}]]`,
	# not a list: an object that would read as one declaration inside the
	# brackets the whole-list reading adds
	{"name": "x"},
]

# A string of n x.
long_name(n) := concat("", [x | some _ in numbers.range(1, n); x := "x"])

test_the_whole_list_path_equals_the_declaration_by_declaration_path if {
	every list in plain_declaration_lists {
		every names in [{}, {"bash": {"key": "exec", "names": {"exec": true, "bash": true}}}] {
			declared._read_each(list, names).errors == []
			declared._plain_list_tools(list, names) == declared._read_each(list, names).tools
		}
	}
	every list in not_plain_declaration_lists {
		not declared._plain_list_tools(list, {})
	}
}

# Generated lists: each seed's list of n plain declarations of every form
# (built-ins, peer agents, MCP tools, with and without agent false, upper
# and lower case), and the same list with one of them replaced by a
# declaration at the edge of the plain form.
generated_declaration(seed, i) := [
	{"name": sprintf("t%d_%d", [seed, i])},
	{"name": sprintf("T%d_%d", [seed, i])},
	{"name": sprintf("a%d.%d", [seed, i]), "agent": true},
	{"name": sprintf("B%d-%d", [seed, i]), "agent": false},
	{"name": sprintf("mcp__S%d__t%d", [seed, i]), "mcp": {"server": sprintf("S%d", [seed]), "tool": sprintf("T%d", [i])}},
	{"name": sprintf("mcp__s%d__x%d", [seed, i]), "mcp": {"server": "s", "tool": sprintf("x%d", [i])}, "agent": false},
	{"name": sprintf("Mcp__%d_%d", [seed, i]), "mcp": {"server": "M", "tool": "m"}},
	{"name": sprintf("e%d_%d", [seed, i]), "agent": false},
][(seed + (3 * i)) % 8]

edge_declarations := [
	{"name": "t0_0"},
	{"name": "T0_0", "mcp": {"server": "s", "tool": "t"}},
	{"name": long_name(256)},
	{"name": long_name(257)},
	{"name": "m", "mcp": {"server": long_name(257), "tool": "t"}},
	{"name": "mcp__x"},
	{"name": "MCP__x", "agent": false},
	{"name": "mcp__x", "agent": true},
	{"name": "x", "agent": "no"},
	{"name": "x", "description": "d"},
	{"name": ""},
	{"name": "x y"},
	{"name": "\u00e9"},
	{"name": "m", "mcp": {"server": "", "tool": "t"}},
	{"name": "m", "mcp": {"server": "s", "tool": "t"}, "agent": true},
	"x",
]

generated_lists := [list |
	some seed in numbers.range(0, 47)
	n := (seed % 6) + 1
	plain := [generated_declaration(seed, i) | some i in numbers.range(0, n - 1)]
	some list in [plain, _with_edge(plain, seed % n, edge_declarations[seed % count(edge_declarations)])]
]

_with_edge(list, at, edge) := array.flatten([array.slice(list, 0, at), [edge], array.slice(list, at + 1, count(list))])

generated_names := {
	"t1_0": {"key": "exec", "names": {"exec": true, "t1_0": true}},
	"a2.0": {"key": "a2.0", "names": {"a2.0": true, "x": true}},
	"mcp__s5__x0": {"key": "k", "names": {"k": true}},
}

test_the_two_paths_agree_on_generated_lists if {
	disagreements := [list |
		some list in generated_lists
		some names in [{}, generated_names]
		not _paths_agree(list, names)
	]
	disagreements == []

	# Both paths are exercised: every unchanged list takes the whole-list
	# path, and some lists with an edge declaration do not.
	every seed in numbers.range(0, 47) {
		declared._plain_list_tools(generated_lists[2 * seed], generated_names)
	}
	count([list | some list in generated_lists; not declared._plain_list_tools(list, {})]) >= 20
}

# The whole-list path, where it is taken, reads a list exactly as the
# declaration-by-declaration path does: no error and the same index.
_paths_agree(list, names) if {
	not declared._plain_list_tools(list, names)
}

_paths_agree(list, names) if {
	declared._read_each(list, names).errors == []
	declared._plain_list_tools(list, names) == declared._read_each(list, names).tools
}

# [declarations, whole-list path taken]: the edge of the plain form.
boundary_cases := [
	[[{"name": long_name(256)}], true],
	[[{"name": long_name(257)}], false],
	[[{"name": "m", "mcp": {"server": long_name(256), "tool": "t"}}], true],
	[[{"name": "m", "mcp": {"server": long_name(257), "tool": "t"}}], false],
	[[{"name": "mcp__a", "mcp": {"server": "s", "tool": "t"}}], true],
	[[{"name": "mcp__a"}], false],
	[[{"name": "xmcp__a"}], true],
	[[{"name": "a"}, {"name": "b"}], true],
	[[{"name": "a"}, {"name": "A"}], false],
	[[{"name": "a", "agent": false}], true],
	[[{"name": "a", "agent": null}], false],
]

test_whole_list_path_boundary if {
	mismatches := [[list, want] |
		some [list, want] in boundary_cases
		_taken(list) != want
	]
	mismatches == []
}

_taken(list) if {
	declared._plain_list_tools(list, {})
} else := false
