# The agent making the calls.
#
# agent.role is main, subagent or fork (a fork is a sub-agent too);
# agent.depth is 0 for the main agent and one more for each generation
# of children. An absent agent is a main agent at depth 0; a sub-agent
# must state its depth.
package tooleval.shape

# METADATA
# description: The roles an agent can have.
_roles := {"main", "subagent", "fork"}

# METADATA
# description: The roles that are sub-agents.
subagent_roles := {"subagent", "fork"}

# METADATA
# description: The agent as {name, role, depth, leaf, teammate}, with defaults filled in.
agent(doc) := {
	"name": field(a, "name", ""),
	"role": field(a, "role", "main"),
	"depth": field(a, "depth", 0),
	"leaf": field(a, "leaf", false) == true,
	"teammate": field(a, "teammate", false) == true,
} if {
	a := field(doc, "agent", {})
}

# METADATA
# description: What is wrong with input.agent.
agent_errors(doc) := [problem("invalid_agent", message, {"field": "agent"}) |
	some message in _agent_problems(doc)
]

_agent_problems(doc) := ["agent must be an object"] if {
	not is_object(field(doc, "agent", {}))
} else := [message |
	a := field(doc, "agent", {})
	some message in _agent_member_problems(a)
]

_agent_member_problems(a) := ["agent.name must be a string"] if {
	not is_string(field(a, "name", ""))
} else := ["agent.role must be one of \"main\", \"subagent\" or \"fork\""] if {
	not field(a, "role", "main") in _roles
} else := ["agent.depth must be a whole number at least 0"] if {
	not is_count(field(a, "depth", 0))
} else := ["agent.leaf must be a boolean"] if {
	not is_boolean(field(a, "leaf", false))
} else := ["a sub-agent must state agent.depth"] if {
	field(a, "role", "main") in subagent_roles
	not present(a, "depth")
} else := ["a sub-agent has agent.depth at least 1"] if {
	field(a, "role", "main") in subagent_roles
	field(a, "depth", 0) == 0
} else := ["the main agent has agent.depth 0"] if {
	field(a, "role", "main") == "main"
	field(a, "depth", 0) != 0
} else := []
