# METADATA
# title: Configured lists
# description: |
#   Validating the configured lists of tool entries (the allow, deny and
#   ask lists of stages, profiles and runtime filters) against the groups
#   they read: the configuration's own and its preset's. Every problem names its
#   location as field (config.PATH) and, for an entry, its index.
package tooleval.configuration.lists

import data.tooleval.arguments
import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# description: |
#   The problems of a list of pattern entries of the given kind ("allow"
#   or "deny") at location; a nullable list may also be null (or absent).
entries_errors(value, kind, location, conf, nullable) := [] if {
	value == null
	nullable == true
} else := [shape.problem("invalid_list", sprintf("%s must be an array%s", [location, _or_null(nullable)]), {"field": location})] if {
	not is_array(value)
} else := [shape.problem(
	p.code,
	pattern.problem_messages[p.code],
	object.union(p, {"field": location}),
) |
	some p in pattern.list_problems(value, kind, groups(conf))
]

# METADATA
# description: |
#   The problems of an allow, deny or ask list (list) at location whose
#   entries may also be argument rules (tooleval.arguments.list_problems):
#   the lists of config.tools and config.subagents. A nullable list may
#   also be null (or absent).
rule_entries_errors(value, list, location, conf, nullable) := [] if {
	value == null
	nullable == true
} else := [shape.problem("invalid_list", sprintf("%s must be an array%s", [location, _or_null(nullable)]), {"field": location})] if {
	not is_array(value)
} else := [shape.problem(
	p.code,
	_problem_message(p.code),
	object.union(p, {"field": location}),
) |
	some p in arguments.list_problems(value, list, groups(conf))
]

_problem_message(code) := pattern.problem_messages[code]

_problem_message(code) := arguments.rule_problem_messages[code]

_or_null(true) := " or null"

_or_null(false) := ""

# METADATA
# description: |
#   The groups an allow list reads: the configuration's (config.groups),
#   with its preset's merged over them (the preset's group of a name
#   replaces the configuration's), or none.
groups(conf) := object.union(own_groups(conf), preset_groups(conf))

# METADATA
# description: The configuration's own groups (config.groups), or none.
own_groups(conf) := conf.groups if is_object(conf.groups)

else := {}

# METADATA
# description: The groups of the configuration's preset, or none.
preset_groups(conf) := g if {
	g := conf.presets[conf.preset].groups
	is_object(g)
} else := {}
