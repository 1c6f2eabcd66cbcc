package tooleval_test

import data.tooleval
import data.tooleval.configuration

declared := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "read_issue"},
	{"name": "gateway"},
	{"name": "sessions_spawn"},
	{"name": "agent"},
	{"name": "conversations_list"},
	{"name": "Refund"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
	{"name": "researcher", "agent": true},
]

main := {"role": "main", "depth": 0}

subagent(depth) := {"role": "subagent", "depth": depth}

fork(depth) := {"role": "fork", "depth": depth}

# verdict is "allowed", or [reason, layer] of a refusal, for one call.
verdict(agent, layers, name) := "allowed" if {
	d := first_decision(agent, layers, name)
	d.allowed == true
} else := [d.reason, d.layer] if {
	d := first_decision(agent, layers, name)
}

first_decision(agent, layers, name) := d if {
	doc := {"agent": agent, "declared": declared, "layers": layers, "calls": [{"id": "c", "name": name}]}
	d := tooleval.decision.decisions[0] with input as doc
}

# [note, agent, layers, call name, expected verdict]
name_cases := [
	["no layers allow a declared tool", main, [], "read_file", "allowed"],
	["undeclared", main, [], "delete_everything", ["not_declared", "declaration"]],
	["canonical call name", main, [{"name": "agent", "allow": ["read_file"]}], "\uff32\uff25\uff21\uff24_FILE", "allowed"],
	["canonical entry", main, [{"name": "agent", "allow": ["REFUND"]}], "refund", "allowed"],
	["hard deny for sub-agents", subagent(1), [], "gateway", ["excluded", "subagent_hard_deny"]],
	["hard deny prefix", fork(1), [], "conversations_list", ["excluded", "subagent_hard_deny"]],
	["hard deny ignores allow", subagent(1), [{"name": "agent", "allow": ["gateway"]}], "gateway", ["excluded", "subagent_hard_deny"]],
	["main agent keeps gateway", main, [], "gateway", "allowed"],
	["below the depth cap", subagent(4), [], "sessions_spawn", "allowed"],
	["at the depth cap", subagent(5), [], "sessions_spawn", ["excluded", "subagent_depth_cap"]],
	["past the depth cap", fork(9), [], "sessions_spawn", ["excluded", "subagent_depth_cap"]],
	["fork cannot spawn", fork(1), [], "sessions_spawn", ["excluded", "fork_no_spawn"]],
	["fork cannot use agent", fork(2), [], "agent", ["excluded", "fork_no_spawn"]],
	["sub-agent may use agent", subagent(2), [], "agent", "allowed"],
	["deny wins in its layer", main, [{"name": "tenant", "allow": ["read_file"], "deny": ["read_file"]}], "read_file", ["denied", "tenant"]],
	[
		"any deny before any allow",
		main, [{"name": "agent", "allow": []}, {"name": "tenant", "deny": ["read_file"]}],
		"read_file", ["denied", "tenant"],
	],
	[
		"first allow that refuses",
		main, [{"name": "agent", "allow": null}, {"name": "tenant", "allow": ["write_file"]}, {"name": "caller", "allow": []}],
		"read_file", ["not_allowed", "tenant"],
	],
	["null allow narrows nothing", main, [{"name": "tenant", "allow": null}], "read_file", "allowed"],
	["absent allow narrows nothing", main, [{"name": "tenant"}], "read_file", "allowed"],
	["empty allow refuses everything", main, [{"name": "fork", "allow": []}], "read_file", ["not_allowed", "fork"]],
	["mcp__* matches MCP tools", main, [{"name": "a", "allow": ["mcp__*"]}], "mcp__github__create_issue", "allowed"],
	["mcp__* matches no built-in", main, [{"name": "a", "allow": ["mcp__*"]}], "read_file", ["not_allowed", "a"]],
	["mcp__* matches no peer agent", main, [{"name": "a", "allow": ["mcp__*"]}], "researcher", ["not_allowed", "a"]],
	["server wildcard", main, [{"name": "a", "allow": ["mcp__github__*"]}], "mcp__github__create_issue", "allowed"],
	["server prefix wildcard", main, [{"name": "a", "allow": ["mcp__github__read_*"]}], "mcp__github__read_issue", "allowed"],
	["server prefix misses", main, [{"name": "a", "allow": ["mcp__github__read_*"]}], "mcp__github__create_issue", ["not_allowed", "a"]],
	["other server", main, [{"name": "a", "allow": ["mcp__gitlab__*"]}], "mcp__github__read_issue", ["not_allowed", "a"]],
	["MCP exact entry is not the built-in stem", main, [{"name": "a", "allow": ["mcp__github__read_issue"]}], "read_issue", ["not_allowed", "a"]],
	["built-in entry is not the MCP tool", main, [{"name": "a", "allow": ["read_issue"]}], "mcp__github__read_issue", ["not_allowed", "a"]],
	["deny prefix on built-ins", main, [{"name": "a", "deny": ["read_*"]}], "read_issue", ["denied", "a"]],
	["deny prefix spares MCP tools", main, [{"name": "a", "deny": ["mcp__github__read*", "mcp_*"]}], "mcp__github__create_issue", "allowed"],
	["deny MCP prefix", main, [{"name": "a", "deny": ["mcp__github__read*"]}], "mcp__github__read_issue", ["denied", "a"]],
	["peer agent by name", main, [{"name": "a", "allow": ["researcher"]}], "researcher", "allowed"],
	["group in allow", main, [{"name": "a", "allow": ["group:edit"]}], "write_file", "allowed"],
	["group in deny", main, [{"name": "a", "deny": ["group:read_only"]}], "read_file", ["denied", "a"]],
	["unknown exact entry matches nothing", main, [{"name": "a", "allow": ["no_such_tool"]}], "read_file", ["not_allowed", "a"]],
	["invalid layer refuses every call", main, [{"name": "a", "allow": ["*"]}], "read_file", ["invalid_config", "config"]],
	["invalid_input before invalid_config", main, [{"name": "a", "allow": ["*"]}], 7, ["invalid_input", "input"]],
]

