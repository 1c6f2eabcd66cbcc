# METADATA
# title: Configuration warnings
# description: |
#   What tooleval check reports besides errors: configuration that is
#   valid but can never do what it says. A warning never changes a
#   decision.
#
#   | code                  | what                                                        |
#   | duplicate_entry       | a list has two entries with one canonical form              |
#   | shadowed_entry        | an allow entry that the same stage's deny list refuses      |
#   | unreachable_entry     | an allow entry an earlier stage, or a deny rule of the      |
#   |                       | whole tool, always removes                                  |
#   | ineffective_entry     | an MCP entry in an agent filter that MCP tools pass         |
#   | unmatched_agent_tool  | an agent definition's tool that names no declared tool      |
#   | confusable_names      | two declared names that look alike (Unicode TS #39 skeleton) |
#   | floor_exception       | the configuration drops an entry of the shipped floor       |
#   | bare_mcp_server_in_allow | an allow list names a bare mcp__S, which matches nothing |
#   | unmatched_entry       | with a request: an entry it reads matches no declared tool  |
#   | unknown_mcp_server    | an MCP entry names a server nothing else knows              |
#   | unknown_deny_entry    | a deny or exclusion entry names no tool anything knows      |
#   | unknown_allow_entry   | an allow entry names a built-in tool nothing else knows     |
#   | preset_group_union    | a group a deny list names is defined by both config and preset |
package tooleval.warnings

import data.tooleval.arguments
import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration
import data.tooleval.configuration.validate
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.subject

# METADATA
# description: Every warning for the configuration in force and the request (a decision input, possibly empty).
warnings(conf, doc, index) := array.flatten([
	_duplicate_warnings(conf),
	_shadowed_warnings(conf),
	_unreachable_warnings(conf),
	_ineffective_warnings(conf),
	_unmatched_agent_tool_warnings(doc, conf, index),
	_confusable_warnings(doc),
	_floor_exception_warnings(conf),
	_bare_server_warnings(conf, doc),
	_unmatched_entry_warnings(doc, conf, index),
	_unknown_server_warnings(conf, index),
	_unknown_deny_warnings(conf, doc, index),
	_unknown_allow_warnings(conf, index),
	_group_union_warnings(conf, doc),
])

# METADATA
# description: |
#   Every list of entries in the configuration, as {field, kind, list},
#   where field is its location and kind the grammar it is read with (an
#   ask list is read as a deny list). An argument rule of a list is an
#   object: the warnings about names read its tool (see _entry_name).
_lists(conf) := array.flatten([
	[{"field": sprintf("config.groups.%s", [name]), "kind": "deny", "list": list} |
		some name, list in validate.object_at(conf, "groups")
	],
	[{"field": sprintf("config.exclusions.%s", [name]), "kind": "deny", "list": list} |
		some name, list in validate.object_at(conf, "exclusions")
	],
	[{"field": sprintf("config.profiles.%s", [name]), "kind": "allow", "list": list} |
		some name, list in validate.object_at(conf, "profiles")
	],
	[{"field": sprintf("config.tenants.%s.tools", [id]), "kind": "allow", "list": plan.tools} |
		some id, plan in validate.object_at(conf, "tenants")
	],
	[{"field": sprintf("config.scopes.%s", [scope]), "kind": "allow", "list": list} |
		some scope, list in validate.object_at(conf, "scopes")
	],
	[{"field": sprintf("config.agents.%s.%s", [name, key]), "kind": kind, "list": d[key]} |
		some name, d in validate.object_at(conf, "agents")
		some [key, kind] in [["tools", "allow"], ["disallowed_tools", "deny"], ["also_allow", "allow"]]
	],
	[{"field": sprintf("config.%s.%s", [section, key]), "kind": kind, "list": validate.object_at(conf, section)[key]} |
		some [section, key, kind] in _section_lists
	],
])

