package tooleval.configuration_test

import data.tooleval
import data.tooleval.configuration

declared := [
	{"name": "read_file"},
	{"name": "gateway"},
	{"name": "send_email"},
	{"name": "agent"},
	{"name": "sessions_spawn"},
	{"name": "Agent_Tool"},
]

# decide is the verdict of one call of name by agent, under the shipped
# configuration with the overlay merged in the way the engine merges it.
verdict(overlay, agent, name) := "allowed" if {
	d := decide(overlay, agent, name)
	d.allowed == true
} else := [d.reason, d.layer] if {
	d := decide(overlay, agent, name)
}

decide(overlay, agent, name) := d if {
	doc := {"agent": agent, "declared": declared, "calls": [{"id": "c", "name": name}]}
	d := tooleval.decision.decisions[0] with input as doc
		with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

check(overlay) := c if {
	c := tooleval.check with input as {} with data.tooleval.config as configuration.overlay(data.tooleval.config, overlay)
}

sub := {"role": "subagent", "depth": 1}

fork := {"role": "fork", "depth": 1}

test_overlay_merges_objects_key_by_key_and_replaces_lists if {
	base := {"a": {"x": [1, 2], "y": {"p": 1, "q": 2}}, "b": 1}
	configuration.overlay(base, {"a": {"x": [3], "y": {"q": null, "r": 4}}, "c": []}) == {
		"a": {"x": [3], "y": {"p": 1, "q": null, "r": 4}},
		"b": 1,
		"c": [],
	}
	configuration.overlay(base, "not an object") == base
}

# An overlay that lists every exclusion without gateway adds to the floor;
# it cannot take gateway back.
test_an_overlay_adds_to_the_floor if {
	overlay := {"exclusions": {"subagent_hard_deny": ["send_email"], "subagent_depth_cap": [], "fork_no_spawn": []}}
	verdict(overlay, sub, "gateway") == ["excluded", "subagent_hard_deny"]
	verdict(overlay, sub, "send_email") == ["excluded", "subagent_hard_deny"]
	verdict(overlay, {"role": "main", "depth": 0}, "send_email") == "allowed"

	# send_email is a name nothing else knows (unknown_deny_entry) until
	# the configuration names it elsewhere, here in a group
	[w.code | some w in check(overlay).warnings] == ["unknown_deny_entry"]
	check(object.union(overlay, {"groups": {"messaging": ["send_email"]}})).warnings == []
}

test_null_exclusions_add_nothing if {
	verdict({"exclusions": null}, sub, "gateway") == ["excluded", "subagent_hard_deny"]
	check({"exclusions": null}).errors == []
}

# A preset adds its runtime's names; the deployment's additions and the
# floor stay.
test_a_preset_keeps_the_deployment_additions_and_the_floor if {
	every preset in ["claude_code", "qwen_code", "openclaw"] {
		overlay := {"preset": preset, "exclusions": {"subagent_hard_deny": ["send_email"]}}
		verdict(overlay, fork, "send_email") == ["excluded", "subagent_hard_deny"]
		verdict(overlay, fork, "agent") == ["excluded", "fork_no_spawn"]
		verdict(overlay, sub, "gateway") == ["excluded", "subagent_hard_deny"]
		check({"preset": preset}).warnings == []
	}
}

test_a_floor_exception_drops_an_entry_and_is_always_reported if {
	overlay := {"floor_exceptions": {"subagent_hard_deny": ["GATEWAY"]}}
	verdict(overlay, sub, "gateway") == "allowed"
	c := check(overlay)
	c.errors == []
	[[w.code, w.field, w.entry] | some w in c.warnings] == [["floor_exception", "config.floor_exceptions.subagent_hard_deny", "GATEWAY"]]
}

test_a_floor_exception_does_not_drop_the_same_entry_added_elsewhere if {
	overlay := {"floor_exceptions": {"fork_no_spawn": ["agent"]}, "exclusions": {"fork_no_spawn": ["agent"]}}
	verdict(overlay, fork, "agent") == ["excluded", "fork_no_spawn"]
}

test_path_arguments_join_the_configuration_and_the_preset if {
	conf := {
		"path_arguments": {"read_file": {"path": "read"}, "edit": {"path": "write"}},
		"preset": "p",
		"presets": {"p": {"path_arguments": {"read_file": {"file_path": "read"}, "edit": {"path": "read"}}}},
	}
	configuration.path_arguments(conf) == {
		"read_file": {"path": {"read": true}, "file_path": {"read": true}},
		"edit": {"path": {"read": true, "write": true}},
	}
}