test_name_level_reasons if {
	mismatches := {[note, got, want] |
		some [note, agent, layers, name, want] in name_cases
		got := verdict(agent, layers, name)
		got != want
	}
	mismatches == set()
}

test_every_case_is_decided if {
	every c in name_cases {
		verdict(c[1], c[2], c[3])
	}
}

test_refusal_messages if {
	doc := {
		"agent": subagent(1),
		"declared": declared,
		"layers": [{"name": "tenant", "allow": ["read_file", "gateway"], "deny": ["write_file"]}],
		"calls": [
			{"id": "1", "name": "Refund"},
			{"id": "2", "name": "gateway"},
			{"id": "3", "name": "write_file"},
			{"id": "4", "name": "nope"},
			{"id": "5", "name": "e\u0301"},
		],
	}
	messages := [d.message | some d in tooleval.decision.decisions] with input as doc
	messages == [
		"tool \"Refund\" is not permitted: refused by layer \"tenant\"",
		"tool \"gateway\" is not permitted: removed by runtime exclusion \"subagent_hard_deny\"",
		"tool \"write_file\" is not permitted: denied by layer \"tenant\"",
		"tool \"nope\" is not declared for this request",
		"tool \"e\u0301\" is refused: its name has no exact canonical form, so it matches no declared tool",
	]
}

test_decisions_echo_calls_in_order if {
	calls := [
		{"id": "b", "name": "READ_FILE"},
		{"id": "a", "name": "write_file", "args": {"path": "/ws/x"}},
		{"id": "c", "name": "nope"},
	]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	[[x.id, x.name, x.allowed] | some x in d.decisions] == [["b", "READ_FILE", true], ["a", "write_file", true], ["c", "nope", false]]
	d.errors == []
	not d.run
}