_section_lists := [
	["tools", "also_allow", "allow"],
	["tools", "allow", "allow"],
	["tools", "deny", "deny"],
	["tools", "ask", "deny"],
	["subagents", "allow", "allow"],
	["subagents", "deny", "deny"],
	["subagents", "ask", "deny"],
	["agent_filters", "all_agents_disallowed", "deny"],
	["agent_filters", "custom_agents_disallowed", "deny"],
	["agent_filters", "async_allowed", "allow"],
	["agent_filters", "in_process_teammate_allowed", "allow"],
	["agent_filters", "coordinator_allowed", "allow"],
	["read_only", "allow", "allow"],
	["continuation", "restricted", "allow"],
]

_warning(code, message, where) := shape.problem(code, message, where)

_duplicate_warnings(conf) := [_warning(
	"duplicate_entry",
	sprintf("%s lists %q more than once (canonically)", [l.field, entries[0]]),
	{"field": l.field, "entries": entries},
) |
	some l in _lists(conf)
	is_array(l.list)
	some c, entries in _entries_by_canonical(l.list)
	count(entries) > 1
]

_entries_by_canonical(list) := {c: [e | some e in list; canonical_or_null(e) == c] |
	some entry in list
	c := canonical_or_null(entry)
	c != null
}

# [location of the allow list, location of the deny list, allow, deny]
_stage_pairs(conf) := array.concat(
	[_section_pair(conf, "tools"), _section_pair(conf, "subagents")],
	[_pair(sprintf("config.agents.%s", [name]), d, "tools", "disallowed_tools") |
		some name, d in validate.object_at(conf, "agents")
	],
)

_section_pair(conf, section) := _pair(sprintf("config.%s", [section]), validate.object_at(conf, section), "allow", "deny")

_pair(location, obj, allow, deny) := [
	sprintf("%s.%s", [location, allow]), sprintf("%s.%s", [location, deny]),
	validate.array_at(obj, allow), validate.array_at(obj, deny),
]

_shadowed_warnings(conf) := [_warning(
	"shadowed_entry",
	sprintf("%s lists %q, which %s refuses: deny wins, so the entry can never match", [allow_at, entry, deny_at]),
	{"field": allow_at, "index": i, "entry": entry, "denied_by": deny_at},
) |
	some [allow_at, deny_at, allow, deny] in _stage_pairs(conf)
	matcher := pattern.compile(arguments.names(deny), "deny", configuration.vocabulary(conf))
	some i, entry in arguments.names_and_rule_tools(allow)
	_exact_match(matcher, entry)
]

# An exact, non-MCP entry that a compiled deny matcher refuses.
_exact_match(matcher, entry) if {
	pattern.exact(entry)
	c := canonical_or_null(entry)
	not startswith(c, "mcp__")
	_deny_hit(matcher, c)
}

_deny_hit(matcher, c) if pattern.exact_hit(matcher, c)

_deny_hit(matcher, c) if pattern.has_prefix(matcher.prefixes, c)

_unreachable_warnings(conf) := array.flatten([
	_whole_denied_warnings(conf),
	[_warning(
		"unreachable_entry",
		sprintf("config.subagents.allow lists %q, which runtime exclusion subagent_hard_deny removes from every sub-agent", [entry]),
		{"field": "config.subagents.allow", "index": i, "entry": entry, "removed_by": "subagent_hard_deny"},
	) |
		some i, entry in arguments.names_and_rule_tools(validate.array_at(validate.object_at(conf, "subagents"), "allow"))
		_exact_match(pattern.compile(configuration.exclusion_entries(conf, "subagent_hard_deny"), "deny", configuration.vocabulary(conf)), entry)
	],
	[_warning(
		"unreachable_entry",
		sprintf(
			"config.subagents.allow lists %q, which profile %q does not: the sub-agent stage cannot add back a tool the profile removed (%s)",
			[entry, name, "add it to config.tools.also_allow"],
		),
		{"field": "config.subagents.allow", "index": i, "entry": entry, "removed_by": sprintf("config.profiles.%s", [name])},
	) |
		name := validate.object_at(conf, "tools").profile
		is_array(validate.object_at(conf, "profiles")[name])
		profile := array.concat(validate.object_at(conf, "profiles")[name], validate.array_at(validate.object_at(conf, "tools"), "also_allow"))
		matcher := pattern.compile(profile, "allow", configuration.vocabulary(conf))
		some i, entry in arguments.names_and_rule_tools(validate.array_at(validate.object_at(conf, "subagents"), "allow"))
		pattern.exact(entry)
		not pattern.exact_hit(matcher, canonical_or_null(entry))
	],
])

