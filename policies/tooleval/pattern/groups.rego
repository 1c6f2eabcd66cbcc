# Groups: named lists of entries under data.tooleval.config.groups, used
# in any list as group:NAME. A group lists entries, never another group.
package tooleval.pattern

import data.tooleval.canonical.canonical_or_null
import data.tooleval.shape

# METADATA
# description: Errors in the groups of the configuration.
group_errors(config) := [] if {
	not shape.present(config, "groups")
} else := [shape.problem("invalid_config_value", "config.groups must be an object", {"field": "config.groups"})] if {
	not is_object(shape.field(config, "groups", null))
} else := [e |
	some name, members in config.groups
	some e in _one_group_errors(name, members, config.groups)
]

_one_group_errors(name, members, groups) := [shape.problem(
	"too_many_entries",
	sprintf("a group may have at most %d entries", [shape.max_entries]),
	{"field": "config.groups", "group": name},
)] if {
	is_array(members)
	count(members) > shape.max_entries
} else := [shape.problem(
	"invalid_config_value",
	"a group name must be its own canonical form, or no entry can name it",
	{"field": "config.groups", "group": name},
)] if {
	# a name with no canonical form is not its own canonical form either
	canonical_or_null(name) != name
} else := [shape.problem(
	"invalid_list",
	"a group must be an array of entries",
	{"field": "config.groups", "group": name},
)] if {
	not is_array(members)
} else := [shape.problem(
	code,
	problem_messages[code],
	{"field": "config.groups", "group": name, "group_index": j, "entry": member},
) |
	some j, member in members
	code := _member_problem(member, "deny", groups)
]
