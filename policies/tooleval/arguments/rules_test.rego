# Argument rules through whole decisions (tooleval.decision) under the
# shipped configuration: run_shell_command's command and web_fetch's url
# are the arguments the rules read (config rule_arguments). Rows that
# follow Claude Code's documented behaviour cite
# https://code.claude.com/docs/en/permissions ("permissions"); the rest
# are this policy's own reading, stricter where a shell or a browser
# could read the call otherwise.
package tooleval.arguments_test

import data.tooleval
import data.tooleval.arguments
import data.tooleval.arguments.paths
import data.tooleval.configuration
import data.tooleval.context

# One layer that allows git status, ls and npm run test:* by prefix, and
# exactly `make`.
git_layer := {"name": "team", "allow": [
	"read_file",
	{"tool": shell, "command_prefix": "git status"},
	{"tool": shell, "command_prefix": "ls"},
	{"tool": shell, "command_prefix": "npm run test"},
	{"tool": shell, "command": "make"},
]}

# [source, command, expected outcome under git_layer]
allow_rows := [
	["permissions: prefix", "git status", allowed],
	["permissions: prefix", "git status --short", allowed],
	["permissions: word boundary", "git statusx", not_allowed("team")],
	["permissions: word boundary", "lsof", not_allowed("team")],
	["shorter than the prefix", "git", not_allowed("team")],
	["quotes removed", "'git' \"status\"", allowed],
	["exact", "make", allowed],
	["exact: more words", "make install", not_allowed("team")],
	["permissions: every subcommand", "git status && ls -la", allowed],
	["permissions: every subcommand", "git status; rm -rf /", not_allowed("team")],
	["permissions: every subcommand", "ls | sh", not_allowed("team")],
	["permissions: background", "git status & rm -rf /", not_allowed("team")],
	["newline separates", "git status\nrm -rf /", not_allowed("team")],
	["command substitution", "git status $(rm -rf /)", not_allowed("team")],
	["backticks", "git status `rm -rf /`", not_allowed("team")],
	["process substitution", "ls <(rm -rf /)", not_allowed("team")],
	["redirection", "git status > /etc/passwd", not_allowed("team")],
	["here-document", "ls <<EOF", not_allowed("team")],
	["assignment in front", "GIT_DIR=/tmp git status", not_allowed("team")],
	["permissions: wrappers are not allowed by a prefix", "timeout 5 git status", not_allowed("team")],
	["wrapper", "sudo git status", not_allowed("team")],
	["wrapper", "env git status", not_allowed("team")],
	["wrapper", "xargs ls", not_allowed("team")],
	["program by path", "/usr/bin/git status", not_allowed("team")],
	["program by relative path", "./git status", not_allowed("team")],
	["line continuation", "git sta\\\ntus", not_allowed("team")],
	["glob", "ls *", not_allowed("team")],
	["tilde", "ls ~", not_allowed("team")],
	["case", "GIT status", not_allowed("team")],
	["Unicode look-alike", "gіt status", not_allowed("team")],
	["NUL", "git status\u0000; rm -rf /", not_allowed("team")],
	["empty", "", not_allowed("team")],
	["trailing separator", "git status;", allowed],
]

