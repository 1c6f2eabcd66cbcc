package tooleval.pattern_test

import data.tooleval.pattern

# The names of exec and apply_patch, as declared records carry them.
exec_names := {"key": "exec", "names": {"exec": true, "bash": true}}

patch_names := {"key": "apply_patch", "names": {"apply_patch": true, "apply-patch": true}}

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
	# Case variants, names that are prefixes of each other, a built-in
	# named like an MCP tool, servers with _ in them, empty lists, lists
	# mixing simple entries with groups.
	[["READ_FILE"], "allow", builtin("read_file"), true],
	[["MCP__S__T"], "allow", mcp("mcp__s__t", "s", "t"), true],
	[["read"], "allow", builtin("read_file"), false],
	[["read_file"], "allow", builtin("read"), false],
	[["read*"], "deny", builtin("read_file"), true],
	[["read_file*"], "deny", builtin("read"), false],
	[["mcp__s__read"], "allow", mcp("mcp__s__read_x", "s", "read_x"), false],
	[["mcp__s__read_x"], "allow", mcp("mcp__s__read", "s", "read"), false],
	[["mcp__a__b"], "allow", builtin("mcp__a__b"), false],
	[["mcp__a__b"], "deny", builtin("mcp__a__b"), false],
	[["mcp__a__*"], "deny", builtin("mcp__a__b"), false],
	[["mcp__*"], "deny", peer("mcp__a__b"), false],
	[["mcp__a"], "deny", builtin("mcp__a"), false],
	[["mcp__a_b__*"], "allow", mcp("mcp__a_b__c", "a_b", "c"), true],
	[["mcp__a_b__*"], "allow", mcp("mcp__a_b__c", "a", "b__c"), false],
	[["mcp__a__b_*"], "allow", mcp("mcp__a__b_c", "a", "b_c"), true],
	[["mcp__a__b__c"], "deny", mcp("mcp__x__y", "a", "b__c"), true],
	[["mcp__a__b__c"], "deny", mcp("mcp__x__y", "a_b", "c"), false],
	[["mcp__a_"], "deny", mcp("mcp__a___x", "a_", "x"), true],
	[["mcp__a_"], "deny", mcp("mcp__a__x", "a", "x"), false],
	[[], "deny", builtin("read_file"), false],
	[[], "deny", mcp("mcp__s__t", "s", "t"), false],
	[[], "allow", mcp("mcp__s__t", "s", "t"), false],
	[["read_file", "group:edit", "mcp__s__*"], "allow", mcp("mcp__s__t", "s", "t"), true],
	[["read_file", "group:edit", "mcp__s__*"], "allow", builtin("edit"), true],
	[["read_file", "group:edit", "mcp__s__*"], "allow", builtin("grep"), false],
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
