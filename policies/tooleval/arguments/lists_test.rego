package tooleval.arguments_test

import data.tooleval.arguments
import data.tooleval.configuration

# An ask list is read with the deny grammar (it narrows).
test_list_grammar if {
	arguments.list_grammar == {"allow": "allow", "deny": "deny", "ask": "deny"}
}

# A list's problems: its name entries', and for each argument rule its
# own problem, else its tool read as an entry of the list; an argument
# rule is never reported as a name entry that is not a string.
test_list_problems if {
	every tc in [
		{"entries": ["read_file", "mcp__github__*"], "list": "allow", "want": []},
		{"entries": ["read_file", {"tool": "Bash", "command_prefix": "git status"}], "list": "allow", "want": []},
		{"entries": ["read_file", 3], "list": "deny", "want": [[1, "non_string_entry"]]},
		{"entries": [{"tool": "Bash", "command_prefx": "git"}], "list": "deny", "want": [[0, "unknown_rule_member"]]},
		{"entries": [{"tool": 3, "command_prefix": "git"}], "list": "ask", "want": [[0, "invalid_rule_tool"]]},
	] {
		[[p.index, p.code] | some p in arguments.list_problems(tc.entries, tc.list, {})] == tc.want
	}
}

# Whether a list has an argument rule, and its name entries.
test_has_rules_and_names if {
	arguments.has_rules(["a", {"tool": "Bash", "command_prefix": "ls"}])
	not arguments.has_rules(["a", "b"])
	not arguments.has_rules([])
	arguments.names(["a", {"tool": "Bash", "command_prefix": "ls"}, "b"]) == ["a", "b"]
	arguments.names_and_rule_tools(["a", {"tool": "Bash", "command_prefix": "ls"}]) == ["a", "Bash"]
	arguments.names_and_rule_tools(null) == null
}

# Lists are compiled only when one has an argument rule (most layers
# and stages have none: null), the allow list's names with them.
test_compile_lists if {
	vocabulary := configuration.vocabulary(configuration.config)
	arguments.compile_lists(["a"], ["b"], [], "layers[0]", vocabulary) == null
	c := arguments.compile_lists(["read_file"], [{"tool": "Bash", "command_prefix": "git push"}], [], "config.tools", vocabulary)
	c.source == "config.tools"
	count(c.deny) == 1
	c.allow == []
	c.ask == []
}

# A layer or stage judges calls past their names when its ask list has
# a name entry, it has argument rules, or it asks otherwise.
test_judges if {
	not arguments.judges([], null, "deny")
	arguments.judges(["Bash"], null, "deny")
	arguments.judges([], {"allow": []}, "deny")
	arguments.judges([], null, "ask")
}
