# METADATA
# title: Runtime exclusions
# description: |
#   Tools the runtime removes before any layer is consulted; no layer can
#   undo them. The lists are data (data.tooleval.config.exclusions, deny
#   grammar); when each applies is policy, written here:
#
#   - subagent_hard_deny: every sub-agent (role subagent or fork, any depth);
#   - subagent_depth_cap: a sub-agent at depth >= data.tooleval.config.max_depth;
#   - fork_no_spawn: role fork.
package tooleval.exclusions

import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# title: names
# description: The exclusions, in the order they are checked.
names := ["subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn"]

# METADATA
# title: applies
# scope: document
# description: The named exclusion applies to the agent.
applies("subagent_hard_deny", agent, _) if {
	agent.role in shape.subagent_roles
}

applies("subagent_depth_cap", agent, config) if {
	agent.role in shape.subagent_roles
	agent.depth >= max_depth(config)
}

applies("fork_no_spawn", agent, _) if {
	agent.role == "fork"
}

# A missing or malformed max_depth is an error (see errors); until it is
# mended, every sub-agent is treated as being at the cap.
max_depth(config) := config.max_depth if shape.is_count(config.max_depth)

else := 0

# METADATA
# title: active
# description: The exclusions that apply to the agent, as {name, deny} with compiled deny matchers.
active(agent, config) := [{"name": name, "deny": pattern.compile(list(config, name), "deny", groups(config))} |
	some name in names
	applies(name, agent, config)
]

list(config, name) := config.exclusions[name] if is_array(config.exclusions[name])

else := []

groups(config) := config.groups if is_object(config.groups)

else := {}

# METADATA
# title: errors
# description: Errors in max_depth and the exclusion lists of the configuration.
errors(config) := array.concat(depth_errors(config), [e | some name in names; some e in list_errors(config, name)])

depth_errors(config) := [] if {
	shape.is_count(config.max_depth)
	config.max_depth >= 1
} else := [shape.problem("invalid_config_value", "max_depth must be a whole number at least 1", {"field": "config.max_depth"})]

list_errors(config, name) := [shape.problem(
	"invalid_list",
	sprintf("config.exclusions.%s must be an array", [name]),
	{"field": sprintf("config.exclusions.%s", [name])},
)] if {
	not is_array(object.get(config, ["exclusions", name], null))
} else := [shape.problem(
	p.code,
	pattern.problem_messages[p.code],
	object.union(p, {"field": sprintf("config.exclusions.%s", [name])}),
) |
	some p in pattern.list_problems(config.exclusions[name], "deny", groups(config))
]
