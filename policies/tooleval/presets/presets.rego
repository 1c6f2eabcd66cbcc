# METADATA
# title: Runtime presets
# description: |
#   A preset maps the default tool lists onto the tool names of one agent
#   runtime. data.tooleval.config.preset selects one of
#   data.tooleval.config.presets (qwen_code, claude_code, openclaw); null,
#   the default, keeps the lists of the spec. The keys a preset holds
#   (exclusions, groups, profiles, path_arguments, agent_filters,
#   read_only, shell) are merged over the configuration, object by object:
#   a preset's list replaces the configuration's list of the same name.
#   To change a list under a preset, edit the preset's data.
package tooleval.presets

import data.tooleval.shape

# METADATA
# title: apply
# description: The configuration with its selected preset merged over it (unchanged with none).
apply(conf) := object.union(conf, object.filter(conf.presets[conf.preset], controlled)) if {
	is_object(conf.presets[conf.preset])
} else := conf

# METADATA
# title: controlled
# description: The configuration members a preset sets; it sets no other.
controlled := {"exclusions", "groups", "profiles", "path_arguments", "agent_filters", "read_only", "shell"}

# METADATA
# title: errors
# description: A problem when config.preset is neither null nor the name of a preset.
errors(conf) := [] if {
	shape.field(conf, "preset", null) == null
} else := [shape.problem(
	"unknown_config_key",
	sprintf("config.presets.%s.%s is not a member a preset sets (%v)", [conf.preset, key, sort(controlled)]),
	{"field": sprintf("config.presets.%s.%s", [conf.preset, key])},
) |
	is_object(conf.presets[conf.preset])
	some key in sort(object.keys(conf.presets[conf.preset]) - controlled)
] if {
	is_object(conf.presets[conf.preset])
} else := [shape.problem(
	"unknown_preset",
	sprintf("config.preset %v names no preset in config.presets", [conf.preset]),
	{"field": "config.preset", "preset": conf.preset},
)]
