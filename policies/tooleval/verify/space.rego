# METADATA
# title: What tooleval verify enumerates
# description: |
#   The finite space of a configuration that `tooleval verify` checks its
#   invariants over (docs/verify.md): who can ask (the agent definitions,
#   tenants, scopes and MCP users the configuration names, the depths up
#   to its cap + 1, the agent modes some stage reads), every tool name
#   the preset and the configuration know (a witness for each wildcard),
#   and the lists whose promise the invariants hold the decisions to
#   (the exclusions as promised, before floor exceptions; the deny lists
#   and whom they apply to; the tenants' plans; the tool that spawns).
#
#   verify reads the space and asks the policy for decisions; it never
#   re-reads the configuration itself, so what it enumerates is what the
#   policy reads.
package tooleval.verify

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration
import data.tooleval.configuration.validate
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.warnings

# METADATA
# description: |
#   The space of the configuration in force (data.tooleval.config with
#   its preset), and under errors what verify cannot read exactly in the
#   configuration as written (see spawn_tool_errors).
# entrypoint: true
space := object.union(
	space_of(_with_every_preset(configuration.config), configuration.prepared.max_depth),
	{"errors": spawn_tool_errors(configuration.raw)},
)

# The configuration in force with every preset of data.tooleval.config
# (the prepared configuration may be one built before an overlay added a
# preset it does not select).
_with_every_preset(conf) := object.union(conf, {"presets": validate.object_at(configuration.raw, "presets")})

# METADATA
# description: |
#   The space of a configuration conf (with its preset applied) whose
#   depth cap is max_depth:
#
#     agents       the keys of config.agents (the agent names that select
#                  a definition; "" selects none)
#     builtin_agents  those whose definition says builtin (the
#                  custom_agents stage spares them)
#     tenants      the keys of config.tenants
#     scopes       the keys of config.scopes
#     users        the keys of config.mcp_user_services, when an object
#     max_depth    the depth cap: sub-agents are enumerated at depths 1
#                  to max_depth + 1
#     modes        which agent modes some part of the policy reads for
#                  this configuration (see modes)
#     tools        a declaration per known tool name (see tools)
#     exclusions   each runtime exclusion as promised: the floor's whole
#                  list (floor exceptions are what floor.holds reports),
#                  the configuration's and the preset's additions
#     spawn_tools  every tool that launches a sub-agent (see spawn_tools)
#     deny_lists   the configured deny lists, each with whom it applies to
#     plans        each tenant's plan (config.tenants[id].tools; null: every tool)
space_of(conf, max_depth) := {
	"agents": _keys(conf, "agents"),
	"builtin_agents": sort([k | some k, d in validate.object_at(conf, "agents"); d.builtin == true]),
	"tenants": _keys(conf, "tenants"),
	"scopes": _keys(conf, "scopes"),
	"users": _keys(conf, "mcp_user_services"),
	"max_depth": max_depth,
	"modes": modes(conf),
	"tools": tools(conf),
	"exclusions": {name: promised_exclusion(conf, name) | some name in configuration.exclusion_names},
	"spawn_tools": spawn_tools(conf),
	"deny_lists": deny_lists(conf),
	"plans": {id: object.get(plan, "tools", null) | some id, plan in validate.object_at(conf, "tenants")},
}

_keys(conf, table) := sort([k | some k, _ in validate.object_at(conf, table)])

# METADATA
# description: |
#   Every tool that launches a sub-agent under conf (its preset applied),
#   canonical and sorted: the runtime's spawn tool as the policy reads it
#   (tooleval.stages.agent_tool); and, when conf selects no preset, the
#   runtime is not known, so the spawn tool of every preset's runtime
#   (config.presets.P.agent_filters.agent_tool) too. The other names the
#   runtime gives a spawn tool (a preset's aliases: Claude Code's Task)
#   are the same tool in every list, the probe of these included.
spawn_tools(conf) := sort({c |
	some t in array.concat([stages.agent_tool(conf)], _other_runtimes_spawn_tools(conf))
	c := canonical_or_null(t)
	is_string(c)
})

_other_runtimes_spawn_tools(conf) := [] if {
	_preset(conf) != {}
} else := [t |
	some preset in validate.object_at(conf, "presets")
	t := _preset_agent_tool(preset)
]

_preset_agent_tool(preset) := preset.agent_filters.agent_tool if is_string(preset.agent_filters.agent_tool)

# METADATA
# description: |
#   What verify cannot read exactly in the configuration raw (as written,
#   before its preset is applied): an agent_filters.agent_tool that
#   differs (in canonical form) from the spawn tool of the preset it
#   selects. The preset's replaces it, so the configuration says its
#   runtime spawns with a tool the policy does not read as the spawn
#   tool: a configuration written for another runtime, or a mistake.
#   Each error is located at config.agent_filters.agent_tool
#   (spawn_tool_mismatch).
spawn_tool_errors(raw) := [shape.problem(
	"spawn_tool_mismatch",
	concat("", [
		sprintf("config.agent_filters.agent_tool is %q, but preset %s's runtime launches sub-agents ", [own, raw.preset]),
		sprintf("with %q, which the preset sets in its place: verify would check %q and not %q. ", [runtime, runtime, own]),
		sprintf("Remove config.agent_filters.agent_tool, or select the preset of the runtime that spawns with %q", [own]),
	]),
	{"field": "config.agent_filters.agent_tool", "preset": raw.preset, "runtime_spawn_tool": runtime},
) |
	preset := _preset(raw)
	own := validate.object_at(raw, "agent_filters").agent_tool
	is_string(own)
	runtime := _preset_agent_tool(preset)
	canonical_or_null(own) != canonical_or_null(runtime)
]

