package tooleval.exclusions_test

import data.tooleval
import data.tooleval.configuration
import data.tooleval.exclusions

names_for(agent) := [e.name | some e in exclusions.active(agent, configuration.prepared)]

test_which_exclusions_apply if {
	names_for({"role": "main", "depth": 0}) == []
	names_for({"role": "subagent", "depth": 1}) == ["subagent_hard_deny"]
	names_for({"role": "subagent", "depth": 5}) == ["subagent_hard_deny", "subagent_depth_cap"]
	names_for({"role": "fork", "depth": 1}) == ["subagent_hard_deny", "fork_no_spawn"]
	names_for({"role": "fork", "depth": 7}) == ["subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn"]
}

test_a_stored_leaf_gets_the_depth_cap_whatever_its_depth if {
	names_for({"role": "subagent", "depth": 1, "leaf": true}) == ["subagent_hard_deny", "subagent_depth_cap"]
	names_for({"role": "main", "depth": 0, "leaf": true}) == []
	names_for({"role": "subagent", "depth": 1, "leaf": false}) == ["subagent_hard_deny"]
}

test_max_depth_is_configurable if {
	prepared := configuration.prepare(object.union(data.tooleval.config, {"max_depth": 2}))
	[e.name | some e in exclusions.active({"role": "subagent", "depth": 2}, prepared)] == ["subagent_hard_deny", "subagent_depth_cap"]
}

test_malformed_max_depth_caps_everyone if {
	prepared := configuration.prepare(object.union(data.tooleval.config, {"max_depth": "five"}))
	[e.name | some e in exclusions.active({"role": "subagent", "depth": 1}, prepared)] == ["subagent_hard_deny", "subagent_depth_cap"]
}

decide(doc, conf) := d if {
	d := tooleval.decision with input as doc with data.tooleval.config as conf
}

test_broken_configuration_refuses_every_call if {
	d := decide({"declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]}, {"max_depth": 0})
	d.decisions[0].reason == "invalid_config"
	[e.field | some e in d.errors] == ["config.max_depth"]
}

test_missing_configuration_refuses_every_call if {
	d := decide({"declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]}, null)
	d.decisions[0].reason == "invalid_config"
	"missing_config" in {e.code | some e in d.errors}
}
