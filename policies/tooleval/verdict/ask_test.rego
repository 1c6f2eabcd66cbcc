package tooleval.verdict_test

import data.tooleval

ask_declared := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "run_shell_command"},
	{"name": "Refund"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
]

_outcome_of(layers, call, extra) := [d.outcome, object.get(d, "reason", null), object.get(d, "layer", null)] if {
	doc := object.union({"declared": ask_declared, "layers": layers, "calls": [call]}, extra)
	d := tooleval.decision.decisions[0] with input as doc
}

# Deny, then ask, then allow: within a layer and across layers, and
# after every check that refuses (exclusions, allow lists, paths, run).
# An ask entry is read as a deny entry is: groups, MCP wildcards, any of
# a tool's names.
ask_cases := [
	# an ask list asks
	[[{"name": "tenant", "ask": ["write_file"]}], "write_file", {}, ["ask", "ask", "tenant"]],
	[[{"name": "tenant", "ask": ["write_file"]}], "read_file", {}, ["allow", null, null]],
	# the allow list of the same layer does not turn an ask into allow
	[[{"name": "tenant", "allow": ["write_file"], "ask": ["write_file"]}], "write_file", {}, ["ask", "ask", "tenant"]],
	# a deny anywhere wins over an ask anywhere
	[[{"name": "tenant", "deny": ["write_file"], "ask": ["write_file"]}], "write_file", {}, ["deny", "denied", "tenant"]],
	[[{"name": "agent", "ask": ["write_file"]}, {"name": "caller", "deny": ["write_file"]}], "write_file", {}, ["deny", "denied", "caller"]],
	# an allow list that leaves the tool out refuses it, ask or not
	[[{"name": "agent", "ask": ["write_file"]}, {"name": "caller", "allow": ["read_file"]}], "write_file", {}, ["deny", "not_allowed", "caller"]],
	# the first layer that asks is named
	[
		[{"name": "agent", "allow": ["write_file"]}, {"name": "tenant", "ask": ["write_*"]}, {"name": "caller", "ask": ["write_file"]}],
		"write_file", {}, ["ask", "ask", "tenant"],
	],
	# groups and MCP wildcards, as in a deny list
	[[{"name": "tenant", "ask": ["group:edit"]}], "write_file", {}, ["ask", "ask", "tenant"]],
	[[{"name": "tenant", "ask": ["mcp__github__*"]}], "mcp__github__create_issue", {}, ["ask", "ask", "tenant"]],
	[[{"name": "tenant", "ask": ["mcp__github__create_*"]}], "mcp__github__read_issue", {}, ["allow", null, null]],
	# a spelling of the name is the same tool
	[[{"name": "tenant", "ask": ["refund"]}], "REFUND", {}, ["ask", "ask", "tenant"]],
	[[{"name": "tenant", "ask": ["refund"]}], "Refund", {}, ["ask", "ask", "tenant"]],
	# a path refusal and an exhausted run win over an ask
	[
		[{"name": "tenant", "ask": ["write_file"]}], {"id": "c", "name": "write_file", "args": {"path": "/etc/passwd"}},
		{"workspace": {"root": "/ws"}}, ["deny", "path", "workspace"],
	],
	[
		[{"name": "tenant", "ask": ["write_file"]}], {"id": "c", "name": "write_file", "args": {"path": "/ws/a.txt"}},
		{"workspace": {"root": "/ws"}}, ["ask", "ask", "tenant"],
	],
	[
		[{"name": "tenant", "ask": ["write_file"]}], "write_file",
		{"run": {"attempts": 5, "max_attempts": 5}}, ["deny", "run_exhausted", "run"],
	],
	# an exclusion wins: a sub-agent never gets the gateway
	[
		[{"name": "tenant", "ask": ["gateway"]}], "gateway",
		{"agent": {"role": "subagent", "depth": 1}, "declared": [{"name": "gateway"}]}, ["deny", "excluded", "subagent_hard_deny"],
	],
]

test_ask_precedence if {
	mismatched := [[i, got] |
		some i, [layers, call, extra, want] in ask_cases
		got := _outcome_of(layers, _call(call), extra)
		got != want
	]
	mismatched == []
}