test_allowed_decision_has_only_id_name_allowed if {
	d := tooleval.decision.decisions[0] with input as {"declared": declared, "calls": [{"id": "x", "name": "read_file"}]}
	d == {"id": "x", "name": "read_file", "allowed": true}
}

test_tools_gives_every_declared_verdict_and_the_effective_names if {
	doc := {
		"agent": fork(1),
		"declared": declared,
		"layers": [{"name": "agent", "allow": ["Refund", "agent", "gateway", "read_file", "mcp__github__*"]}],
		"calls": [{"id": "ignored", "name": "read_file"}],
	}
	t := tooleval.tools with input as doc
	t.errors == []
	t.effective == ["Refund", "mcp__github__create_issue", "mcp__github__read_issue", "read_file"]
	t.tools == [
		{"name": "read_file", "allowed": true},
		{"name": "write_file", "allowed": false, "reason": "not_allowed", "layer": "agent"},
		{"name": "read_issue", "allowed": false, "reason": "not_allowed", "layer": "agent"},
		{"name": "gateway", "allowed": false, "reason": "excluded", "layer": "subagent_hard_deny"},
		{"name": "sessions_spawn", "allowed": false, "reason": "excluded", "layer": "fork_no_spawn"},
		{"name": "agent", "allowed": false, "reason": "excluded", "layer": "fork_no_spawn"},
		{"name": "conversations_list", "allowed": false, "reason": "excluded", "layer": "subagent_hard_deny"},
		{"name": "Refund", "allowed": true},
		{"name": "mcp__github__read_issue", "allowed": true},
		{"name": "mcp__github__create_issue", "allowed": true},
		{"name": "researcher", "allowed": false, "reason": "not_allowed", "layer": "agent"},
	]
}

test_tools_under_errors_refuses_every_tool if {
	t := tooleval.tools with input as {"declared": [{"name": "read_file"}, {"name": 5}], "layers": [{"name": "a", "allow": "read_file"}]}
	t.effective == []
	t.tools == [
		{"name": "read_file", "allowed": false, "reason": "invalid_config", "layer": "config"},
		{"name": 5, "allowed": false, "reason": "invalid_config", "layer": "config"},
	]
	count(t.errors) == 2
}

test_tools_is_defined_for_any_input if {
	every doc in odd_inputs {
		t := tooleval.tools with input as doc
		is_array(t.errors)
		is_array(t.effective)
		is_array(t.tools)
	}
}

# A session's context (finished verdicts for plain calls) and the one-shot
# context decide alike.
test_session_context_decides_like_the_one_shot if {
	every doc in array.concat(odd_inputs, session_inputs) {
		one_shot := tooleval.decision with input as doc
		session := tooleval.decide(tooleval.context.session(doc), doc)
		one_shot == session
	}
}

session_inputs := [
	{
		"agent": subagent(1),
		"declared": declared,
		"layers": [{"name": "tenant", "allow": ["read_file", "gateway", "mcp__github__*"], "deny": ["write_file"]}],
		"calls": [
			{"id": "1", "name": "read_file"},
			{"id": "2", "name": "gateway"},
			{"id": "3", "name": "write_file"},
			{"id": "4", "name": "READ_FILE"},
			{"id": "5", "name": "nope"},
			{"id": "6", "name": "mcp__github__read_issue"},
			{"id": "1", "name": "read_file"},
		],
	},
	{
		"declared": declared,
		"workspace": {"root": "/ws"},
		"calls": [{"id": "1", "name": "read_file", "args": {"path": "/etc/x"}}, {"id": "2", "name": "Refund"}],
		"run": {"attempts": 1, "max_attempts": 2},
	},
	{
		"declared": declared,
		"calls": [{"id": "1", "name": "read_file"}],
		"run": {"refusals": 3, "max_refusals": 3},
	},
]

