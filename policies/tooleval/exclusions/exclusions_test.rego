package tooleval.exclusions_test

import data.tooleval
import data.tooleval.exclusions

names_for(agent) := [e.name | some e in exclusions.active(agent, data.tooleval.config)]

test_which_exclusions_apply if {
	names_for({"role": "main", "depth": 0}) == []
	names_for({"role": "subagent", "depth": 1}) == ["subagent_hard_deny"]
	names_for({"role": "subagent", "depth": 5}) == ["subagent_hard_deny", "subagent_depth_cap"]
	names_for({"role": "fork", "depth": 1}) == ["subagent_hard_deny", "fork_no_spawn"]
	names_for({"role": "fork", "depth": 7}) == ["subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn"]
}

test_default_configuration_is_valid if {
	exclusions.errors(data.tooleval.config) == []
	tooleval.context.config_errors(data.tooleval.config) == []
}

test_max_depth_is_configurable if {
	conf := object.union(data.tooleval.config, {"max_depth": 2})
	[e.name | some e in exclusions.active({"role": "subagent", "depth": 2}, conf)] == ["subagent_hard_deny", "subagent_depth_cap"]
}

test_malformed_max_depth_caps_everyone if {
	conf := object.union(data.tooleval.config, {"max_depth": "five"})
	[e.name | some e in exclusions.active({"role": "subagent", "depth": 1}, conf)] == ["subagent_hard_deny", "subagent_depth_cap"]
	[e.field | some e in exclusions.errors(conf)] == ["config.max_depth"]
}

test_configuration_errors if {
	conf := {
		"max_depth": 0,
		"exclusions": {"subagent_hard_deny": ["gateway", "*"], "subagent_depth_cap": "subagents"},
	}
	[[e.code, e.field] | some e in exclusions.errors(conf)] == [
		["invalid_config_value", "config.max_depth"],
		["bare_wildcard", "config.exclusions.subagent_hard_deny"],
		["invalid_list", "config.exclusions.subagent_depth_cap"],
		["invalid_list", "config.exclusions.fork_no_spawn"],
	]
}

test_broken_configuration_refuses_every_call if {
	d := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]}
		with data.tooleval.config as {"max_depth": 5}
	d.decisions[0].reason == "invalid_config"
	count(d.errors) == 3
}

test_missing_configuration_refuses_every_call if {
	d := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]}
		with data.tooleval.config as null
	d.decisions[0].reason == "invalid_config"
}
