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
	[5],
	[{"name": 5}],
]

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
