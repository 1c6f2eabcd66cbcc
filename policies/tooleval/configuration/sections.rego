# The sections of the configuration a stage validates on every request it
# applies to (tooleval.stages.profiles: config.profiles and config.tools
# on every request, config.subagents on a sub-agent's). Their errors
# depend on the configuration alone: they are prepared once with the rest
# of data.tooleval.prepared (its member sections) and looked up by
# section on each request, instead of validating the lists again.
package tooleval.configuration

import data.tooleval.shape

# METADATA
# description: |
#   The errors of a section of the configuration conf: tools (config.profiles
#   and config.tools are objects, config.tools has no unknown member),
#   tool_lists (config.tools.message and the lists also_allow, allow,
#   deny and ask) or subagents (config.subagents). Prepared when conf is the
#   configuration in force, else computed.
section_errors(conf, section) := errors if {
	conf == config
	errors := prepared.sections[section]
} else := _section_errors(section, conf)

# Every section's errors, for prepare.
_sections(conf) := {section: _section_errors(section, conf) | some section in {"tools", "tool_lists", "subagents"}}

_section_errors("tools", conf) := array.flatten([
	object_errors(value_at(conf, "profiles"), "config.profiles", true),
	object_errors(value_at(conf, "tools"), "config.tools", true),
	unknown_member_errors(value_at(conf, "tools"), tools_members, "config.tools"),
])

_section_errors("tool_lists", conf) := array.flatten([
	tools_message_errors(conf),
	entries_errors(value_at(_tools_config(conf), "also_allow"), "allow", "config.tools.also_allow", conf, true),
	rule_entries_errors(value_at(_tools_config(conf), "allow"), "allow", "config.tools.allow", conf, true),
	rule_entries_errors(value_at(_tools_config(conf), "deny"), "deny", "config.tools.deny", conf, true),
	rule_entries_errors(value_at(_tools_config(conf), "ask"), "ask", "config.tools.ask", conf, true),
	otherwise_errors(value_at(_tools_config(conf), "otherwise"), "config.tools.otherwise"),
])

_section_errors("subagents", conf) := subagents_errors(conf)

_tools_config(conf) := shape.field(conf, "tools", {})

_subagents_config(conf) := shape.field(conf, "subagents", {})

# METADATA
# description: The members config.tools may have.
tools_members := {"profile", "also_allow", "allow", "deny", "ask", "otherwise", "message"}

# METADATA
# description: |
#   The error of config.tools.message, quoted in the refusals of the
#   global policy: a string of at most shape.max_message_length
#   characters, or null.
tools_message_errors(conf) := [] if {
	shape.valid_message(shape.field(_tools_config(conf), "message", null))
} else := [shape.problem(
	"invalid_config",
	sprintf("config.tools.message must be a string of at most %d characters, or null", [shape.max_message_length]),
	{"field": "config.tools.message"},
)]

# METADATA
# description: Every error in config.subagents (an object of the lists allow, deny and ask).
subagents_errors(conf) := array.flatten([
	object_errors(value_at(conf, "subagents"), "config.subagents", true),
	unknown_member_errors(value_at(conf, "subagents"), {"allow", "deny", "ask", "otherwise"}, "config.subagents"),
	otherwise_errors(value_at(_subagents_config(conf), "otherwise"), "config.subagents.otherwise"),
	rule_entries_errors(value_at(_subagents_config(conf), "allow"), "allow", "config.subagents.allow", conf, true),
	rule_entries_errors(value_at(_subagents_config(conf), "deny"), "deny", "config.subagents.deny", conf, true),
	rule_entries_errors(value_at(_subagents_config(conf), "ask"), "ask", "config.subagents.ask", conf, true),
])

# METADATA
# description: |
#   The error of a policy stage's otherwise at location: what the stage
#   says of a call its allow list does not let through, "deny" (refuse
#   it) or "ask" (ask a person), or null.
otherwise_errors(value, location) := [] if {
	value in {null, "deny", "ask"}
} else := [shape.problem(
	"invalid_config_value",
	sprintf("%s must be \"deny\" or \"ask\", or null", [location]),
	{"field": location},
)]
