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
#   - fork_no_spawn: role fork;
#   - teammate_no_spawn: an in-process teammate (agent.teammate), any
#     role (the shipped floor's list is empty; Qwen Code's preset fills
#     it: its teammates never spawn).
package tooleval.exclusions

import data.tooleval.configuration
import data.tooleval.shape

# METADATA
# scope: document
# description: The named exclusion applies to the agent, under a prepared configuration (its max_depth).
_applies("subagent_hard_deny", agent, _) if {
	agent.role in shape.subagent_roles
}

_applies("subagent_depth_cap", agent, prepared) if {
	agent.role in shape.subagent_roles
	agent.depth >= prepared.max_depth
}

_applies("subagent_depth_cap", agent, _) if {
	agent.role in shape.subagent_roles
	agent.leaf == true
}

_applies("fork_no_spawn", agent, _) if {
	agent.role == "fork"
}

_applies("teammate_no_spawn", agent, _) if {
	agent.teammate == true
}

# METADATA
# description: |
#   The exclusions that apply to the agent, in order, as {name, deny},
#   with the deny matchers a prepared configuration compiled
#   (tooleval.configuration.prepare).
active(agent, prepared) := [{"name": name, "deny": prepared.exclusions[name]} |
	some name in configuration.exclusion_names
	_applies(name, agent, prepared)
]
