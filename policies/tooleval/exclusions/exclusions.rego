# METADATA
# title: Runtime exclusions
# description: |
#   Tools the runtime removes before any layer is consulted; no layer can
#   undo them. The lists are data (the floor, data.tooleval.floor, with
#   the configuration's and the preset's additions: see
#   tooleval.configuration.exclusion_entries; deny grammar); when each
#   applies is policy, written here:
#
#   - subagent_hard_deny: every sub-agent (role subagent or fork, any depth);
#   - subagent_depth_cap: a sub-agent at depth >= config.max_depth, or one
#     the runtime stored as a leaf (agent.leaf);
#   - fork_no_spawn: role fork.
package tooleval.exclusions

import data.tooleval.configuration
import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# title: applies
# scope: document
# description: The named exclusion applies to the agent.
applies("subagent_hard_deny", agent, _) if {
	agent.role in shape.subagent_roles
}

applies("subagent_depth_cap", agent, config) if {
	agent.role in shape.subagent_roles
	agent.depth >= configuration.max_depth(config)
}

applies("subagent_depth_cap", agent, _) if {
	agent.role in shape.subagent_roles
	agent.leaf == true
}

applies("fork_no_spawn", agent, _) if {
	agent.role == "fork"
}

# METADATA
# title: active
# description: The exclusions that apply to the agent, as {name, deny} with compiled deny matchers.
active(agent, config) := [{"name": name, "deny": pattern.compile(configuration.exclusion_entries(config, name), "deny", configuration.vocabulary(config))} |
	some name in configuration.exclusion_names
	applies(name, agent, config)
]
