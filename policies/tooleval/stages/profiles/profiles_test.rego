package tooleval.stages.profiles_test

import data.tooleval.stages_test

profile_config := {
	"profiles": {
		"coding": ["read_file", "write_file", "glob", "bash", "web_search", "agent"],
		"messaging": ["message", "send_message"],
		"full": null,
	},
	"tools": {"profile": "coding", "also_allow": [], "allow": null, "deny": ["refund"]},
	"agents": {
		"browser-bot": {"builtin": true, "also_allow": ["browser"]},
		"chatty": {"builtin": true, "profile": "messaging"},
		"unbounded": {"builtin": true, "profile": "full"},
	},
	"subagents": {"allow": ["read_file", "glob", "browser"], "deny": ["bash"]},
}

# [note, configuration overlay, request, call name, expected stages_test.verdict]
profile_cases := [
	["the profile admits its tools", profile_config, {}, "write_file", "allowed"],
	["the profile refuses the rest", profile_config, {}, "browser", ["not_allowed", "profile"]],
	["the profile refuses MCP tools it does not list", profile_config, {}, "mcp__github__read_issue", ["not_allowed", "profile"]],
	["a global deny wins", profile_config, {}, "refund", ["denied", "global_policy"]],
	["global also_allow adds at the profile stage", object.union(profile_config, {"tools": {"also_allow": ["browser"]}}), {}, "browser", "allowed"],
	["an agent's also_allow adds for that agent", profile_config, {"agent": {"name": "browser-bot"}}, "browser", "allowed"],
	# OpenClaw's resolveEffectiveToolPolicy (src/agents/agent-tools.policy.ts,
	# 2026.9.6): the agent's alsoAllow ?? the global one.
	[
		"an agent's also_allow replaces the global one",
		object.union(profile_config, {"tools": {"also_allow": ["gateway"]}}),
		{"agent": {"name": "browser-bot"}}, "gateway", ["not_allowed", "profile"],
	],
	[
		"an agent's empty also_allow replaces the global one too",
		object.union(profile_config, {"tools": {"also_allow": ["gateway"]}, "agents": {"browser-bot": {"also_allow": []}}}),
		{"agent": {"name": "browser-bot"}}, "gateway", ["not_allowed", "profile"],
	],
	[
		"an agent without its own also_allow keeps the global one",
		object.union(profile_config, {"tools": {"also_allow": ["gateway"]}}),
		{"agent": {"name": "chatty"}}, "gateway", "allowed",
	],
	["an agent's profile replaces the global one", profile_config, {"agent": {"name": "chatty"}}, "message", "allowed"],
	["and refuses what it lacks", profile_config, {"agent": {"name": "chatty"}}, "read_file", ["not_allowed", "profile"]],
	["the full profile narrows nothing", profile_config, {"agent": {"name": "unbounded"}}, "browser", "allowed"],
	["no profile selected: no stage", {"tools": {"profile": null}}, {}, "browser", "allowed"],
	[
		"the sub-agent stage narrows", profile_config,
		{"agent": {"name": "browser-bot", "role": "subagent", "depth": 1}}, "write_file", ["not_allowed", "subagent_policy"],
	],
	[
		"the sub-agent stage keeps what it lists", profile_config,
		{"agent": {"name": "browser-bot", "role": "subagent", "depth": 1}}, "browser", "allowed",
	],
	[
		"the sub-agent stage cannot add back what the profile removed", profile_config,
		{"agent": {"name": "nobody", "role": "subagent", "depth": 1}}, "browser", ["not_allowed", "profile"],
	],
	[
		"the sub-agent deny wins over the profile's allow", profile_config,
		{"agent": {"name": "browser-bot", "role": "subagent", "depth": 1}}, "bash", ["denied", "subagent_policy"],
	],
	["the sub-agent stage spares the main agent", profile_config, {}, "bash", "allowed"],
	[
		"the hard-deny exclusion still wins over an allow", object.union(profile_config, {"subagents": {"allow": ["gateway"]}}),
		{"agent": {"name": "unbounded", "role": "subagent", "depth": 1}}, "gateway", ["excluded", "subagent_hard_deny"],
	],
]

test_profiles_and_subagent_stage if {
	verdicts := stages_test.verdicts([[conf, req, name] | some [_, conf, req, name, _] in profile_cases])
	got := [[note, verdicts[i], want] | some i, [note, _, _, _, want] in profile_cases]
	count(got) == count(profile_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_unknown_profile_refuses_everything if {
	conf := {"tools": {"profile": "nope"}}
	stages_test.codes(conf, {}) == [["unknown_profile", "config.tools.profile"]]
	stages_test.verdict(conf, {}, "read_file") == ["invalid_config", "config"]
}

test_profile_configuration_errors if {
	conf := {
		"profiles": {"coding": ["read*"], "x": "read_file"},
		"tools": {"also_allow": null, "allow": [""], "deny": ["mcp__*x"]},
		"subagents": {"allow": "read_file"},
	}
	stages_test.codes(conf, {}) == [
		["empty_entry", "config.tools.allow"],
		["misplaced_wildcard", "config.tools.deny"],
		["builtin_wildcard_in_allow", "config.profiles.coding"],
		["invalid_list", "config.profiles.x"],
		["invalid_list", "config.subagents.allow"],
	]
}

test_shipped_profiles_are_valid if {
	every name in ["minimal", "coding", "messaging", "full"] {
		stages_test.codes({"tools": {"profile": name}}, {}) == []
	}
}
