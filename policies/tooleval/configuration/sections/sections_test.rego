package tooleval.configuration.sections_test

import data.tooleval.configuration
import data.tooleval.configuration.sections

broken_sections_config := object.union(data.tooleval.config, {
	"profiles": [],
	"tools": {"profile": null, "also_allow": "x", "allow": null, "deny": [5], "message": 7, "extra": true},
	"subagents": {"allow": null, "deny": "y", "other": 1},
})

# [section, expected [code, field] of its errors in broken_sections_config]
broken_sections := [
	["tools", [
		["invalid_config_value", "config.profiles"],
		["unknown_config_key", "config.tools.extra"],
	]],
	["tool_lists", [
		["invalid_config", "config.tools.message"],
		["invalid_list", "config.tools.also_allow"],
		["non_string_entry", "config.tools.deny"],
	]],
	["subagents", [
		["unknown_config_key", "config.subagents.other"],
		["invalid_list", "config.subagents.deny"],
	]],
]

section_fields(errors) := [[e.code, e.field] | some e in errors]

test_section_errors_computed_for_any_configuration if {
	every case in broken_sections {
		section_fields(sections.errors(case[0], broken_sections_config)) == case[1]
		section_fields(sections.by_section(broken_sections_config)[case[0]]) == case[1]
		section_fields(configuration.section_errors(broken_sections_config, case[0])) == case[1]
	}
	count(sections.by_section(broken_sections_config)) == count(broken_sections)
}
