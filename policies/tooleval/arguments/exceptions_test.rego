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

# An exception spares a call only through its rule's reading: a domain
# rule's exception is a domain rule on the same URL.
test_exceptions_of_the_rules_kind if {
	rule := {"tool": "web_fetch", "domain": "*.example.com", "unless": [{"tool": "web_fetch", "domain": "docs.example.com"}]}
	layer := {"name": "team", "allow": ["web_fetch"], "deny": [rule]}
	rule_outcomes([layer], [
		url("https://docs.example.com/evil"),
		url("https://evil.example.com/"),
		url("https://docs.example.com@evil.example.com/"),
	]) == [allowed, denied("team"), denied("team")]
}

# A path rule's exceptions are path rules on the same paths; an args
# rule's are args rules.
test_path_and_args_exceptions if {
	layer := {
		"name": "team", "allow": ["read_file", "deploy"],
		"deny": [
			{"tool": "read_file", "path": "secrets/**", "unless": [{"tool": "read_file", "path": "secrets/public/**"}]},
			{"tool": "deploy", "args_pattern": `"env":"prod`, "unless": [{"tool": "deploy", "args": {"env": "prod-canary"}}]},
		],
	}
	request := object.union(
		path_request([layer], [
			read_call("/ws/secrets/public/a"),
			read_call("/ws/secrets/key"),
			["deploy", {"env": "prod-canary"}],
			["deploy", {"env": "prod"}],
		]),
		{"declared": [{"name": "read_file"}, {"name": "deploy"}]},
	)
	[[d.outcome, object.get(d, "layer", null)] | some d in tooleval.decision.decisions] == [
		["allow", null], ["deny", "team"], ["allow", null], ["deny", "team"],
	] with input as request
}

# The rule of a whole tool (args_pattern "") takes exceptions of every
# kind, judged together as an allow list judges a call: the shell's
# command (rule_arguments names one) must be read exactly and allowed
# by its command exceptions, so a path or args exception alone never
# spares a shell call; with a command exception too, both must hold.
test_a_whole_tools_exceptions_are_judged_as_an_allow_list if {
	path_only := {"name": "team", "allow": [shell], "deny": [{"tool": shell, "args_pattern": "", "unless": [{"tool": shell, "path": "tmp/**"}]}]}
	args_only := {"name": "team", "allow": [shell], "deny": [{"tool": shell, "args_pattern": "", "unless": [{"tool": shell, "args": {"description": "safe"}}]}]}
	both := {"name": "team", "allow": [shell], "deny": [{"tool": shell, "args_pattern": "", "unless": [
		{"tool": shell, "path": "tmp/**"},
		{"tool": shell, "command_prefix": "ls"},
	]}]}
	in_tmp := [shell, {"command": "rm -rf /", "cwd": "/ws/tmp"}]
	safe := [shell, {"command": "rm -rf /", "description": "safe"}]
	ls_in_tmp := [shell, {"command": "ls -l", "cwd": "/ws/tmp"}]
	ws_shell_outcomes([path_only], [in_tmp, ls_in_tmp]) == [denied("team"), denied("team")]
	ws_shell_outcomes([args_only], [safe]) == [denied("team")]
	ls_elsewhere := [shell, {"command": "ls -l", "cwd": "/ws/src"}]
	ws_shell_outcomes([both], [in_tmp, ls_in_tmp, ls_elsewhere]) == [denied("team"), allowed, denied("team")]
}

# The outcomes of shell calls under a workspace at /ws.
ws_shell_outcomes(layers, calls) := [[d.outcome, object.get(d, "reason", null), object.get(d, "layer", null)] |
	some d in decisions
] if {
	request := object.union(path_request(layers, calls), {"declared": [{"name": shell}]})
	decisions := tooleval.decision.decisions with input as request
}

# [list, rule, the unless indexes check refuses as exception_kind]
exception_kind_rows := [
	["deny", {"tool": shell, "command_prefix": "rm", "unless": [{"tool": shell, "path": "tmp/**"}]}, [0]],
	["deny", {"tool": shell, "command_prefix": "rm", "unless": ["read_file", {"tool": shell, "args": {"description": "x"}}]}, [1]],
	[
		"ask", {"tool": shell, "command": "git push", "unless": [
			{"tool": shell, "args_pattern": "x"},
			{"tool": shell, "command_prefix": "git push --dry-run"},
		]},
		[0],
	],
	["deny", {"tool": "web_fetch", "domain": "*", "unless": [{"tool": "web_fetch", "args": {"url": "https://a.example/"}}]}, [0]],
	["deny", {"tool": "read_file", "path": "**", "unless": [{"tool": "read_file", "domain": "a.example"}, {"tool": "read_file", "path": "src/**"}]}, [0]],
	["deny", {"tool": shell, "args_pattern": "x", "unless": [{"tool": shell, "command_prefix": "ls"}, {"tool": shell, "args": {"a": 1}}]}, [0]],
	["deny", {"tool": shell, "args": {"a": 1}, "unless": [{"tool": shell, "command_wildcard": "ls *"}]}, [0]],
	["deny", {"tool": shell, "command_wildcard": "git * main", "unless": [{"tool": shell, "command": "git push main"}, "read_file"]}, []],
	["deny", {"tool": shell, "args_pattern": "", "unless": [{"tool": shell, "path": "tmp/**"}, {"tool": shell, "args": {"a": 1}}]}, []],
]

test_an_exception_of_another_kind_is_an_error if {
	got := [[[e.code, e.index, e.unless] | some e in d.errors] |
		some row in exception_kind_rows
		layer := {"name": "team", "allow": null, row[0]: [row[1]]}
		d := tooleval.decision with input as rule_request([layer], [cmd("ls")])
	]
	want := [[["exception_kind", 0, k] | some k in row[2]] | some row in exception_kind_rows]
	[[i, got[i], want[i]] | some i, _ in exception_kind_rows; got[i] != want[i]] == []
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