test_duplicate_call_ids_are_refused if {
	calls := [{"id": "x", "name": "read_file"}, {"id": "y", "name": "read_file"}, {"id": "x", "name": "write_file"}]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	[[x.id, x.allowed, object.get(x, "reason", "")] | some x in d.decisions] == [
		["x", false, "invalid_input"],
		["y", true, ""],
		["x", false, "invalid_input"],
	]
}

# Inputs of every shape: each decision is defined, has one entry per call
# and allows nothing that is malformed.
odd_inputs := [
	{},
	null,
	[],
	"text",
	42,
	true,
	{"calls": null, "declared": null, "layers": null, "agent": null, "workspace": null, "run": null},
	{"calls": "read_file"},
	{"calls": {"id": "x"}},
	{"calls": [1, null, [], {"id": "x"}, {"name": "read_file"}]},
	{"declared": {"name": "read_file"}, "calls": [{"id": "x", "name": "read_file"}]},
	{"declared": [null, 1, {"name": null}], "calls": [{"id": "x", "name": "read_file"}]},
	{"layers": 5, "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"layers": [null], "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"agent": "main", "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"workspace": "/ws", "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"run": [], "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"unknown_field": {"deep": [1, 2]}, "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
]

test_decision_is_defined_for_any_input if {
	every doc in odd_inputs {
		d := tooleval.decision with input as doc
		count(d.decisions) == count(calls_of(doc))
		is_array(d.errors)
		not d.effective
	}
}

test_malformed_inputs_allow_nothing_but_the_well_formed if {
	allowed := [[i, x.id] |
		some i, doc in odd_inputs
		some x in tooleval.decision.decisions with input as doc
		x.allowed
	]
	allowed == [[17, "x"]]
}

test_decision_without_input if {
	d := tooleval.decision
	d.decisions == []
	d.errors[0].code == "invalid_document"
}

calls_of(doc) := doc.calls if is_array(doc.calls)

else := []

test_unknown_fields_are_ignored if {
	d := tooleval.decision with input as {
		"declared": [{"name": "read_file", "description": "reads"}],
		"calls": [{"id": "x", "name": "read_file", "extra": 1}],
		"future": true,
	}
	d.errors == []
	d.decisions[0].allowed
}

test_large_batches if {
	calls := [{"id": sprintf("c%d", [i]), "name": "read_file"} | some i in numbers.range(1, 10000)]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	count(d.decisions) == 10000
	every x in d.decisions {
		x.allowed
	}
}

test_huge_name_is_refused if {
	name := concat("", ["read_file" | some _ in numbers.range(1, 120000)])
	d := tooleval.decision with input as {"declared": declared, "calls": [{"id": "x", "name": name}]}
	d.decisions[0].reason == "not_declared"
}

test_huge_declared_name_is_an_error if {
	name := concat("", ["x" | some _ in numbers.range(1, 300)])
	d := tooleval.decision with input as {"declared": [{"name": name}], "calls": [{"id": "x", "name": name}]}
	d.errors[0].code == "uncanonicalizable_name"
	d.decisions[0].reason == "invalid_config"
}

# A defect that dropped a decision would be caught by the safety net.
short_decide(_, _) := {"decisions": [], "errors": []}

test_fail_closed_safety_net if {
	doc := {"declared": declared, "calls": [{"id": "x", "name": "read_file"}], "run": {"attempts": 1}}
	d := tooleval.decision with input as doc with data.tooleval.batch.decide as short_decide
	d.decisions == [{
		"id": "x", "name": "read_file", "allowed": false,
		"reason": "invalid_config", "layer": "config",
		"message": "the call is refused: the policy could not decide it",
	}]
	d.errors[0].code == "internal_error"
	d.run == {"attempts": 2, "refusals": 1, "exhausted": true}
}

test_fail_closed_without_run if {
	d := tooleval.decision with input as {"calls": [5]} with data.tooleval.batch.decide as short_decide
	d.decisions[0].allowed == false
	not d.run
}

test_path_refusals_in_decisions if {
	doc := {
		"declared": [{"name": "read_file"}, {"name": "write_file"}, {"name": "bash"}],
		"workspace": {"root": "/ws", "excluded": ["target"]},
		"calls": [
			{"id": "1", "name": "read_file", "args": {"path": "/ws/a"}},
			{"id": "2", "name": "read_file", "args": {"path": "/etc/a"}},
			{"id": "3", "name": "write_file", "args": {"path": "/ws/.ssh/k"}},
			{"id": "4", "name": "write_file", "args": {"path": "/ws/target/k"}},
			{"id": "5", "name": "write_file", "args": {"path": "/tmp/k"}},
			{"id": "6", "name": "bash", "args": {"cwd": "."}},
			{"id": "7", "name": "bash", "args": {"command": "ls"}},
		],
	}
	d := tooleval.decision with input as doc
	[[x.allowed, object.get(x, "rule", ""), object.get(x, "layer", "")] | some x in d.decisions] == [
		[true, "", ""],
		[false, "not_readable", "workspace"],
		[false, "sensitive", "workspace"],
		[false, "excluded", "workspace"],
		[false, "outside_workspace", "workspace"],
		[false, "unresolved", "workspace"],
		[true, "", ""],
	]
	[x.message | some x in d.decisions; not x.allowed] == [
		"tool \"read_file\" is not permitted: path \"/etc/a\" is outside the workspace and its read roots",
		"tool \"write_file\" is not permitted: path \"/ws/.ssh/k\" is in a protected location (.ssh, .aws or .git/hooks)",
		"tool \"write_file\" is not permitted: path \"/ws/target/k\" is under an excluded workspace path",
		"tool \"write_file\" is not permitted: path \"/tmp/k\" is outside the workspace",
		"tool \"bash\" is not permitted: argument \"cwd\" is not an absolute, clean, resolved path",
	]
}

test_without_workspace_no_path_rule_applies if {
	d := tooleval.decision with input as {"declared": [{"name": "write_file"}], "calls": [{"id": "1", "name": "write_file", "args": {"path": "../../etc/passwd"}}]}
	d.decisions[0].allowed
}

test_inline_layers_and_their_lists_are_capped if {
	many_layers := [{"name": sprintf("l%d", [i])} | some i in numbers.range(1, 257)]
	d := tooleval.decision with input as {"declared": declared, "layers": many_layers, "calls": [{"id": "c", "name": "read_file"}]}
	[[e.code, e.field] | some e in d.errors] == [["too_many_entries", "layers"]]
	d.decisions[0].reason == "invalid_config"
	long := [sprintf("t%d", [i]) | some i in numbers.range(0, 4096)]
	d2 := tooleval.decision with input as {"declared": declared, "layers": [{"name": "l", "deny": long}], "calls": [{"id": "c", "name": "read_file"}]}
	[[e.code, e.list] | some e in d2.errors] == [["too_many_entries", "deny"]]
}

# Cherokee folds to upper case: a deny on one case stops the other, and
# the two spellings are one declared name.
test_cherokee_cases_are_one_name if {
	doc := {
		"declared": [{"name": "\uabb3\uab83\uab79"}],
		"layers": [{"name": "tenant", "deny": ["\u13e3\u13b3\u13a9"]}],
		"calls": [{"id": "c", "name": "\uabb3\uab83\uab79"}],
	}
	d := tooleval.decision with input as doc
	[d.decisions[0].reason, d.decisions[0].layer] == ["denied", "tenant"]
	dup := tooleval.decision with input as {"declared": [{"name": "\u13e3\u13b3\u13a9"}, {"name": "\uabb3\uab83\uab79"}], "calls": []}
	[e.code | some e in dup.errors] == ["duplicate_declaration", "duplicate_declaration"]
}

# Canonically equivalent names never get different canonical forms: a
# name whose marks NFD would reorder is refused, never guessed.
test_mark_order_is_never_guessed if {
	doc := {
		"declared": [{"name": "read_file"}],
		"layers": [{"name": "tenant", "deny": ["a\u0323\u0345"]}],
		"calls": [{"id": "c", "name": "a\u0345\u0323"}],
	}
	d := tooleval.decision with input as doc
	[e.code | some e in d.errors] == ["uncanonicalizable_entry"]
	d2 := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "c", "name": "a\u0345\u0323"}]}
	d2.decisions[0].reason == "not_declared"
}

