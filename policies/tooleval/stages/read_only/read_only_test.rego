package tooleval.stages.read_only_test

import data.tooleval.stages_test

read_only_agent := {"agent": {"read_only": true}}

shell(action) := {"agent": {"read_only": true}, "args": {"action": action}}

# [note, configuration overlay, request, call name, expected stages_test.verdict]
read_only_cases := [
	["a read-bucket tool is allowed", {}, read_only_agent, "read_file", "allowed"],
	["an edit tool is refused", {}, read_only_agent, "write_file", ["not_allowed", "read_only"]],
	["an MCP tool is refused", {}, read_only_agent, "mcp__github__read_issue", ["not_allowed", "read_only"]],
	["status observes", {}, shell("status"), "bash", "allowed"],
	["logs observes", {}, shell("logs"), "bash", "allowed"],
	["list observes", {}, shell("list"), "bash", "allowed"],
	["exec changes state", {}, shell("exec"), "bash", ["not_allowed", "read_only"]],
	["start changes state", {}, shell("start"), "bash", ["not_allowed", "read_only"]],
	["write changes state", {}, shell("write"), "bash", ["not_allowed", "read_only"]],
	["stop changes state", {}, shell("stop"), "bash", ["not_allowed", "read_only"]],
	["an unknown action changes state", {}, shell("rm -rf"), "bash", ["not_allowed", "read_only"]],
	["a non-string action changes state", {}, shell(["status"]), "bash", ["not_allowed", "read_only"]],
	["no action runs the default, exec", {}, read_only_agent, "bash", ["not_allowed", "read_only"]],
	["actions compare exactly", {}, shell("STATUS"), "bash", ["not_allowed", "read_only"]],
	[
		"an observing call keeps its own arguments", {},
		{"agent": {"read_only": true}, "args": {"action": "logs", "processId": "p1", "offset": 10, "limit": 50}}, "bash", "allowed",
	],
	[
		"an observing action with a command is refused", {},
		{"agent": {"read_only": true}, "args": {"action": "status", "command": "rm -rf /"}}, "bash", ["not_allowed", "read_only"],
	],
	[
		"an observing action with input is refused", {},
		{"agent": {"read_only": true}, "args": {"action": "list", "input": "y\n"}}, "bash", ["not_allowed", "read_only"],
	],
	["args that are not an object run the default", {}, {"agent": {"read_only": true}, "args": ["status"]}, "bash", ["not_allowed", "read_only"]],
	["outside read-only mode exec is allowed", {}, {"args": {"action": "exec"}}, "bash", "allowed"],
	[
		"a definition can set read-only mode", {"agents": {"auditor": {"read_only": true}}},
		{"agent": {"name": "auditor"}, "args": {"action": "start"}}, "bash", ["not_allowed", "read_only"],
	],
	[
		"a layer's deny comes before the action", {},
		{"agent": {"read_only": true}, "layers": [{"name": "caller", "deny": ["bash"]}], "args": {"action": "exec"}}, "bash", ["denied", "caller"],
	],
]

test_read_only_mode if {
	verdicts := stages_test.verdicts([[conf, req, name] | some [_, conf, req, name, _] in read_only_cases])
	got := [[note, verdicts[i], want] | some i, [note, _, _, _, want] in read_only_cases]
	count(got) == count(read_only_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_action_refusal_comes_before_paths if {
	req := {
		"agent": {"read_only": true},
		"workspace": {"root": "/ws"},
		"args": {"action": "exec", "cwd": "/elsewhere"},
	}
	stages_test.verdict({}, req, "bash") == ["not_allowed", "read_only"]
	stages_test.verdict({}, object.union(req, {"args": {"action": "status"}}), "bash") == ["path", "workspace"]
}

test_argument_message_names_the_argument if {
	d := stages_test.decide({}, {"agent": {"read_only": true}, "args": {"action": "status", "command": "make"}}, "bash").decisions[0]
	d.message == "tool \"bash\" is not permitted: argument \"command\" has no use in action \"status\", and layer \"read_only\" allows only calls that observe"
}

test_shell_tools_are_names_and_required if {
	stages_test.codes({"shell": {"tools": ["group:execution", "bas*"], "observe": ["status"]}}, {}) == [
		["invalid_shell_tool", "config.shell.tools"],
		["invalid_shell_tool", "config.shell.tools"],
	]
	stages_test.verdict({"shell": {"tools": ["group:execution"]}}, shell("status"), "bash") == ["invalid_config", "config"]
	stages_test.verdict({"shell": null}, shell("status"), "bash") == ["invalid_config", "config"]
	stages_test.verdict({"shell": {"tools": null}}, shell("status"), "bash") == ["invalid_config", "config"]
}

test_action_message_names_the_action if {
	d := stages_test.decide({}, shell("exec"), "bash").decisions[0]
	d.message == "tool \"bash\" is not permitted: action \"exec\" changes state, and layer \"read_only\" allows only actions that observe"
}

test_shell_configuration_errors if {
	stages_test.codes({"shell": {"tools": "bash", "observe": [1], "default_action": 2, "tool": []}, "read_only": {"allow": null}}, {}) == [
		["unknown_config_key", "config.shell.tool"],
		["invalid_list", "config.shell.tools"],
		["invalid_list", "config.shell.observe"],
		["invalid_config_value", "config.shell.default_action"],
	]
}
