# METADATA
# title: Configuration sections
# description: |
#   The sections of the configuration a stage validates on every request it
#   applies to (tooleval.stages.profiles: config.profiles and config.tools
#   on every request, config.subagents on a sub-agent's). Their errors
#   depend on the configuration alone: they are prepared once with the rest
#   of data.tooleval.prepared (its member sections, by_section) and looked
#   up by section on each request (tooleval.configuration.section_errors),
#   instead of validating the lists again.
package tooleval.configuration.sections

import data.tooleval.configuration.lists
import data.tooleval.configuration.validate
import data.tooleval.shape

# METADATA
# description: Every section's errors, by section, for the prepared configuration (tooleval.configuration.prepare).
by_section(conf) := {section: errors(section, conf) | some section in {"tools", "tool_lists", "subagents"}}

# METADATA
# scope: document
# description: |
#   The errors of a section of the configuration conf: tools
#   (config.profiles and config.tools are objects, config.tools has no
#   unknown member), tool_lists (config.tools.message and the lists
#   also_allow, allow, deny and ask) or subagents (config.subagents).
errors("tools", conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "profiles"), "config.profiles", true),
	validate.object_errors(validate.value_at(conf, "tools"), "config.tools", true),
	validate.unknown_member_errors(validate.value_at(conf, "tools"), _tools_members, "config.tools"),
])

errors("tool_lists", conf) := array.flatten([
	_tools_message_errors(conf),
	lists.entries_errors(validate.value_at(_tools_config(conf), "also_allow"), "allow", "config.tools.also_allow", conf, true),
	lists.rule_entries_errors(validate.value_at(_tools_config(conf), "allow"), "allow", "config.tools.allow", conf, true),
	lists.rule_entries_errors(validate.value_at(_tools_config(conf), "deny"), "deny", "config.tools.deny", conf, true),
	lists.rule_entries_errors(validate.value_at(_tools_config(conf), "ask"), "ask", "config.tools.ask", conf, true),
	_otherwise_errors(validate.value_at(_tools_config(conf), "otherwise"), "config.tools.otherwise"),
])

errors("subagents", conf) := _subagents_errors(conf)

_tools_config(conf) := shape.field(conf, "tools", {})

_subagents_config(conf) := shape.field(conf, "subagents", {})

# The members config.tools may have.
_tools_members := {"profile", "also_allow", "allow", "deny", "ask", "otherwise", "message"}

# The error of config.tools.message, quoted in the refusals of the
# global policy: a string of at most shape.max_message_length
# characters, or null.
_tools_message_errors(conf) := [] if {
	shape.valid_message(shape.field(_tools_config(conf), "message", null))
} else := [shape.problem(
	"invalid_config",
	sprintf("config.tools.message must be a string of at most %d characters, or null", [shape.max_message_length]),
	{"field": "config.tools.message"},
)]

# Every error in config.subagents (an object of the lists allow, deny and ask).
_subagents_errors(conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "subagents"), "config.subagents", true),
	validate.unknown_member_errors(validate.value_at(conf, "subagents"), {"allow", "deny", "ask", "otherwise"}, "config.subagents"),
	_otherwise_errors(validate.value_at(_subagents_config(conf), "otherwise"), "config.subagents.otherwise"),
	lists.rule_entries_errors(validate.value_at(_subagents_config(conf), "allow"), "allow", "config.subagents.allow", conf, true),
	lists.rule_entries_errors(validate.value_at(_subagents_config(conf), "deny"), "deny", "config.subagents.deny", conf, true),
	lists.rule_entries_errors(validate.value_at(_subagents_config(conf), "ask"), "ask", "config.subagents.ask", conf, true),
])

# The error of a policy stage's otherwise at location: what the stage
# says of a call its allow list does not let through, "deny" (refuse
# it) or "ask" (ask a person), or null.
_otherwise_errors(value, location) := [] if {
	value in {null, "deny", "ask"}
} else := [shape.problem(
	"invalid_config_value",
	sprintf("%s must be \"deny\" or \"ask\", or null", [location]),
	{"field": location},
)]