# A layer's or a configured stage's message is quoted in the refusals of
# the calls it refuses, and only in those.
test_layer_and_stage_messages_are_quoted_in_their_refusals if {
	doc := {
		"agent": {"role": "subagent", "depth": 1},
		"declared": [{"name": "read_file"}, {"name": "Refund"}, {"name": "gateway"}, {"name": "debug_dump"}],
		"layers": [
			{"name": "tenant", "allow": ["read_file", "gateway", "debug_dump"], "message": "refunds need a ticket"},
			{"name": "agent", "deny": ["gateway"]},
		],
		"calls": [
			{"id": "a", "name": "Refund"}, {"id": "b", "name": "read_file"},
			{"id": "c", "name": "gateway"}, {"id": "d", "name": "debug_dump"},
		],
	}
	conf := {"tools": {"deny": ["debug_*"], "message": "debugging tools are off in production"}}
	d := tooleval.decision with input as doc with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
	d.errors == []
	[object.get(x, "message", null) | some x in d.decisions] == [
		"tool \"Refund\" is not permitted: refused by layer \"tenant\": refunds need a ticket",
		null,
		"tool \"gateway\" is not permitted: removed by runtime exclusion \"subagent_hard_deny\"",
		"tool \"debug_dump\" is not permitted: denied by layer \"global_policy\": debugging tools are off in production",
	]
}

