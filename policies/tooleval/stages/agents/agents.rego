# METADATA
# title: Agent definitions and runtime filters
# description: |
#   The stages keyed on who is asking (tooleval.subject): the runtime
#   filters of sub-agents and the agent's own definition. Documented in
#   docs/configuration.md, "Agent definitions (`agents`)" and "Runtime
#   filters (`agent_filters`)"; a preset's agent_filters are merged in as
#   "Runtime presets (`preset`)" there says, and docs/presets.md,
#   "Groups, profiles, filters" (claude_code) gives the preset's lists.
#
#   config.agents[NAME] is the definition of the agent input.agent.name:
#     tools             allowlist; absent, null or ["*"] is every tool left
#                       after the runtime filters
#     disallowed_tools  blocklist
#     builtin           a built-in agent (default false: a custom agent)
#     async, background runs asynchronously (either makes it async)
#     read_only         runs in read-only mode (tooleval.stages.read_only)
#     profile, also_allow  its profile stage (tooleval.stages.profiles)
#
#   config.agent_filters are the filters of sub-agents, checked in order.
#   MCP tools pass through the first three untouched:
#     all_agents_disallowed        no sub-agent gets these       (all_agents)
#     custom_agents_disallowed     nor does a custom sub-agent   (custom_agents)
#     async_allowed                an async sub-agent gets only these, and an
#                                  in-process teammate (input.agent.teammate)
#                                  also in_process_teammate_allowed and
#                                  agent_tool                     (async_agents)
#     coordinator_allowed          in coordinator mode (input.agent.coordinator)
#                                  the agent gets only these, MCP tools
#                                  included                       (coordinator_mode)
package tooleval.stages.agents

import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_name
import data.tooleval.configuration.lists
import data.tooleval.configuration.tables
import data.tooleval.configuration.validate
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.stages.profiles

_filters(conf) := shape.field(conf, "agent_filters", {})

_agent_filter_stages(s, conf) := array.flatten([
	_all_agents_stage(s, conf),
	_custom_agents_stage(s, conf),
	_async_agents_stage(s, conf),
	_coordinator_stage(s, conf),
])

_all_agents_stage(s, conf) := [{
	"name": "all_agents",
	"allow": null,
	"deny": shape.field(_filters(conf), "all_agents_disallowed", []),
	"exempt": "mcp",
}] if {
	s.subagent
} else := []

_custom_agents_stage(s, conf) := [{
	"name": "custom_agents",
	"allow": null,
	"deny": shape.field(_filters(conf), "custom_agents_disallowed", []),
	"exempt": "mcp",
}] if {
	s.subagent
	not s.builtin
} else := []

_async_agents_stage(s, conf) := [{
	"name": "async_agents",
	"allow": array.concat(allowed, _teammate_tools(s, conf)),
	"deny": [],
	"exempt": "mcp",
}] if {
	s.subagent
	s.async
	allowed := shape.field(_filters(conf), "async_allowed", null)
	is_array(allowed)
} else := []

# METADATA
# description: |
#   The runtime's tool that launches a sub-agent:
#   agent_filters.agent_tool, "agent" when absent or null (each preset
#   sets its runtime's). The one reading of it: the teammate stage and
#   tooleval verify read it here.
agent_tool(conf) := shape.field(_filters(conf), "agent_tool", "agent")

_teammate_tools(s, conf) := array.concat(
	shape.field(_filters(conf), "in_process_teammate_allowed", []),
	[agent_tool(conf)],
) if {
	s.teammate
} else := []

_coordinator_stage(s, conf) := [{
	"name": "coordinator_mode",
	"allow": allowed,
	"deny": [],
}] if {
	s.coordinator
	allowed := shape.field(_filters(conf), "coordinator_allowed", null)
	is_array(allowed)
} else := []

# METADATA
# description: The agent's own tools and disallowed_tools, when it has a definition.
_agent_definition_stage(s) := [{
	"name": "agent_definition",
	"allow": _definition_allow(d),
	"deny": shape.field(d, "disallowed_tools", []),
}] if {
	d := s.definition
	d != null
} else := []

# tools absent, null or ["*"] states no allowlist: every tool the
# runtime filters leave.
_definition_allow(d) := null if {
	shape.field(d, "tools", null) == null
} else := null if {
	d.tools == ["*"]
} else := d.tools

_agent_mode_errors(doc) := [shape.problem(
	"invalid_agent",
	sprintf("agent.%s must be a boolean", [key]),
	{"field": sprintf("agent.%s", [key])},
) |
	some key in ["async", "teammate", "coordinator", "read_only"]
	shape.present(shape.field(doc, "agent", {}), key)
	not is_boolean(doc.agent[key])
]

_agent_config_errors(conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "agents"), "config.agents", true),
	tables.key_errors(shape.field(conf, "agents", {}), "config.agents"),
	[e |
		some name, d in shape.field(conf, "agents", {})
		some e in _definition_errors(name, d, conf)
	],
	_filter_errors(conf),
])

_agent_request_errors(s, conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "agents"), "config.agents", true),
	tables.lookup_errors(shape.field(conf, "agents", {}), "config.agents", [["agent.name", s.name]]),
	_own_definition_errors(s, conf),
	_request_filter_errors(s, conf),
])

