package tooleval.configuration_test

import data.tooleval
import data.tooleval.configuration

preset_decide(conf, doc) := d if {
	d := tooleval.decision with input as doc with data.tooleval.config as configuration.overlay(data.tooleval.config, conf)
}

preset_sub := {"role": "subagent", "depth": 1}

preset_call(agent, names, name) := {
	"agent": agent,
	"declared": [{"name": n} | some n in names],
	"calls": [{"id": "c", "name": name}],
}

preset_verdict(conf, doc) := "allowed" if {
	preset_decide(conf, doc).decisions[0].allowed == true
} else := [d.reason, d.layer] if {
	d := preset_decide(conf, doc).decisions[0]
}

test_every_preset_is_a_valid_configuration if {
	every name, _ in data.tooleval.config.presets {
		every profile in ["minimal", "coding", "messaging", "full"] {
			preset_decide({"preset": name, "tools": {"profile": profile}}, {}).errors == []
		}
	}
}

# [note, preset, document, expected verdict]
preset_cases := [
	["spec default: a sub-agent loses gateway", null, preset_call(preset_sub, ["gateway"], "gateway"), ["excluded", "subagent_hard_deny"]],
	["claude_code: a sub-agent loses AskUserQuestion", "claude_code", preset_call(preset_sub, ["AskUserQuestion"], "AskUserQuestion"), ["excluded", "subagent_hard_deny"]],
	["claude_code: the floor survives the preset", "claude_code", preset_call(preset_sub, ["gateway"], "gateway"), ["excluded", "subagent_hard_deny"]],
	["claude_code: a fork cannot spawn with Agent", "claude_code", preset_call({"role": "fork", "depth": 1}, ["Agent"], "Agent"), ["excluded", "fork_no_spawn"]],
	["qwen_code: a sub-agent at the cap loses task", "qwen_code", preset_call({"role": "subagent", "depth": 5}, ["task"], "task"), ["excluded", "subagent_depth_cap"]],
	["qwen_code: a sub-agent loses save_memory", "qwen_code", preset_call(preset_sub, ["save_memory"], "save_memory"), ["excluded", "subagent_hard_deny"]],
	["openclaw: a fork cannot spawn", "openclaw", preset_call({"role": "fork", "depth": 1}, ["sessions_spawn"], "sessions_spawn"), ["excluded", "fork_no_spawn"]],
]

test_presets_map_exclusions_onto_runtime_names if {
	got := [[note, preset_verdict({"preset": preset}, doc), want] | some [note, preset, doc, want] in preset_cases]
	count(got) == count(preset_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_presets_map_profiles if {
	preset_verdict({"preset": "openclaw", "tools": {"profile": "coding"}}, preset_call({}, ["exec", "browser"], "exec")) == "allowed"
	preset_verdict({"preset": "openclaw", "tools": {"profile": "coding"}}, preset_call({}, ["exec", "browser"], "browser")) == ["not_allowed", "profile"]
	preset_verdict({"preset": "claude_code", "tools": {"profile": "coding"}}, preset_call({}, ["Bash"], "Bash")) == "allowed"
	preset_verdict({"preset": "claude_code", "tools": {"profile": "minimal"}}, preset_call({}, ["Bash"], "Bash")) == ["not_allowed", "profile"]
}

test_presets_map_path_arguments if {
	doc := {
		"declared": [{"name": "read_file"}],
		"workspace": {"root": "/ws"},
		"calls": [{"id": "c", "name": "read_file", "args": {"absolute_path": "/etc/passwd"}}],
	}
	preset_verdict({"preset": "qwen_code"}, doc) == ["path", "workspace"]
	preset_verdict({"preset": null}, doc) == "allowed"
}

test_unknown_preset_refuses_everything if {
	d := preset_decide({"preset": "nope"}, preset_call({}, ["read_file"], "read_file"))
	[e.code | some e in d.errors] == ["unknown_preset"]
	d.decisions[0].reason == "invalid_config"
}

test_a_preset_sets_only_its_members if {
	conf := {"preset": "mine", "presets": {"mine": {"tenants": {"x": {"tools": null}}, "groups": {"read_only": ["read_file"]}}}}
	d := preset_decide(conf, {"tenant": "x", "declared": [{"name": "read_file"}], "calls": [{"id": "c", "name": "read_file"}]})
	[[e.code, e.field] | some e in d.errors] == [
		["unknown_tenant", "tenant"],
		["unknown_config_key", "config.presets.mine.tenants"],
	]
}