test_allow_rules_allow_only_commands_read_exactly if {
	got := rule_outcomes([git_layer], [cmd(row[1]) | some row in allow_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in allow_rows; got[i] != row[2]] == []
}

# An allow rule never allows a call whose argument is missing, not a
# string, too long, or comes with an argument that is not inert.
test_allow_rules_never_allow_what_they_cannot_read if {
	long := concat(" ", ["ls" | some _ in numbers.range(1, 4000)])
	calls := [
		[shell, {}],
		[shell, {"command": 7}],
		[shell, {"command": null}],
		[shell, "ls"],
		[shell, {"command": long}],
		[shell, {"command": "ls", "env": {"PATH": "/tmp/evil"}}],
		[shell, {"command": "ls", "dangerouslyDisableSandbox": true}],
	]
	rule_outcomes([git_layer], calls) == [not_allowed("team") | some _ in calls]

	# the inert arguments of the configuration may come with it
	rule_outcomes([git_layer], [[shell, {"command": "ls", "description": "list", "timeout": 5}]]) == [allowed]
}

# A tool the allow list also names outright is allowed whatever its
# arguments; a tool it names by neither is not allowed.
test_a_tool_named_outright_needs_no_argument_rule if {
	both := {"name": "team", "allow": [shell, {"tool": shell, "command_prefix": "ls"}]}
	rule_outcomes([both], [cmd("rm -rf /"), ["read_file", {}]]) == [allowed, not_allowed("team")]
}

deny_layer := {"name": "guard", "deny": [
	{"tool": shell, "command_prefix": "git push"},
	{"tool": shell, "command_prefix": "rm"},
]}

# [source, command, expected outcome under deny_layer]
deny_rows := [
	["prefix", "git push", denied("guard")],
	["prefix", "git push origin main", denied("guard")],
	["options between the words", "git -C /repo push", denied("guard")],
	["options between the words", "git --no-pager push --force", denied("guard")],
	["program by path", "/usr/bin/git push", denied("guard")],
	["program by relative path", "../bin/rm -rf /", denied("guard")],
	["program case", "RM -rf /", denied("guard")],
	["permissions: every subcommand", "ls && rm -rf /", denied("guard")],
	["permissions: every subcommand", "echo hi | git push", denied("guard")],
	["wrapper: what it runs is not read", "sudo ls", denied("guard")],
	["wrapper", "bash -c 'git push'", denied("guard")],
	["wrapper", "xargs echo", denied("guard")],
	["unreadable", "git pu$(echo sh)", denied("guard")],
	["unreadable", "ls > /dev/null", denied("guard")],
	["other program", "git status", allowed],
	["other program", "rmdir x", allowed],
	["other words", "git pull", allowed],
	["a later word of a program not known to run nothing else", "push git", denied("guard")],
	["a later word of an inert program", "ls git push", allowed],
]

test_deny_rules_bite_on_every_reading if {
	got := rule_outcomes([deny_layer], [cmd(row[1]) | some row in deny_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in deny_rows; got[i] != row[2]] == []
}

test_deny_rules_bite_on_what_they_cannot_read if {
	calls := [[shell, {}], [shell, {"command": ["rm"]}], [shell, {"command": "ls", "env": {}}]]
	rule_outcomes([deny_layer], calls) == [denied("guard") | some _ in calls]
}

test_domain_rules if {
	layers := [{"name": "web", "allow": [{"tool": "web_fetch", "domain": "*.example.com"}, {"tool": "web_fetch", "domain": "example.org"}]}]
	rows := [
		["https://docs.example.com/a", allowed],
		["HTTP://Docs.Example.COM./a?b#c", allowed],
		["https://example.org:8443/", allowed],
		["https://example.com/", not_allowed("web")], # *.NAME is below NAME (permissions)
		["https://docs.example.com.evil.net/", not_allowed("web")],
		["https://docs.example.com@evil.net/", not_allowed("web")],
		["https://evil.net\\@docs.example.com/", not_allowed("web")],
		["https://docs%2eexample.com/", not_allowed("web")],
		["ftp://docs.example.com/", not_allowed("web")],
		["//docs.example.com/", not_allowed("web")],
		["https://xn--exmple-cua.org/", not_allowed("web")],
	]
	got := rule_outcomes(layers, [url(row[0]) | some row in rows])
	[[row[0], got[i], row[1]] | some i, row in rows; got[i] != row[1]] == []
}

test_domain_deny_rules_bite_on_any_host_the_url_could_reach if {
	layers := [{"name": "web", "deny": [{"tool": "web_fetch", "domain": "evil.net"}, {"tool": "web_fetch", "domain": "10.0.0.1"}]}]
	rows := [
		["https://evil.net/", denied("web")],
		["https://EVIL.NET./", denied("web")],
		["https://good.com@evil.net/", denied("web")],
		["https://evil.net@good.com/", denied("web")],
		["https://evil%2enet/", denied("web")],
		["http://167772161/", denied("web")],
		["http://0x0a.0.0.1/", denied("web")],
		["https://good.com/", allowed],
		["https://notevil.net/", allowed],
	]
	got := rule_outcomes(layers, [url(row[0]) | some row in rows])
	[[row[0], got[i], row[1]] | some i, row in rows; got[i] != row[1]] == []

	# no URL at all: the deny rule cannot tell, so it bites
	rule_outcomes(layers, [["web_fetch", {}], ["web_fetch", {"url": 3}]]) == [denied("web"), denied("web")]
}

# deny > ask > allow, within a layer and across layers; a later layer
# can turn allow into ask or deny, never back.
test_ask_rules_and_precedence if {
	layers := [
		{"name": "team", "allow": [{"tool": shell, "command_prefix": "npm"}], "ask": [{"tool": shell, "command_prefix": "npm publish"}]},
		{"name": "org", "deny": [{"tool": shell, "command_prefix": "npm publish --force"}]},
	]
	rule_outcomes(layers, [
		cmd("npm test"),
		cmd("npm publish"),
		cmd("npm publish --force"),
		cmd("npm test && npm publish"),
		cmd("npm test; rm x"),
	]) == [allowed, asked("team"), denied("org"), asked("team"), not_allowed("team")]
}

# A session decides argument rules as a one-shot decision does: a tool
# an argument rule names is never a session entry.
test_a_session_decides_argument_rules_as_one_shot if {
	layers := [git_layer, deny_layer]
	calls := [cmd("git status"), cmd("git push"), cmd("ls; rm -rf /"), cmd("make"), ["read_file", {}]]
	req := rule_request(layers, calls)
	one_shot := tooleval.decision.decisions with input as req
	session := tooleval.decide(context.session(req), req).decisions
	one_shot == session
	[d.outcome | some d in session] == ["allow", "deny", "deny", "allow", "allow"]
}

# [entry, list, the error code a layer holding it in list reports]
rule_problem_rows := [
	[{"tool": shell}, "allow", "rule_condition_count"],
	[{"tool": shell, "command_prefix": "ls", "domain": "a.com"}, "allow", "rule_condition_count"],
	[{"tool": shell, "command_prefix": "ls", "note": "x"}, "deny", "unknown_rule_member"],
	[{"command_prefix": "ls"}, "allow", "invalid_rule_tool"],
	[{"tool": 7, "command_prefix": "ls"}, "allow", "invalid_rule_tool"],
	[{"tool": shell, "command_prefix": "ls && rm"}, "allow", "invalid_command_rule"],
	[{"tool": shell, "command_prefix": "ls $(x)"}, "deny", "invalid_command_rule"],
	[{"tool": shell, "command_prefix": ""}, "ask", "invalid_command_rule"],
	[{"tool": shell, "command_prefix": 7}, "allow", "invalid_command_rule"],
	[{"tool": shell, "command": "sudo ls"}, "allow", "wrapper_in_allow"],
	[{"tool": "web_fetch", "domain": "Example.com"}, "allow", "invalid_domain_rule"],
	[{"tool": "web_fetch", "domain": "*example.com"}, "allow", "invalid_domain_rule"],
	[{"tool": "web_fetch", "domain": "https://example.com"}, "deny", "invalid_domain_rule"],
	[{"tool": "web_fetch", "domain": ["a.com"]}, "deny", "invalid_domain_rule"],
	[{"tool": "run_*", "command_prefix": "ls"}, "allow", "builtin_wildcard_in_allow"],
	[{"tool": " x", "command_prefix": "ls"}, "deny", "surrounding_whitespace"],
]

test_malformed_argument_rules_are_errors_that_refuse_every_call if {
	got := [[row[0], codes] |
		some row in rule_problem_rows
		layer := object.union({"name": "l"}, {row[1]: [row[0]]})
		d := tooleval.decision with input as rule_request([layer], [cmd("ls")])
		codes := [e.code | some e in d.errors]
		d.decisions[0].outcome == "deny"
	]
	[[g[0], g[1], row[2]] | some i, row in rule_problem_rows; g := got[i]; g[1] != [row[2]]] == []
	count(got) == count(rule_problem_rows)
}

test_valid_argument_rules_have_no_problem if {
	every entry in [
		{"tool": shell, "command_prefix": "git status"},
		{"tool": shell, "command": "make"},
		{"tool": shell, "command_prefix": "sudo"},
		{"tool": "web_fetch", "domain": "*"},
		{"tool": "web_fetch", "domain": "*.example.com"},
		{"tool": "web_fetch", "domain": "10.0.0.1"},
		{"tool": shell, "command_wildcard": "git * main"},
		{"tool": "read_file", "path": "src/**"},
		{"tool": "read_file", "path": "/"},
		{"tool": "deploy", "args_pattern": `^\{"env":"dev"`},
		{"tool": "deploy", "args": {"env": "dev", "replicas": 2}},
	] {
		not arguments.rule_problem(entry, "deny")
	}
}

# explain shows the rule that refused a call and how it was read.
test_explain_shows_the_rule_and_the_reading if {
	d := tooleval.explain.decisions[0] with input as rule_request([deny_layer], [cmd("ls && rm -rf /")])
	steps := [s | some s in d.trace; s.check == "arguments"]
	steps == [{
		"check": "arguments",
		"outcome": "refused",
		"reason": "denied",
		"layer": "guard",
		"list": "deny",
		"entry": {"tool": shell, "command_prefix": "rm"},
		"source": "layers[0].deny[1]",
		"reading": {"parts": [_inert_part(["ls"]), _inert_part(["rm", "-rf", "/"])], "separators": ["&&"]},
	}]
}

# explain shows the argument rule that asked, where it is and the reading.
test_explain_shows_the_ask_rule_and_the_reading if {
	layers := [{"name": "team", "allow": [shell], "ask": [{"tool": shell, "command_prefix": "ls -R"}]}]
	d := tooleval.explain.decisions[0] with input as rule_request(layers, [cmd("ls -R /")])
	d.outcome == "ask"
	[s | some s in d.trace; s.outcome == "ask"] == [{
		"check": "layer",
		"name": "team",
		"list": "ask",
		"outcome": "ask",
		"reason": "ask",
		"layer": "team",
		"entry": {"tool": shell, "command_prefix": "ls -R"},
		"source": "layers[0].ask[0]",
		"reading": {"parts": [_inert_part(["ls", "-R", "/"])], "separators": []},
	}]
}

# A part of an inert program (tooleval.arguments.shell.inert_programs), as a reading shows it.
_inert_part(words) := {"words": words, "wrapper": false, "exact": true, "runs": set(), "patterns": set(), "reconfigured": false}

# Each preset names its runtime's command and URL arguments; an alias
# reaches its tool's (OpenClaw's bash is exec), and an argument that can
# change what runs is not inert.
test_presets_read_their_runtimes_arguments if {
	cases := [
		["openclaw", "exec", {"command": "ls", "workdir": "/ws"}, "allow"],
		["openclaw", "bash", {"command": "ls"}, "allow"],
		["openclaw", "exec", {"command": "ls", "env": {"PATH": "/tmp"}}, "deny"],
		["openclaw", "exec", {"command": "ls", "elevated": true}, "deny"],
		["claude_code", "Bash", {"command": "ls", "run_in_background": true}, "allow"],
		["claude_code", "Bash", {"command": "ls", "dangerouslyDisableSandbox": true}, "deny"],
		["claude_code", "PowerShell", {"command": "ls"}, "deny"],
		["qwen_code", "run_shell_command", {"command": "ls", "is_background": false}, "allow"],
		["qwen_code", "Shell", {"command": "ls"}, "allow"],
	]
	got := [[c[0], c[1], c[2], outcome, c[3]] |
		some c in cases
		layer := {"name": "team", "allow": [{"tool": c[1], "command_prefix": "ls"}]}
		req := {"declared": [{"name": c[1]}], "layers": [layer], "calls": [{"id": "1", "name": c[1], "args": c[2]}]}
		outcome := tooleval.decision.decisions[0].outcome with input as req
			with data.tooleval.config as configuration.overlay(data.tooleval.config, {"preset": c[0]})
	]
	count(got) == count(cases)
	[g | some g in got; g[3] != g[4]] == []
}

# Examples are tests, as Codex's match / not_match are at load
# (codex-rs/execpolicy): each example that fails is an error, located at
# its rule, and the request's calls are refused.
test_rule_examples_that_fail_are_errors if {
	layer := {
		"name": "team", "allow": [
			{
				"tool": shell, "command_prefix": "git status",
				"match": ["git status -s", "'git' status"],
				"not_match": ["git statusx", "git status; rm x", "sudo git status"],
			},
			{
				"tool": "web_fetch", "domain": "*.example.com",
				"match": ["https://a.example.com/x"],
				"not_match": ["https://example.com/", "https://a.example.com@evil.net/"],
			},
		],
		"deny": [
			{"tool": shell, "command_prefix": "rm", "match": ["rm -rf /", "/bin/rm x", "ls; rm", "env ls"], "not_match": ["rmdir x", "ls"]},
			{"tool": shell, "command_prefix": "git push", "match": ["git log"], "not_match": ["git -C x push", "git pull"]},
		],
	}
	d := tooleval.decision with input as rule_request([layer], [cmd("git status")])
	[[e.code, e.list, e.index, e.example, e.expected] | some e in d.errors] == [
		["rule_example_failed", "deny", 1, "git log", "match"],
		["rule_example_failed", "deny", 1, "git -C x push", "not_match"],
	]
	d.decisions[0].outcome == "deny"

	# every example holds: no error
	holding := object.union(layer, {"deny": [layer.deny[0]]})
	tooleval.decision.errors == [] with input as rule_request([holding], [cmd("git status")])
}

test_rule_examples_must_be_lists_of_strings if {
	every examples in ["ls", [1], {"a": "ls"}, null] {
		layer := {"name": "team", "allow": [{"tool": shell, "command": "ls", "match": examples}]}
		d := tooleval.decision with input as rule_request([layer], [cmd("ls")])
		[e.code | some e in d.errors] == ["invalid_rule_examples"]
	}
}

# A deny or ask list's argument rule is never the entry a name-level
# refusal or ask is put down to: only its list's name entries are.
test_name_level_steps_are_put_down_to_name_entries if {
	layers := [{
		"name": "guard",
		"allow": [shell],
		"deny": [{"tool": shell, "command_prefix": "rm"}, shell],
		"ask": [{"tool": "web_fetch", "domain": "*"}, "web_fetch"],
	}]
	d := tooleval.explain with input as rule_request(layers, [cmd("ls"), url("https://a.example.com/")])
	[s | some s in d.decisions[0].trace; s.outcome == "refused"][0].entry == shell
	[s | some s in d.decisions[0].trace; s.outcome == "refused"][0].source == "layers[0].deny[1]"
	[s | some s in d.decisions[1].trace; s.outcome == "ask"][0].entry == "web_fetch"
	[s | some s in d.decisions[1].trace; s.outcome == "ask"][0].source == "layers[0].ask[1]"
}

# A list of argument rules is held to the cap on entries like any other.
test_too_many_argument_rules_are_an_error if {
	rules := [{"tool": shell, "command_prefix": "ls"} | some _ in numbers.range(0, 4096)]
	d := tooleval.decision with input as rule_request([{"name": "team", "allow": rules}], [cmd("ls")])
	"too_many_entries" in {e.code | some e in d.errors}
	d.decisions[0].outcome == "deny"
}

# Argument rules that cannot be worked out for a call (here: its
# readings are undefined) refuse it as undecided; they never let it pass.
undefined_readings(_, _) := input.no_such_member

test_argument_rules_that_cannot_be_worked_out_refuse if {
	layers := [{"name": "team", "allow": [shell], "deny": [{"tool": shell, "command_prefix": "rm"}]}]
	d := tooleval.decision with input as rule_request(layers, [cmd("ls")])
		with arguments.call_readings as undefined_readings
	[[x.outcome, x.reason] | some x in d.decisions] == [["deny", "invalid_config"]]

	# a path rule whose reading cannot be worked out
	path_layers := [{"name": "team", "allow": ["read_file"], "deny": [{"tool": "read_file", "path": ".env"}]}]
	p := tooleval.decision with input as object.union(rule_request(path_layers, [["read_file", {"path": "/ws/a"}]]), {"workspace": {"root": "/ws"}})
		with data.tooleval.arguments.path.reading as undefined_paths
	[[x.outcome, x.reason] | some x in p.decisions] == [["deny", "invalid_config"]]
}

undefined_paths(_, _, _) := input.no_such_member

# Wildcard rules on a command's words: Claude Code's Bash(git * main)
# ("permissions"), read word by word.
wildcard_layer := {
	"name": "team",
	"allow": [
		{"tool": shell, "command_wildcard": "git * main"},
		{"tool": shell, "command_wildcard": "npm run test:*"},
	],
	"deny": [{"tool": shell, "command_wildcard": "git push * --force*"}],
}

# [source, command, expected outcome under wildcard_layer]
wildcard_rows := [
	["permissions: * anywhere", "git push origin main", allowed],
	["a word * is any words, none included", "git main", allowed],
	["words, not text", "git push origin main2", not_allowed("team")],
	["words, not text", "git push 'origin main'", not_allowed("team")],
	["permissions: * at the end", "npm run test:unit", allowed],
	["* in a word stays in its word", "npm run test:unit extra", not_allowed("team")],
	["* in a word needs the rest of its word", "npm run test", not_allowed("team")],
	["permissions: every subcommand", "git push origin main; rm -rf /", not_allowed("team")],
	["deny: words in order", "git push origin --force", denied("team")],
	["deny: * in a word", "git push origin --force-with-lease", denied("team")],
	["deny: options between the words", "git -C x push o --force", denied("team")],
	["deny: over an allow", "git push --force main", denied("team")],
	["deny: words in any order (an over-approximation)", "git --force push", denied("team")],
	["deny: an abbreviation of a word", "git pus origin --force", denied("team")],
]

test_wildcard_rules if {
	got := rule_outcomes([wildcard_layer], [cmd(row[1]) | some row in wildcard_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in wildcard_rows; got[i] != row[2]] == []
}

test_wildcard_rule_errors if {
	rows := [
		[{"tool": shell, "command_wildcard": "* main"}, "wildcard_program"],
		[{"tool": shell, "command_wildcard": "g* main"}, "wildcard_program"],
		[{"tool": shell, "command_wildcard": "git '*' main"}, "invalid_command_rule"],
		[{"tool": shell, "command_wildcard": "git * && ls"}, "invalid_command_rule"],
		[{"tool": shell, "command_wildcard": "sudo *"}, "wrapper_in_allow"],
	]
	got := [[e.code | some e in d.errors] |
		some row in rows
		d := tooleval.decision with input as rule_request([{"name": "l", "allow": [row[0]]}], [cmd("ls")])
	]
	[[row, got[i]] | some i, row in rows; got[i] != [row[1]]] == []
}

# The argument a decision names does not depend on the order of a list:
# of the readings the rules that bite (or, for an allow list, the rules
# the call does not meet) look at, the first in alphabetical order.
test_the_argument_named_does_not_depend_on_order if {
	call := [shell, {"command": "ls", "env": {}}]

	# the args_pattern bites (deny, ask), or does not allow (allow)
	every case in [["deny", "env"], ["ask", "env"], ["allow", "^x"]] {
		rules := [
			{"tool": shell, "domain": "evil.net"},
			{"tool": shell, "command_prefix": "rm"},
			{"tool": shell, "args_pattern": case[1]},
		]
		every order in [rules, array.reverse(rules)] {
			d := tooleval.decision.decisions[0] with input as rule_request([{"name": "l", case[0]: order}], [call])
			d.argument == "args"
		}
	}
}

# permitting_rules names, of a tool's allow rules, those a call's
# reading lets through, for each family: one rule it meets, one it
# does not.
test_permitting_rules_name_the_rules_a_reading_meets if {
	vocabulary := configuration.vocabulary(configuration.config)
	ws := paths.workspace({"workspace": {"root": "/ws"}}, [])
	rows := [
		[{"command_prefix": "git status"}, {"command_prefix": "rm"}, shell, {"command": "git status -s"}],
		[{"domain": "*.example.com"}, {"domain": "evil.net"}, "web_fetch", {"url": "https://docs.example.com/"}],
		[{"path": "src/**"}, {"path": "docs/**"}, "read_file", {"path": "/ws/src/a.go"}],
		[{"args_pattern": "\"path\""}, {"args_pattern": "secret"}, "read_file", {"path": "/ws/src/a.go"}],
		[{"args": {"path": "/ws/src/a.go"}}, {"args": {"path": "/ws/b"}}, "read_file", {"path": "/ws/src/a.go"}],
	]
	every row in rows {
		rules := arguments.compile_rules(
			[object.union(row[0], {"tool": row[2]}), object.union(row[1], {"tool": row[2]})],
			"allow", vocabulary,
		)
		kinds := {rule.reads | some rule in rules}
		sources := object.get(configuration.config.rule_arguments, row[2], {})
		readings := arguments.readings(sources, ws, {"path": {"read": true}}, {"args": row[3]}, kinds)
		[rule.entry | some rule in arguments.permitting_rules(rules, readings)] == [object.union(row[0], {"tool": row[2]})]
	}
}