_own_definition_errors(s, conf) := _definition_errors(s.definition_key, conf.agents[s.definition_key], conf) if {
	s.definition_key != null
} else := []

_request_filter_errors(s, conf) := _filter_errors(conf) if {
	s.subagent
} else := _filter_errors(conf) if {
	s.coordinator
} else := []

_filter_errors(conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "agent_filters"), "config.agent_filters", true),
	validate.unknown_member_errors(
		validate.value_at(conf, "agent_filters"), {
			"all_agents_disallowed", "custom_agents_disallowed", "async_allowed",
			"in_process_teammate_allowed", "coordinator_allowed", "agent_tool",
		},
		"config.agent_filters",
	),
	_filter_list_errors(conf, "all_agents_disallowed", "deny"),
	_filter_list_errors(conf, "custom_agents_disallowed", "deny"),
	_filter_list_errors(conf, "async_allowed", "allow"),
	_filter_list_errors(conf, "in_process_teammate_allowed", "allow"),
	_filter_list_errors(conf, "coordinator_allowed", "allow"),
	_agent_tool_errors(conf),
])

_definition_errors(name, d, conf) := [shape.problem(
	"invalid_config_value",
	sprintf("config.agents.%s must be an object", [name]),
	{"field": sprintf("config.agents.%s", [name])},
)] if {
	not is_object(d)
} else := array.flatten([
	lists.entries_errors(_definition_allow(d), "allow", sprintf("config.agents.%s.tools", [name]), conf, true),
	lists.entries_errors(validate.value_at(d, "disallowed_tools"), "deny", sprintf("config.agents.%s.disallowed_tools", [name]), conf, true),
	lists.entries_errors(validate.value_at(d, "also_allow"), "allow", sprintf("config.agents.%s.also_allow", [name]), conf, true),
	profiles.profile_reference_errors(validate.value_at(d, "profile"), sprintf("config.agents.%s.profile", [name]), conf),
	validate.boolean_errors(d, ["builtin", "async", "background", "read_only"], sprintf("config.agents.%s", [name])),
	validate.unknown_member_errors(d, _definition_members, sprintf("config.agents.%s", [name])),
])

_definition_members := {"tools", "disallowed_tools", "builtin", "async", "background", "read_only", "profile", "also_allow"}

_agent_tool_errors(conf) := [] if {
	plain_name(agent_tool(conf))
} else := [shape.problem(
	"invalid_config_value",
	"config.agent_filters.agent_tool must be a tool name",
	{"field": "config.agent_filters.agent_tool"},
)]

# METADATA
# description: |
#   Like resolveAgentTools: for an agent whose definition lists its tools,
#   which listed exact names are valid (name a declared tool) and which
#   are invalid (name none: a warning, never a widening). Null when the
#   definition lists no tools.
agent_tools(s, index) := {
	"agent": s.name,
	"valid": [e | some e in _exact_entries(allowed); index[canonical_or_null(e)]],
	"invalid": [e | some e in _exact_entries(allowed); not index[canonical_or_null(e)]],
} if {
	d := s.definition
	d != null
	allowed := _definition_allow(d)
	is_array(allowed)
} else := null

_exact_entries(list) := [e | some e in list; pattern.exact(e)]

# METADATA
# description: The agent filter stages and the agent definition stage that apply to the request, in order.
layers(_, s, conf) := array.concat(_agent_filter_stages(s, conf), _agent_definition_stage(s))

# METADATA
# description: What is wrong with the request's agent modes and the agent configuration it reads.
request_errors(doc, s, conf) := array.concat(_agent_mode_errors(doc), _agent_request_errors(s, conf))

# METADATA
# description: Every error in config.agents and config.agent_filters.
config_errors(conf) := _agent_config_errors(conf)

_filter_list_errors(conf, name, kind) := lists.entries_errors(
	validate.value_at(_filters(conf), name), kind,
	sprintf("config.agent_filters.%s", [name]), conf, true,
)

# METADATA
# description: |
#   Where the entries of this package's stages come from, by stage and
#   list, one source per entry (see tooleval.tracing).
sources(_, s, conf) := {
	"all_agents": {"deny": _filter_sources(conf, "all_agents_disallowed")},
	"custom_agents": {"deny": _filter_sources(conf, "custom_agents_disallowed")},
	"async_agents": {"allow": array.concat(_filter_sources(conf, "async_allowed"), _teammate_sources(s, conf))},
	"coordinator_mode": {"allow": _filter_sources(conf, "coordinator_allowed")},
	"agent_definition": {
		"allow": tables.indexed_sources(sprintf("config.agents.%s.tools", [s.definition_key]), _definition_allow(s.definition)),
		"deny": tables.indexed_sources(
			sprintf("config.agents.%s.disallowed_tools", [s.definition_key]),
			shape.field(s.definition, "disallowed_tools", []),
		),
	},
}

_filter_sources(conf, list) := tables.indexed_sources(sprintf("config.agent_filters.%s", [list]), shape.field(_filters(conf), list, []))

_teammate_sources(s, conf) := array.concat(
	_filter_sources(conf, "in_process_teammate_allowed"),
	["config.agent_filters.agent_tool"],
) if {
	s.teammate
} else := []
