package tooleval.verdict_test

import data.tooleval
import data.tooleval.configuration

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
