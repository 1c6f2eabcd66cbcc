package tooleval.configuration_test

import data.tooleval.configuration
import data.tooleval.configuration.sections_test

# The prepared configuration in force: the bundle's prepared data when it
# was prepared from this configuration (its name-keyed tables aside),
# its preset and this floor; else the configuration prepared now, so a
# stale copy can cost time, never change a decision. Each case's
# prepared data carries a marker, so that the test tells it from the
# configuration prepared now.
test_prepared_data_is_used_only_when_it_is_current if {
	shipped := data.tooleval.config
	shipped_floor := data.tooleval.floor
	with_preset := configuration.overlay(shipped, {"preset": "claude_code"})
	every tc in [
		# the shipped bundle: its own prepared data
		{"config": shipped, "prepared": configuration.prepared_document, "floor": shipped_floor, "current": true},
		# a table changed: the prepared data stands (tables are read as they are)
		{
			"config": configuration.overlay(shipped, {"tenants": {"acme": {"tools": ["read_file"]}}}),
			"prepared": configuration.prepared_document, "floor": shipped_floor, "current": true,
		},
		# prepared from another configuration
		{
			"config": shipped, "floor": shipped_floor, "current": false,
			"prepared": configuration.prepare(configuration.overlay(shipped, {"tools": {"deny": ["read_file"]}})),
		},
		# prepared for another floor
		{"config": shipped, "prepared": configuration.prepared_document, "floor": object.union(shipped_floor, {"subagent_hard_deny": []}), "current": false},
		# prepared with other preset members
		{
			"config": with_preset, "floor": shipped_floor, "current": false,
			"prepared": object.union(object.remove(configuration.prepare(with_preset), ["preset"]), {"preset": null}),
		},
	] {
		marked := object.union(tc.prepared, {"test_marker": true})
		got := configuration.prepared with data.tooleval.config as tc.config with data.tooleval.prepared as marked with data.tooleval.floor as tc.floor
		_in_force(tc, marked, got)
	}
}

_in_force(tc, marked, got) if {
	tc.current
	got == marked
}

_in_force(tc, _, got) if {
	not tc.current
	fresh := configuration.prepare(tc.config) with data.tooleval.floor as tc.floor
	got == fresh
	not "test_marker" in object.keys(got)
}

# The configuration in force reads its sections' errors from the
# prepared configuration: prepared now for a configuration that has no
# prepared copy, and computed when a prepared copy lacks them.
test_section_errors_prepared_for_the_configuration_in_force if {
	every case in _cases {
		_fields(configuration.section_errors(configuration.config, case[0])) == case[1] with data.tooleval.config as _broken
		_fields(configuration.prepared.sections[case[0]]) == case[1] with data.tooleval.config as _broken
	}
	every section in ["tools", "tool_lists", "subagents"] {
		configuration.section_errors(configuration.config, section) == [] with data.tooleval.prepared as object.remove(configuration.prepared_document, ["sections"])
		configuration.prepared.sections[section] == []
	}
}

# A prepared copy is read only for the configuration it was prepared from.
test_prepared_section_errors_are_not_read_for_another_configuration if {
	_fields(configuration.section_errors(_broken, "tools")) == _cases[0][1] with data.tooleval.prepared.sections as {"tools": []}
	configuration.section_errors(configuration.config, "tools") == ["prepared"] with data.tooleval.prepared.sections as {"tools": ["prepared"]}
}

_broken := sections_test.broken_sections_config

_cases := sections_test.broken_sections

_fields(errors) := sections_test.section_fields(errors)