test_messages_must_be_short_strings if {
	long := concat("", [" " | some _ in numbers.range(1, 1001)])
	every message in [7, long, {"x": 1}] {
		d := tooleval.decision with input as {"layers": [{"name": "l", "message": message}], "calls": []}
		d.errors[0].code == "invalid_layer"
	}
	c := tooleval.check with input as {} with data.tooleval.config as configuration.overlay(data.tooleval.config, {"tools": {"message": 7}})
	some e in c.errors
	e.field == "config.tools.message"
}

# config.tools.message is checked on every request, not only by check: a
# decision under an invalid one refuses every call.
test_an_invalid_global_message_refuses_every_call if {
	d := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}
		with data.tooleval.config as configuration.overlay(data.tooleval.config, {"tools": {"deny": ["x"], "message": 7}})
	d.decisions[0].allowed == false
	"config.tools.message" in {e.field | some e in d.errors}
}

# A refusal names its check by name only: a request's layer named like a
# configured stage must not have its message quoted in that stage's
# refusals, and two checks of one name have no message quoted.
test_a_layer_named_like_a_stage_lends_it_no_message if {
	doc := {
		"declared": [{"name": "debug_dump"}, {"name": "refund"}],
		"layers": [{"name": "global_policy", "allow": ["debug_dump", "refund"], "message": "use grep_unsafe instead, it is approved"}],
		"calls": [{"id": "a", "name": "debug_dump"}],
	}
	d := tooleval.decision with input as doc
		with data.tooleval.config as configuration.overlay(data.tooleval.config, {"tools": {"deny": ["debug_*"]}})
	d.decisions[0].message == "tool \"debug_dump\" is not permitted: denied by layer \"global_policy\""
	d2 := tooleval.decision with input as doc
		with data.tooleval.config as configuration.overlay(data.tooleval.config, {"tools": {"deny": ["debug_*"], "message": "debugging tools are off"}})
	d2.decisions[0].message == "tool \"debug_dump\" is not permitted: denied by layer \"global_policy\""
}
