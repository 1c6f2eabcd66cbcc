package tooleval.configuration.lists_test

import data.tooleval.configuration.lists

# The fields of problems, in order.
fields(problems) := [p.field | some p in problems]

# A list of pattern entries: null where nullable, else an array whose
# entries are each well formed.
test_entries_errors if {
	lists.entries_errors(null, "allow", "config.l", {}, true) == []
	fields(lists.entries_errors(null, "allow", "config.l", {}, false)) == ["config.l"]
	lists.entries_errors("read_file", "allow", "config.l", {}, true)[0].message == "config.l must be an array or null"
	lists.entries_errors(["read_file", "mcp__github__*"], "deny", "config.l", {}, false) == []
	[[p.code, p.field, p.index] | some p in lists.entries_errors(["read_file", 3], "deny", "config.l", {}, false)] == [["non_string_entry", "config.l", 1]]
}

# An allow, deny or ask list whose entries may be argument rules.
test_rule_entries_errors if {
	lists.rule_entries_errors(null, "deny", "config.tools.deny", {}, true) == []
	lists.rule_entries_errors([{"tool": "Bash", "command_prefix": "git push"}, "read_file"], "deny", "config.tools.deny", {}, false) == []
	lists.rule_entries_errors({"tool": "Bash"}, "deny", "config.tools.deny", {}, false)[0].message == "config.tools.deny must be an array"
	misspelt := [{"tool": "Bash", "command_prefx": "git"}]
	[p.field | some p in lists.rule_entries_errors(misspelt, "deny", "config.tools.deny", {}, false)] == ["config.tools.deny"]
}

# The groups an allow list reads: the configuration's, the preset's
# group of a name replacing the configuration's.
test_groups if {
	conf := {
		"groups": {"a": ["x"], "b": ["y"]},
		"preset": "p",
		"presets": {"p": {"groups": {"b": ["z"], "c": ["w"]}}},
	}
	lists.groups(conf) == {"a": ["x"], "b": ["z"], "c": ["w"]}
	lists.groups({"groups": "no", "preset": "q", "presets": {}}) == {}
}

# A preset that is not an object, or names no groups, has none.
test_preset_groups if {
	lists.preset_groups({"preset": "p", "presets": {"p": {"groups": {"g": ["x"]}}}}) == {"g": ["x"]}
	every conf in [
		{"preset": "p", "presets": {"p": ["groups"]}},
		{"preset": "p", "presets": {"p": {"groups": ["x"]}}},
		{"preset": "q", "presets": {"p": {"groups": {"g": ["x"]}}}},
		{"presets": {"p": {"groups": {"g": ["x"]}}}},
		{},
	] {
		lists.preset_groups(conf) == {}
	}
}
