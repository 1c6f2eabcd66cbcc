# Agent definitions and the runtime filters keyed on agent attributes
# (seed 003, filterToolsForAgent and resolveAgentTools).
#
# config.agents[NAME] is the definition of the agent input.agent.name:
#   tools             allowlist; absent, null or ["*"] is every tool left
#                     after the runtime filters
#   disallowed_tools  blocklist
#   builtin           a built-in agent (default false: a custom agent)
#   async, background runs asynchronously (either makes it async)
#   read_only         runs in read-only mode (see read_only.rego)
#   profile, also_allow  its profile stage (see profiles.rego)
#
# config.agent_filters are the filters of sub-agents, checked in order.
# MCP tools pass through the first three untouched, as in the seed:
#   all_agents_disallowed        no sub-agent gets these       (all_agents)
#   custom_agents_disallowed     nor does a custom sub-agent   (custom_agents)
#   async_allowed                an async sub-agent gets only these, and an
#                                in-process teammate (input.agent.teammate)
#                                also in_process_teammate_allowed and
#                                agent_tool                     (async_agents)
#   coordinator_allowed          in coordinator mode (input.agent.coordinator)
#                                the agent gets only these, MCP tools
#                                included                       (coordinator_mode)
package tooleval.stages

import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_name
import data.tooleval.shape

# METADATA
# title: definition
# description: The definition of the request's agent in config.agents, or null.
definition(doc, conf) := d if {
	d := shape.field(conf, "agents", {})[shape.agent(doc).name]
	is_object(d)
} else := null

agent_flag(doc, key) if shape.field(shape.field(doc, "agent", {}), key, false) == true

definition_flag(doc, conf, key) if shape.field(definition(doc, conf), key, false) == true

is_subagent(doc) if shape.agent(doc).role in shape.subagent_roles

is_async(doc, conf) if definition_flag(doc, conf, "async")

is_async(doc, conf) if definition_flag(doc, conf, "background")

is_async(doc, _) if agent_flag(doc, "async")

filters(conf) := shape.field(conf, "agent_filters", {})

agent_filter_stages(doc, conf) := array.flatten([
	all_agents_stage(doc, conf),
	custom_agents_stage(doc, conf),
	async_agents_stage(doc, conf),
	coordinator_stage(doc, conf),
])

all_agents_stage(doc, conf) := [{
	"name": "all_agents",
	"allow": null,
	"deny": shape.field(filters(conf), "all_agents_disallowed", []),
	"exempt": "mcp",
}] if {
	is_subagent(doc)
} else := []

custom_agents_stage(doc, conf) := [{
	"name": "custom_agents",
	"allow": null,
	"deny": shape.field(filters(conf), "custom_agents_disallowed", []),
	"exempt": "mcp",
}] if {
	is_subagent(doc)
	not definition_flag(doc, conf, "builtin")
} else := []

async_agents_stage(doc, conf) := [{
	"name": "async_agents",
	"allow": array.concat(allowed, teammate_tools(doc, conf)),
	"deny": [],
	"exempt": "mcp",
}] if {
	is_subagent(doc)
	is_async(doc, conf)
	allowed := shape.field(filters(conf), "async_allowed", null)
	is_array(allowed)
} else := []

teammate_tools(doc, conf) := array.concat(
	shape.field(filters(conf), "in_process_teammate_allowed", []),
	[shape.field(filters(conf), "agent_tool", "agent")],
) if {
	agent_flag(doc, "teammate")
} else := []

coordinator_stage(doc, conf) := [{
	"name": "coordinator_mode",
	"allow": allowed,
	"deny": [],
}] if {
	agent_flag(doc, "coordinator")
	allowed := shape.field(filters(conf), "coordinator_allowed", null)
	is_array(allowed)
} else := []

