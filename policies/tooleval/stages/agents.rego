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
import data.tooleval.configuration
import data.tooleval.shape

# METADATA
# title: subject
# description: |
#   Who is asking, read once from the request and the configuration:
#   {name, subagent, definition_key and definition (or null), builtin,
#   async, teammate, coordinator, read_only, profile (or null)}. The
#   stages read it instead of the request.
subject(doc, conf) := {
	"name": agent.name,
	"subagent": agent.role in shape.subagent_roles,
	"definition_key": key,
	"definition": d,
	"builtin": object.get(attrs, "builtin", false) == true,
	"async": true in [object.get(attrs, "async", false), object.get(attrs, "background", false), object.get(mode, "async", false)],
	"teammate": object.get(mode, "teammate", false) == true,
	"coordinator": object.get(mode, "coordinator", false) == true,
	"read_only": true in [object.get(attrs, "read_only", false), object.get(mode, "read_only", false)],
	"profile": shape.field(d, "profile", shape.field(shape.field(conf, "tools", {}), "profile", null)),
} if {
	agent := shape.agent(doc)
	mode := object_or_empty(shape.field(doc, "agent", {}))
	key := definition_key(agent.name, conf)
	d := definition(key, conf)
	attrs := object_or_empty(d)
}

object_or_empty(x) := x if is_object(x)

else := {}

# METADATA
# title: definition_key
# description: |
#   The key of config.agents that defines the agent named name (the key
#   with the same canonical form: Auditor, auditor and a full-width
#   spelling are one agent, as tool names are), or null. Keys that
#   collide canonically are an error for the requests that name them
#   (colliding_names).
definition_key(name, conf) := key if {
	key := configuration.table_key(shape.field(conf, "agents", {}), name)
} else := null

# The definition under key, when it is an object; else null.
definition(key, conf) := d if {
	d := shape.field(conf, "agents", {})[key]
	is_object(d)
} else := null

filters(conf) := shape.field(conf, "agent_filters", {})

agent_filter_stages(s, conf) := array.flatten([
	all_agents_stage(s, conf),
	custom_agents_stage(s, conf),
	async_agents_stage(s, conf),
	coordinator_stage(s, conf),
])

all_agents_stage(s, conf) := [{
	"name": "all_agents",
	"allow": null,
	"deny": shape.field(filters(conf), "all_agents_disallowed", []),
	"exempt": "mcp",
}] if {
	s.subagent
} else := []

custom_agents_stage(s, conf) := [{
	"name": "custom_agents",
	"allow": null,
	"deny": shape.field(filters(conf), "custom_agents_disallowed", []),
	"exempt": "mcp",
}] if {
	s.subagent
	not s.builtin
} else := []

async_agents_stage(s, conf) := [{
	"name": "async_agents",
	"allow": array.concat(allowed, teammate_tools(s, conf)),
	"deny": [],
	"exempt": "mcp",
}] if {
	s.subagent
	s.async
	allowed := shape.field(filters(conf), "async_allowed", null)
	is_array(allowed)
} else := []

teammate_tools(s, conf) := array.concat(
	shape.field(filters(conf), "in_process_teammate_allowed", []),
	[shape.field(filters(conf), "agent_tool", "agent")],
) if {
	s.teammate
} else := []

coordinator_stage(s, conf) := [{
	"name": "coordinator_mode",
	"allow": allowed,
	"deny": [],
}] if {
	s.coordinator
	allowed := shape.field(filters(conf), "coordinator_allowed", null)
	is_array(allowed)
} else := []

# METADATA
# title: agent_definition_stage
# description: The agent's own tools and disallowed_tools, when it has a definition.
agent_definition_stage(s) := [{
	"name": "agent_definition",
	"allow": definition_allow(d),
	"deny": shape.field(d, "disallowed_tools", []),
}] if {
	d := s.definition
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
	filter_errors(conf),
])

agent_request_errors(s, conf) := array.flatten([
	object_errors(value_at(conf, "agents"), "config.agents", true),
	configuration.collision_errors(shape.field(conf, "agents", {}), "config.agents", s.name),
	own_definition_errors(s, conf),
	request_filter_errors(s, conf),
])

own_definition_errors(s, conf) := definition_errors(s.definition_key, conf.agents[s.definition_key], conf) if {
	s.definition_key != null
} else := []

request_filter_errors(s, conf) := filter_errors(conf) if {
	s.subagent
} else := filter_errors(conf) if {
	s.coordinator
} else := []

filter_errors(conf) := array.flatten([
	object_errors(value_at(conf, "agent_filters"), "config.agent_filters", true),
	unknown_member_errors(
		value_at(conf, "agent_filters"), {
			"all_agents_disallowed", "custom_agents_disallowed", "async_allowed",
			"in_process_teammate_allowed", "coordinator_allowed", "agent_tool",
		},
		"config.agent_filters",
	),
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
	unknown_member_errors(d, definition_members, sprintf("config.agents.%s", [name])),
])

definition_members := {"tools", "disallowed_tools", "builtin", "async", "background", "read_only", "profile", "also_allow"}

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
agent_tools(s, index) := {
	"agent": s.name,
	"valid": [e | some e in exact_entries(allowed); index[canonical_or_null(e)]],
	"invalid": [e | some e in exact_entries(allowed); not index[canonical_or_null(e)]],
} if {
	d := s.definition
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
