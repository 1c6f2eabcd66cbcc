package tooleval.presets_test

import data.tooleval

decide(conf, doc) := d if {
	d := tooleval.decision with input as doc with data.tooleval.config as object.union(data.tooleval.config, conf)
}

sub := {"role": "subagent", "depth": 1}

call(agent, names, name) := {
	"agent": agent,
	"declared": [{"name": n} | some n in names],
	"calls": [{"id": "c", "name": name}],
}

verdict(conf, doc) := "allowed" if {
	decide(conf, doc).decisions[0].allowed == true
} else := [d.reason, d.layer] if {
	d := decide(conf, doc).decisions[0]
}

test_every_preset_is_a_valid_configuration if {
	every name, _ in data.tooleval.config.presets {
		every profile in ["minimal", "coding", "messaging", "full"] {
			decide({"preset": name, "tools": {"profile": profile}}, {}).errors == []
		}
	}
}

# [note, preset, document, expected verdict]
preset_cases := [
	["spec default: a sub-agent loses gateway", null, call(sub, ["gateway"], "gateway"), ["excluded", "subagent_hard_deny"]],
	["claude_code: a sub-agent loses AskUserQuestion", "claude_code", call(sub, ["AskUserQuestion"], "AskUserQuestion"), ["excluded", "subagent_hard_deny"]],
	["claude_code: gateway means nothing there", "claude_code", call(sub, ["gateway"], "gateway"), "allowed"],
	["claude_code: a fork cannot spawn with Agent", "claude_code", call({"role": "fork", "depth": 1}, ["Agent"], "Agent"), ["excluded", "fork_no_spawn"]],
	["qwen_code: a sub-agent at the cap loses task", "qwen_code", call({"role": "subagent", "depth": 5}, ["task"], "task"), ["excluded", "subagent_depth_cap"]],
	["qwen_code: a sub-agent loses save_memory", "qwen_code", call(sub, ["save_memory"], "save_memory"), ["excluded", "subagent_hard_deny"]],
	["openclaw: a fork cannot spawn", "openclaw", call({"role": "fork", "depth": 1}, ["sessions_spawn"], "sessions_spawn"), ["excluded", "fork_no_spawn"]],
]

test_presets_map_exclusions_onto_runtime_names if {
	got := [[note, verdict({"preset": preset}, doc), want] | some [note, preset, doc, want] in preset_cases]
	count(got) == count(preset_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_presets_map_profiles if {
	verdict({"preset": "openclaw", "tools": {"profile": "coding"}}, call({}, ["exec", "browser"], "exec")) == "allowed"
	verdict({"preset": "openclaw", "tools": {"profile": "coding"}}, call({}, ["exec", "browser"], "browser")) == ["not_allowed", "profile"]
	verdict({"preset": "claude_code", "tools": {"profile": "coding"}}, call({}, ["Bash"], "Bash")) == "allowed"
	verdict({"preset": "claude_code", "tools": {"profile": "minimal"}}, call({}, ["Bash"], "Bash")) == ["not_allowed", "profile"]
}

test_presets_map_path_arguments if {
	doc := {
		"declared": [{"name": "read_file"}],
		"workspace": {"root": "/ws"},
		"calls": [{"id": "c", "name": "read_file", "args": {"absolute_path": "/etc/passwd"}}],
	}
	verdict({"preset": "qwen_code"}, doc) == ["path", "workspace"]
	verdict({"preset": null}, doc) == "allowed"
}

test_unknown_preset_refuses_everything if {
	d := decide({"preset": "nope"}, call({}, ["read_file"], "read_file"))
	[e.code | some e in d.errors] == ["unknown_preset"]
	d.decisions[0].reason == "invalid_config"
}

test_a_preset_sets_only_its_members if {
	conf := {"preset": "mine", "presets": {"mine": {"tenants": {"x": {"tools": null}}, "groups": {"read_only": ["read_file"]}}}}
	d := decide(conf, {"tenant": "x", "declared": [{"name": "read_file"}], "calls": [{"id": "c", "name": "read_file"}]})
	[[e.code, e.field] | some e in d.errors] == [
		["unknown_tenant", "tenant"],
		["unknown_config_key", "config.presets.mine.tenants"],
	]
}
