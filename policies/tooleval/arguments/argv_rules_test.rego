# Command rules over a tool whose command is an argument vector
# (rule_arguments {"argv": NAME}), as Codex's shell tool takes one:
# https://developers.openai.com/codex/rules (commands are matched as
# argument vectors; a shell started on a script runs the script, each of
# whose commands must be allowed).
package tooleval.arguments_test

import data.tooleval
import data.tooleval.configuration

_argv_config := {"rule_arguments": {"shell": {"argv": "command", "inert": ["workdir", "timeout_ms"]}}}

_argv_layer := {"name": "codex", "allow": [
	{"tool": "shell", "command_prefix": "git status"},
	{"tool": "shell", "command": "ls"},
]}

_argv_outcomes(layers, calls, conf) := [[d.outcome, object.get(d, "reason", null)] |
	some d in decisions
] if {
	request := {
		"agent": {"role": "main", "depth": 0},
		"declared": [{"name": "shell"}],
		"layers": layers,
		"calls": [{"id": sprintf("c%d", [i]), "name": "shell", "args": args} | some i, args in calls],
	}
	decisions := tooleval.decision.decisions with input as request
		with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}

test_argv_commands_are_read_as_exec_reads_them if {
	rows := [
		[{"command": ["git", "status", "-s"]}, ["allow", null]],
		[{"command": ["ls"]}, ["allow", null]],
		[{"command": ["ls", "-la"]}, ["deny", "not_allowed"]],
		[{"command": ["bash", "-lc", "git status && ls"]}, ["allow", null]],
		[{"command": ["/bin/zsh", "-c", "git status; rm -rf /"]}, ["deny", "not_allowed"]],
		[{"command": ["bash", "-lc", "git status $(rm -rf /)"]}, ["deny", "not_allowed"]],
		[{"command": ["bash", "-c", "git status", "x"]}, ["deny", "not_allowed"]],
		[{"command": ["sudo", "git", "status"]}, ["deny", "not_allowed"]],
		[{"command": "git status"}, ["deny", "not_allowed"]],
		[{"command": ["git", "status"], "workdir": "/w", "timeout_ms": 5}, ["allow", null]],
		[{"command": ["git", "status"], "sandbox_permissions": "require_escalated"}, ["deny", "not_allowed"]],
	]
	got := _argv_outcomes([_argv_layer], [row[0] | some row in rows], _argv_config)
	got == [row[1] | some row in rows]
}

test_argv_deny_and_ask_bite_on_vectors if {
	layer := {"name": "codex", "allow": ["shell"], "deny": [{"tool": "shell", "command_prefix": "rm"}], "ask": [{"tool": "shell", "command_prefix": "git push"}]}
	rows := [
		[{"command": ["rm", "-rf", "/"]}, ["deny", "denied"]],
		[{"command": ["/bin/rm", "x"]}, ["deny", "denied"]],
		[{"command": ["bash", "-lc", "ls && rm x"]}, ["deny", "denied"]],
		[{"command": ["bash", "-lc", "echo $(x)"]}, ["deny", "denied"]],
		[{"command": ["git", "push", "origin"]}, ["ask", "ask"]],
		[{"command": ["git", "-C", "r", "push"]}, ["ask", "ask"]],
		[{"command": ["ls"]}, ["allow", null]],
		[{"command": 7}, ["deny", "denied"]],
	]
	got := _argv_outcomes([layer], [row[0] | some row in rows], _argv_config)
	got == [row[1] | some row in rows]
}

# Without argv, a list is not read: a runtime that joins one with spaces
# for a shell would run something else.
test_a_list_is_not_read_as_a_command if {
	_argv_outcomes([_argv_layer], [{"command": ["git", "status"]}], {"rule_arguments": {"shell": {"command": "command"}}}) == [["deny", "not_allowed"]]
}

test_argv_examples_are_vectors_or_commands if {
	layer := {"name": "codex", "allow": [{
		"tool": "shell", "command_prefix": "gh pr view",
		"match": [["gh", "pr", "view", "7888"], "gh pr view --repo openai/codex"],
		"not_match": [["gh", "pr", "--repo", "openai/codex", "view"]],
	}]}
	_argv_outcomes([layer], [{"command": ["gh", "pr", "view", "1"]}], _argv_config) == [["allow", null]]
	failing := object.union(layer.allow[0], {"match": [["gh", "pr", "list"]]})
	_argv_outcomes([{"name": "codex", "allow": [failing]}], [{"command": ["gh", "pr", "view", "1"]}], _argv_config)[0] == ["deny", "invalid_config"]
}

test_argv_configuration_errors if {
	conf := object.union(data.tooleval.config, {"rule_arguments": {
		"shell": {"argv": "command", "command": "cmd"},
		"exec": {"argv": ""},
	}})
	messages := {[p.tool, p.message] |
		some p in configuration.errors(conf)
		p.code == "invalid_config_value"
	}
	some [tool, both] in messages
	tool == "shell"
	contains(both, "not both")
	some [other, empty] in messages
	other == "exec"
	contains(empty, `"argv"`)
}

# Named both ways (an error), a tool's command is read neither way.
test_a_command_named_both_ways_is_read_neither_way if {
	sources := configuration.rule_arguments({"rule_arguments": {"shell": {"argv": "a", "command": "b", "inert": ["c"]}}}).shell
	sources == {"inert": {"c": true}}
}
