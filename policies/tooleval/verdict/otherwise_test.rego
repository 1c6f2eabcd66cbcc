# otherwise "ask": a layer that asks a person about a call its allow
# list does not let through, instead of refusing it (Claude Code's
# default mode: a call no rule allows is asked about). Deny anywhere,
# then every refusal, then ask, then allow, as for an ask list.
package tooleval.verdict_test

import data.tooleval

_otherwise_declared := array.concat(ask_declared, [{"name": "gateway"}])

_git_status := {"tool": "run_shell_command", "command_prefix": "git status"}

_shell(command) := {"id": "c", "name": "run_shell_command", "args": {"command": command}}

# [layers, call, extra input, [outcome, reason, layer]]
otherwise_cases := [
	# by name: what the allow list names runs, the rest is asked about
	[[{"name": "team", "allow": ["read_file"], "otherwise": "ask"}], "read_file", {}, ["allow", null, null]],
	[[{"name": "team", "allow": ["read_file"], "otherwise": "ask"}], "write_file", {}, ["ask", "ask", "team"]],
	[[{"name": "team", "allow": ["read_file"], "otherwise": "ask"}], "REFUND", {}, ["ask", "ask", "team"]],
	[[{"name": "team", "allow": ["mcp__github__read_*"], "otherwise": "ask"}], "mcp__github__create_issue", {}, ["ask", "ask", "team"]],
	# deny, absent or null: refuse, as without it
	[[{"name": "team", "allow": ["read_file"], "otherwise": "deny"}], "write_file", {}, ["deny", "not_allowed", "team"]],
	[[{"name": "team", "allow": ["read_file"], "otherwise": null}], "write_file", {}, ["deny", "not_allowed", "team"]],
	# a layer that states no allow list lets everything through: nothing to ask about
	[[{"name": "team", "otherwise": "ask"}], "write_file", {}, ["allow", null, null]],
	# a deny anywhere, and every refusal, win over the ask
	[[{"name": "team", "allow": ["read_file"], "deny": ["write_file"], "otherwise": "ask"}], "write_file", {}, ["deny", "denied", "team"]],
	[
		[{"name": "team", "allow": ["read_file"], "otherwise": "ask"}, {"name": "tenant", "allow": ["read_file"]}],
		"write_file", {}, ["deny", "not_allowed", "tenant"],
	],
	[
		[{"name": "team", "allow": ["read_file"], "otherwise": "ask"}], "gateway",
		{"agent": {"role": "subagent", "depth": 1}}, ["deny", "excluded", "subagent_hard_deny"],
	],
	# an ask list of an earlier layer names the layer that asks first
	[
		[{"name": "agent", "ask": ["write_file"]}, {"name": "team", "allow": ["read_file"], "otherwise": "ask"}],
		"write_file", {}, ["ask", "ask", "agent"],
	],
	# by argument rules: a call that meets them runs, any other is asked about
	[[{"name": "team", "allow": [_git_status], "otherwise": "ask"}], _shell("git status -s"), {}, ["allow", null, null]],
	[[{"name": "team", "allow": [_git_status], "otherwise": "ask"}], _shell("git push"), {}, ["ask", "ask", "team"]],
	[[{"name": "team", "allow": [_git_status], "otherwise": "ask"}], _shell("git status; rm -rf /"), {}, ["ask", "ask", "team"]],
	[[{"name": "team", "allow": [_git_status], "otherwise": "ask"}], _shell("git status $(id)"), {}, ["ask", "ask", "team"]],
	[[{"name": "team", "allow": [_git_status], "otherwise": "ask"}], "read_file", {}, ["ask", "ask", "team"]],
	# ... and a deny rule still bites first
	[
		[{"name": "team", "allow": [_git_status], "deny": [{"tool": "run_shell_command", "command_prefix": "rm"}], "otherwise": "ask"}],
		_shell("git status; rm -rf /"), {}, ["deny", "denied", "team"],
	],
	# the same layer without otherwise refuses those calls
	[[{"name": "team", "allow": [_git_status]}], _shell("git push"), {}, ["deny", "not_allowed", "team"]],
]

test_otherwise_ask if {
	mismatched := [[i, got] |
		some i, [layers, call, extra, want] in otherwise_cases
		doc := object.union({"declared": _otherwise_declared, "layers": layers, "calls": [_call(call)]}, extra)
		d := tooleval.decision.decisions[0] with input as doc
		got := [d.outcome, object.get(d, "reason", null), object.get(d, "layer", null)]
		got != want
	]
	mismatched == []
}

# A session (its asks, its argued tools) decides as the one-shot
# decision, and so does every case above in a session.
test_a_session_asks_otherwise_like_the_one_shot if {
	every case in otherwise_cases {
		doc := object.union({"declared": _otherwise_declared, "layers": case[0], "calls": [_call(case[1])]}, case[2])
		tooleval.decide(tooleval.context.session(doc), doc) == tooleval.decision with input as doc
	}
}

# An asked call by argument rules says which argument was read; explain
# names the layer's otherwise, with the rules the call did not meet.
test_otherwise_ask_is_explained if {
	doc := {"declared": _otherwise_declared, "layers": [{"name": "team", "allow": [_git_status], "otherwise": "ask"}], "calls": [_shell("git push")]}
	d := tooleval.explain.decisions[0] with input as doc
	d.argument == "command"
	some step in d.trace
	step.list == "ask"
	step.outcome == "ask"
	step.source == "layers[0].otherwise"
	step.entries == [_git_status]
	step.readings.command.parts[0].words == ["git", "push"]
}

test_otherwise_ask_by_name_is_explained if {
	doc := {
		"declared": _otherwise_declared,
		"layers": [{"name": "team", "allow": ["read_file"], "otherwise": "ask"}],
		"calls": [{"id": "c", "name": "write_file"}],
	}
	d := tooleval.explain.decisions[0] with input as doc
	some step in d.trace
	step.list == "ask"
	step.outcome == "ask"
	step.source == "layers[0].otherwise"
}

# The catalog lists a tool the layer asks about as asked, not allowed.
test_the_catalog_knows_otherwise_ask if {
	doc := {"declared": _otherwise_declared, "layers": [{"name": "team", "allow": ["read_file"], "otherwise": "ask"}]}
	tools := {t.name: [t.allowed, t.outcome] | some t in tooleval.tools.tools} with input as doc
	tools.read_file == [true, "allow"]
	tools.write_file == [false, "ask"]
}

test_an_invalid_otherwise_is_an_error if {
	every value in ["maybe", "ASK", true, false, 0, ["ask"], {}] {
		d := tooleval.decision with input as {
			"declared": _otherwise_declared,
			"layers": [{"name": "team", "allow": ["read_file"], "otherwise": value}],
			"calls": [{"id": "c", "name": "read_file"}],
		}
		d.errors[0].code == "invalid_layer"
		d.decisions[0].reason == "invalid_config"
	}
}