_call(name) := {"id": "c", "name": name} if is_string(name)

else := name

# An ask decision is not allowed, names the layer and says a person must
# approve, with the layer's note.
test_ask_decision if {
	d := tooleval.decision.decisions[0] with input as {
		"declared": ask_declared,
		"layers": [{"name": "tenant", "ask": ["Refund"], "message": "refunds need a ticket"}],
		"calls": [{"id": "c", "name": "Refund"}],
	}
	d == {
		"id": "c", "name": "Refund", "allowed": false, "outcome": "ask", "reason": "ask", "layer": "tenant",
		"message": "tool \"Refund\" needs a person's approval: asked by layer \"tenant\": refunds need a ticket",
	}
}

# A session decides an asked tool as a one-shot decision does: it is not
# among the entries a host answers from, nor the path entries.
test_a_session_asks_like_the_one_shot if {
	doc := {
		"declared": ask_declared,
		"workspace": {"root": "/ws"},
		"layers": [{"name": "tenant", "ask": ["write_file", "Refund"]}],
		"calls": [
			{"id": "1", "name": "write_file", "args": {"path": "/ws/a"}},
			{"id": "2", "name": "Refund"},
			{"id": "3", "name": "read_file", "args": {"path": "/ws/a"}},
			{"id": "4", "name": "run_shell_command"},
		],
	}
	ctx := tooleval.context.session(doc)
	ctx.asks == {"write_file": {"layer": "tenant"}, "refund": {"layer": "tenant"}}
	not ctx.entries.Refund
	not ctx.path_entries.write_file
	tooleval.decide(ctx, doc) == tooleval.decision with input as doc
	[d.outcome | some d in tooleval.decision.decisions] == ["ask", "ask", "allow", "allow"] with input as doc
}

# An ask list is checked as a deny list is: an invalid entry is an error.
test_an_invalid_ask_list_is_an_error if {
	d := tooleval.decision with input as {
		"declared": ask_declared,
		"layers": [{"name": "tenant", "ask": ["mcp__"]}],
		"calls": [{"id": "c", "name": "read_file"}],
	}
	d.errors[0].list == "ask"
	d.decisions[0].reason == "invalid_config"

	e := tooleval.decision with input as {"declared": ask_declared, "layers": [{"name": "t", "ask": "write_file"}], "calls": []}
	e.errors[0].code == "invalid_list"
}

# explain shows each layer's ask step and the entry that asked.
test_explain_shows_the_ask if {
	d := tooleval.explain.decisions[0] with input as {
		"declared": ask_declared,
		"layers": [{"name": "agent"}, {"name": "tenant", "ask": ["read_file", "group:edit"]}],
		"calls": [{"id": "c", "name": "write_file"}],
	}
	d.outcome == "ask"
	asks := [s | some s in d.trace; s.list == "ask"]
	asks == [
		{"check": "layer", "name": "agent", "list": "ask", "outcome": "not_applicable"},
		{
			"check": "layer", "name": "tenant", "list": "ask", "outcome": "ask", "reason": "ask", "layer": "tenant",
			"entry": "group:edit", "source": "layers[1].ask[1]", "member": "write_file", "member_source": "groups.edit[0]",
		},
	]
}

# The ask row on its own: a layer's ask rules asked of readings that
# cannot be worked out neither ask nor pass (the ask row never ends in
# allow on an error; the arguments row refuses such a call first).
test_an_ask_rule_that_cannot_be_worked_out_never_passes if {
	layers := [{"name": "team", "ask": [{"tool": "run_shell_command", "command_prefix": "rm"}]}]
	req := {"declared": ask_declared, "layers": layers, "calls": [{"id": "c", "name": "run_shell_command", "args": {"command": "ls"}}]}
	ctx := tooleval.context.compile(req)
	f := tooleval.batch.facts(ctx, req)[0]
	k := count(ctx.checks.layers) - 1
	tooleval.verdict.outcome("ask", k, f) == {"outcome": "pass"}
	undecided := tooleval.verdict.outcome("ask", k, f) with tooleval.arguments.call_readings as _undefined_readings
	undecided == {"outcome": "refused", "undecided": true}
}

_undefined_readings(_, _) := input.no_such_member