# METADATA
# title: agent_definition_stage
# description: The agent's own tools and disallowed_tools, when it has a definition.
agent_definition_stage(doc, conf) := [{
	"name": "agent_definition",
	"allow": definition_allow(d),
	"deny": shape.field(d, "disallowed_tools", []),
}] if {
	d := definition(doc, conf)
	d != null
} else := []

# tools absent, null or ["*"] states no allowlist: every tool the
# runtime filters leave.
definition_allow(d) := null if {
	shape.field(d, "tools", null) == null
} else := null if {
	d.tools == ["*"]
} else := d.tools

agent_mode_errors(doc) := [shape.problem(
	"invalid_agent",
	sprintf("agent.%s must be a boolean", [key]),
	{"field": sprintf("agent.%s", [key])},
) |
	some key in ["async", "teammate", "coordinator", "read_only"]
	shape.present(shape.field(doc, "agent", {}), key)
	not is_boolean(doc.agent[key])
]

agent_config_errors(conf) := array.flatten([
	object_errors(value_at(conf, "agents"), "config.agents", true),
	collision_errors(shape.field(conf, "agents", {}), "config.agents"),
	[e |
		some name, d in shape.field(conf, "agents", {})
		some e in definition_errors(name, d, conf)
	],
	object_errors(value_at(conf, "agent_filters"), "config.agent_filters", true),
	entries_errors(value_at(filters(conf), "all_agents_disallowed"), "deny", "config.agent_filters.all_agents_disallowed", conf, true),
	entries_errors(value_at(filters(conf), "custom_agents_disallowed"), "deny", "config.agent_filters.custom_agents_disallowed", conf, true),
	entries_errors(value_at(filters(conf), "async_allowed"), "allow", "config.agent_filters.async_allowed", conf, true),
	entries_errors(value_at(filters(conf), "in_process_teammate_allowed"), "allow", "config.agent_filters.in_process_teammate_allowed", conf, true),
	entries_errors(value_at(filters(conf), "coordinator_allowed"), "allow", "config.agent_filters.coordinator_allowed", conf, true),
	agent_tool_errors(conf),
])

definition_errors(name, d, conf) := [shape.problem(
	"invalid_config_value",
	sprintf("config.agents.%s must be an object", [name]),
	{"field": sprintf("config.agents.%s", [name])},
)] if {
	not is_object(d)
} else := array.flatten([
	entries_errors(definition_allow(d), "allow", sprintf("config.agents.%s.tools", [name]), conf, true),
	entries_errors(value_at(d, "disallowed_tools"), "deny", sprintf("config.agents.%s.disallowed_tools", [name]), conf, true),
	entries_errors(value_at(d, "also_allow"), "allow", sprintf("config.agents.%s.also_allow", [name]), conf, true),
	profile_reference_errors(value_at(d, "profile"), sprintf("config.agents.%s.profile", [name]), conf),
	boolean_errors(d, ["builtin", "async", "background", "read_only"], sprintf("config.agents.%s", [name])),
])

agent_tool_errors(conf) := [] if {
	plain_name(shape.field(filters(conf), "agent_tool", "agent"))
} else := [shape.problem(
	"invalid_config_value",
	"config.agent_filters.agent_tool must be a tool name",
	{"field": "config.agent_filters.agent_tool"},
)]

# METADATA
# title: agent_tools
# description: |
#   Like resolveAgentTools: for an agent whose definition lists its tools,
#   which listed exact names are valid (name a declared tool) and which
#   are invalid (name none: a warning, never a widening). Null when the
#   definition lists no tools.
agent_tools(doc, conf, index) := {
	"agent": shape.agent(doc).name,
	"valid": [e | some e in exact_entries(allowed); index[canonical_or_null(e)]],
	"invalid": [e | some e in exact_entries(allowed); not index[canonical_or_null(e)]],
} if {
	d := definition(doc, conf)
	d != null
	allowed := definition_allow(d)
	is_array(allowed)
} else := null

exact_entries(list) := [e |
	some e in list
	is_string(e)
	not contains(e, "*")
	not startswith(e, "group:")
]