# An allow entry (a name or an argument rule) of a stage whose deny list
# has a rule of the whole tool without exceptions (args_pattern "", no
# unless: it bites every call of its tool, as an import writes a rule
# it cannot carry exactly): no call of the tool can be allowed there.
_whole_denied_warnings(conf) := [_warning(
	"unreachable_entry",
	sprintf(
		"%s lists %q, but %s[%d] denies every call of %q (a rule of the whole tool): the entry can never allow a call",
		[allow_at, entry, deny_at, j, rule.tool],
	),
	{"field": allow_at, "index": i, "entry": entry, "denied_by": sprintf("%s[%d]", [deny_at, j])},
) |
	some [allow_at, deny_at, allow, deny] in _stage_pairs(conf)
	some j, rule in deny
	is_object(rule)
	arguments.whole_tool(rule)
	not "unless" in object.keys(rule)
	matcher := pattern.compile([rule.tool], "deny", configuration.vocabulary(conf))
	some i, entry in arguments.names_and_rule_tools(allow)
	_exact_match(matcher, entry)
]

_unmatched_agent_tool_warnings(doc, conf, index) := [_warning(
	"unmatched_agent_tool",
	sprintf("agent %q lists tool %q, which names no declared tool: it is ignored, never widened", [resolution.agent, entry]),
	{"field": sprintf("config.agents.%s.tools", [resolution.agent]), "entry": entry},
) |
	resolution := stages.agent_tools(subject.of(doc, conf), index)
	resolution != null
	some entry in resolution.invalid
]

# MCP tools pass the first three agent filters untouched
# (docs/configuration.md, "Runtime filters"), so
# an MCP entry there does nothing.
_ineffective_warnings(conf) := [_warning(
	"ineffective_entry",
	sprintf("config.agent_filters.%s lists %q, but MCP tools pass this filter: use an agent definition or a layer", [list, entry]),
	{"field": sprintf("config.agent_filters.%s", [list]), "index": i, "entry": entry},
) |
	some list in ["all_agents_disallowed", "custom_agents_disallowed", "async_allowed"]
	some i, entry in validate.array_at(validate.object_at(conf, "agent_filters"), list)
	startswith(canonical_or_null(entry), "mcp__")
]

# Dropping an entry of the shipped floor is allowed only by name, and is
# reported every time.
_floor_exception_warnings(conf) := [_warning(
	"floor_exception",
	sprintf("config.floor_exceptions.%s drops %q from the shipped floor: %s", [list, entry, _floor_exception_effect[list]]),
	{"field": sprintf("config.floor_exceptions.%s", [list]), "index": i, "entry": entry},
) |
	some list in sort(configuration.floor_lists)
	some i, entry in validate.array_at(validate.object_at(conf, "floor_exceptions"), list)
	configuration.floor_entry(list, entry)
]

_floor_exception_effect := {
	"subagent_hard_deny": "sub-agents and forks may call it",
	"subagent_depth_cap": "sub-agents at the depth cap may call it",
	"fork_no_spawn": "forks may call it",
	"teammate_no_spawn": "teammates may call it",
	"sensitive_paths": "written paths under it are no longer refused as sensitive",
}

# The name an entry of a list gives: the entry, or an argument rule's
# tool.
_entry_name(entry) := entry.tool if is_object(entry)

else := entry
