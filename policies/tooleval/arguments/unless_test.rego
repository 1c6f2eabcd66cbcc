# Exceptions (unless) of deny and ask argument rules: a call (or a part
# of its command) that one of them allows exactly is not bitten by the
# rule. They carry an ordered list such as Gemini CLI's, where a rule of
# higher priority comes before one of lower priority, into deny, ask and
# allow lists: a deny of `git` under an allow of `git status` of higher
# priority is a deny of `git` unless `git status`.
package tooleval.arguments_test

import data.tooleval
import data.tooleval.arguments

# Everything of the shell is denied but git status and ls (exceptions),
# which the allow list allows; git push is asked about unless it is
# git push --dry-run.
unless_layer := {
	"name": "team",
	"allow": [
		"read_file",
		{"tool": shell, "command_prefix": "git status"},
		{"tool": shell, "command_prefix": "ls"},
		{"tool": shell, "command_prefix": "git push --dry-run"},
		{"tool": shell, "command_prefix": "git push"},
	],
	"deny": [{"tool": shell, "args_pattern": "", "unless": [
		{"tool": shell, "command_prefix": "git status"},
		{"tool": shell, "command_prefix": "ls"},
		{"tool": shell, "command_prefix": "git push"},
	]}],
	"ask": [{"tool": shell, "command_prefix": "git push", "unless": [{"tool": shell, "command_prefix": "git push --dry-run"}]}],
}

# [what, command, expected outcome under unless_layer]
unless_rows := [
	["an exception spares its calls", "git status", allowed],
	["by prefix", "git status --short", allowed],
	["two parts, each spared", "git status && ls -l", allowed],
	["one part not spared is bitten", "git status && rm -rf x", denied("team")],
	["nothing spares another command", "rm -rf x", denied("team")],
	["an ask rule's exception", "git push --dry-run origin", allowed],
	["an ask rule bites what its exception does not allow", "git push origin", asked("team")],
	["a wrapper is never spared", "sudo git status", denied("team")],
	["an unreadable command is never spared", "git status $(rm -rf x)", denied("team")],
	["options do not make an exception", "git -C . status", denied("team")],
]

test_exceptions_spare_what_they_allow_exactly if {
	every row in unless_rows {
		rule_outcomes([unless_layer], [cmd(row[1])]) == [row[2]]
	}
}

# A rule with exceptions and a name entry among them: the tool named is
# spared whatever its arguments; another tool is not.
test_a_name_exception_spares_the_whole_tool if {
	layer := {"name": "team", "allow": null, "deny": [{"tool": "r*", "args_pattern": "", "unless": ["read_file"]}]}
	rule_outcomes([layer], [["read_file", {"path": "/etc/passwd"}], cmd("ls")]) == [allowed, denied("team")]
}

# Exceptions of other kinds than the rule's are judged on the whole call,
# as an allow rule of that kind alone would.
test_exceptions_of_another_kind if {
	rule := {"tool": "web_fetch", "args_pattern": "evil", "unless": [{"tool": "web_fetch", "domain": "docs.example.com"}]}
	layer := {"name": "team", "allow": ["web_fetch"], "deny": [rule]}
	rule_outcomes([layer], [
		url("https://docs.example.com/evil"),
		url("https://evil.example.com/"),
		url("https://docs.example.com@evil.example.com/"),
	]) == [allowed, denied("team"), denied("team")]
}

# unless belongs to deny and ask rules, is a non-empty list of allow
# entries, and an exception has no exceptions of its own; an exception's
# tool is checked as an allow entry.
test_invalid_exceptions if {
	rows := [
		["allow", {"tool": shell, "command_prefix": "ls", "unless": ["read_file"]}, "invalid_unless"],
		["deny", {"tool": shell, "command_prefix": "ls", "unless": []}, "invalid_unless"],
		["deny", {"tool": shell, "command_prefix": "ls", "unless": "read_file"}, "invalid_unless"],
		["deny", {"tool": shell, "command_prefix": "ls", "unless": [1]}, "invalid_unless"],
		["ask", {"tool": shell, "command_prefix": "ls", "unless": [{"tool": shell, "command_prefix": "ls -l", "unless": ["x"]}]}, "invalid_unless"],
		["deny", {"tool": shell, "command_prefix": "ls", "unless": [{"tool": shell, "command_prefix": "sudo ls"}]}, "invalid_unless"],
		["deny", {"tool": shell, "command_prefix": "ls", "unless": [{"tool": shell}]}, "invalid_unless"],
	]
	every row in rows {
		arguments.rule_problem(row[1], row[0]) == row[2]
	}
	not arguments.rule_problem({"tool": shell, "command_prefix": "ls", "unless": ["read_file", {"tool": shell, "command": "ls -l"}]}, "deny")
}

test_an_exceptions_tool_is_checked_as_an_allow_entry if {
	layer := {"name": "team", "allow": null, "deny": [{"tool": shell, "args_pattern": "", "unless": ["mcp__s__*", "read*"]}]}
	d := tooleval.decision with input as rule_request([layer], [cmd("ls")])
	{[e.code, e.unless] | some e in d.errors} == {["builtin_wildcard_in_allow", 1]}
	[x.outcome | some x in d.decisions] == ["deny"]
}