# METADATA
# description: |
#   Which agent modes change a decision under conf, each read by one part
#   of the policy; a mode nothing reads is not enumerated (it would only
#   repeat subjects):
#
#     async        the async_agents stage, which applies only when
#                  agent_filters.async_allowed is not null
#     teammate     the teammate_no_spawn exclusion (when it lists
#                  anything) and the async_agents stage
#     coordinator  the coordinator_mode stage, which applies only when
#                  agent_filters.coordinator_allowed is not null
#     read_only    the read_only stage, always (no allow list allows nothing)
#     leaf         the subagent_depth_cap exclusion, at depths below the
#                  cap only (at the cap it applies anyway)
modes(conf) := {
	"async": _async_read(conf),
	"teammate": _teammate_read(conf),
	"coordinator": validate.object_at(conf, "agent_filters").coordinator_allowed != null,
	"read_only": true,
	"leaf": true,
}

default _async_read(_) := false

_async_read(conf) if validate.object_at(conf, "agent_filters").async_allowed != null

default _teammate_read(_) := false

_teammate_read(conf) if count(promised_exclusion(conf, "teammate_no_spawn")) > 0

_teammate_read(conf) if _async_read(conf)

# METADATA
# description: |
#   A runtime exclusion as the shipped floor and the configuration
#   promise it: the floor's whole list, the configuration's additions and
#   the preset's. Floor exceptions are not taken off: an exception is a
#   promise broken on purpose, and floor.holds reports it.
promised_exclusion(conf, name) := array.flatten([
	validate.array_at(validate.object_at(data.tooleval.floor, "exclusions"), name),
	validate.array_at(validate.object_at(conf, "exclusions"), name),
	validate.array_at(validate.object_at(_preset(conf), "exclusions"), name),
])

_preset(conf) := conf.presets[conf.preset] if is_object(conf.presets[conf.preset])

else := {}

# METADATA
# description: |
#   The configured deny lists by name, each as {field, list, applies}:
#   applies is "all" (config.tools.deny), "subagent" (config.subagents.deny,
#   agent_filters.all_agents_disallowed), "custom" (a sub-agent whose
#   definition is not builtin: agent_filters.custom_agents_disallowed) or
#   {"agent": NAME} (config.agents.NAME.disallowed_tools). Argument rules
#   (objects) are left out: they refuse calls, not tools.
deny_lists(conf) := [{"field": field, "list": [e | some e in list; is_string(e)], "applies": applies} |
	some [field, list, applies] in _deny_lists(conf)
	is_array(list)
]

_deny_lists(conf) := array.concat(
	[
		["config.tools.deny", validate.object_at(conf, "tools").deny, "all"],
		["config.subagents.deny", validate.object_at(conf, "subagents").deny, "subagent"],
		[
			"config.agent_filters.all_agents_disallowed",
			validate.object_at(conf, "agent_filters").all_agents_disallowed, "subagent",
		],
		[
			"config.agent_filters.custom_agents_disallowed",
			validate.object_at(conf, "agent_filters").custom_agents_disallowed, "custom",
		],
	],
	[[sprintf("config.agents.%s.disallowed_tools", [name]), d.disallowed_tools, {"agent": name}] |
		some name, d in validate.object_at(conf, "agents")
	],
)

# METADATA
# description: |
#   One declaration per tool name the preset and the configuration know
#   (tooleval.warnings.known_names: the floor's, the preset's, every
#   listed name, both sides of each alias; and every entry of a deny
#   list and an exclusion), sorted by name. A wildcard
#   entry gets a witness, a name it matches (mcp__S__* gets
#   mcp__S__verify_probe, conversations_* gets conversations_verify_probe);
#   an MCP name is declared with its server and tool. Group references,
#   names with white space and names without a canonical form are not
#   tool names.
tools(conf) := [d |
	some n in sort({_tool_name(k) | some k in _names(conf)} - {null})
	d := _declaration(n)
]

# Every name known, and every entry of a deny list and an exclusion
# (which known_names leaves out), canonical.
_names(conf) := ({k | some k, _ in warnings.known_names(conf)} | {t | some t in spawn_tools(conf)}) | {c |
	some list in array.concat(
		[l.list | some l in deny_lists(conf)],
		[promised_exclusion(conf, name) | some name in configuration.exclusion_names],
	)
	some e in list
	c := canonical_or_null(e)
	is_string(c)
}

_tool_name(k) := null if {
	startswith(k, "group:")
} else := null if {
	regex.match(`\s`, k)
} else := null if {
	k == ""
} else := null if {
	canonical_or_null(k) != k
} else := concat("", [trim_suffix(k, "*"), "verify_probe"]) if {
	endswith(k, "*")
	not contains(trim_suffix(k, "*"), "*")
} else := null if {
	contains(k, "*")
} else := k

# A name that starts with mcp__ but names no server and tool (mcp__S,
# mcp__verify_probe) is not declared: a built-in cannot take it.
_declaration(n) := {"name": n, "mcp": {"server": parts[1], "tool": parts[2]}} if {
	parts := regex.find_all_string_submatch_n(`^mcp__(.+?)__(.+)$`, n, 1)[0]
}

_declaration(n) := {"name": n} if not startswith(n, "mcp__")
