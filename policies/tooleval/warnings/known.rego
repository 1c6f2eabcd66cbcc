# Warnings about deny lists and exclusions that protect less than they
# seem to: a deny entry that names no tool anything knows (a misspelt
# name, or a spelling of the runtime's that the preset does not map),
# and a group a deny list names that the configuration and its preset
# define differently (deny lists then read the union of the two).
package tooleval.warnings

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration
import data.tooleval.configuration.lists
import data.tooleval.configuration.validate
import data.tooleval.pattern

# METADATA
# description: |
#   Every entry of a deny list or an exclusion of the configuration (and,
#   with a request, of its inline layers) that names no tool the preset,
#   the configuration or the request's declared tools know: an exact
#   built-in name none of them has (its aliases resolved), or a P*
#   prefix none of their names starts with. MCP entries have their own
#   warnings (unknown_mcp_server, unmatched_entry); groups are checked
#   when they are defined; the floor's entries are tooleval's own.
_unknown_deny_warnings(conf, doc, index) := [_warning(
	"unknown_deny_entry",
	sprintf(
		"%s lists %q, which names no tool the preset, the configuration or the declared tools know: %s",
		[l.field, entry, "it protects nothing (a misspelt name, or a spelling the preset does not map?)"],
	),
	{"field": l.field, "index": i, "entry": entry},
) |
	aliases := configuration.vocabulary(conf).aliases
	known := _known_names(conf, index, aliases)
	families := _known_families(conf)
	groups := lists.groups(conf)
	some l in _checked_deny_lists(conf, doc)
	is_array(l.list)
	some i, item in l.list
	entry := _entry_name(item)
	c := canonical_or_null(entry)
	is_string(c)
	not startswith(c, "mcp__")
	not startswith(c, "group:")
	not pattern.entry_problem(entry, "deny", groups)
	not _known_entry(c, known, aliases, families)
]

# An exact name is known when a known name is it (its aliases resolved)
# or a declared family holds it; a P* prefix when a known name starts
# with P (a family P'* declared with a longer P' among them) or a
# declared family holds every name it covers.
_known_entry(c, known, aliases, _) if {
	not endswith(c, "*")
	known[object.get(aliases, c, c)]
}

_known_entry(c, _, _, families) if {
	not endswith(c, "*")
	some family in families
	startswith(c, family)
}

_known_entry(c, known, _, _) if {
	endswith(c, "*")
	prefix := trim_suffix(c, "*")
	some name, _ in known
	startswith(name, prefix)
}

_known_entry(c, _, _, families) if {
	endswith(c, "*")
	some family in families
	startswith(trim_suffix(c, "*"), family)
}

# METADATA
# description: |
#   The prefixes P of the families of built-in tools config.builtin_tools
#   declares as P* (Gemini CLI's discovered_tool_*: the runtime names
#   each tool it discovers by command with that prefix), canonical. Only
#   the configuration declares a family: a P* entry of a deny list, a
#   group or a preset is no declaration, so a misspelt P* stays unknown.
_known_families(conf) := {trim_suffix(c, "*") |
	some entry in validate.array_at(conf, "builtin_tools")
	c := canonical_or_null(entry)
	is_string(c)
	endswith(c, "*")
}

# METADATA
# description: |
#   Every entry of an allow list of the configuration that names a
#   built-in tool nothing but allow lists knows: not the preset, not the
#   floor, not the configuration's lists that define tools rather than
#   grant them (groups; profiles, runtime filters and the read-only mode,
#   which list a whole runtime's tools: not checked here) or its other
#   names of tools (path arguments, scopes, the shell tools, the agent
#   tool, config.builtin_tools and its families), not the request's
#   declared tools. An allow list does not make its own names known, or
#   every misspelt allow (Raed) would know itself; nor does a deny list,
#   which names what a runtime might have. MCP entries have their own
#   warnings, group references are checked where groups are defined, an
#   argument rule is read by its tool, and the request's inline layers by
#   unmatched_entry.
_unknown_allow_warnings(conf, index) := [_warning(
	"unknown_allow_entry",
	sprintf(
		"%s lists %q, which names no tool the preset, the floor, the declared tools or %s know: %s",
		[
			l.field, entry,
			"the configuration's own lists of tools (groups, profiles, runtime filters, config.builtin_tools)",
			"a misspelt name? a tool of your own: list it in config.builtin_tools",
		],
	),
	{"field": l.field, "index": i, "entry": entry},
) |
	aliases := configuration.vocabulary(conf).aliases
	known := _allow_known_names(conf, index, aliases)
	families := _known_families(conf)
	groups := lists.groups(conf)
	some l in _lists(conf)
	l.kind == "allow"
	not _defines_tools(l)
	is_array(l.list)
	some i, item in l.list
	entry := _entry_name(item)
	c := canonical_or_null(entry)
	is_string(c)
	not startswith(c, "mcp__")
	not startswith(c, "group:")
	not pattern.entry_problem(entry, "allow", groups)
	not _known_entry(c, known, aliases, families)
]

# The canonical names an allow entry may name (see
# _unknown_allow_warnings), each with the name its aliases resolve to.
_allow_known_names(conf, index, aliases) := _known_set(
	array.flatten([
		_preset_names(conf), _floor_names, [n | some n, _ in index], _config_tool_names(conf),
		[_entry_name(e) | some l in _lists(conf); _defines_tools(l); is_array(l.list); some e in l.list],
	]),
	aliases,
)

# A list that defines tools rather than grants them: a group (which
# other lists name), and the lists that list a whole runtime's tools (a
# profile, a runtime filter's allow list, the read-only mode's).
_defines_tools(l) if startswith(l.field, "config.groups.")

_defines_tools(l) if {
	l.kind == "allow"
	some prefix in ["config.profiles.", "config.agent_filters.", "config.read_only."]
	startswith(l.field, prefix)
}

# The deny lists the configuration writes (not its groups, which allow
# lists read too), and those of the request's inline layers.
_checked_deny_lists(conf, doc) := array.concat(
	[l | some l in _lists(conf); l.kind == "deny"; not startswith(l.field, "config.groups.")],
	[l | some l in _inline_lists(doc); l.kind == "deny"],
)

# METADATA
# description: |
#   The canonical names the preset and the configuration know, their
#   aliases resolved (what _known_names gives without a request): the
#   tool names tooleval verify enumerates (tooleval.verify).
known_names(conf) := _known_names(conf, {}, configuration.vocabulary(conf).aliases)

# METADATA
# description: |
#   The canonical names the preset, the configuration and the request
#   know, each with the name its aliases resolve to: every name the
#   shipped floor excludes, every name the preset mentions (but its
#   source), every name the configuration
#   lists outside its deny lists (groups, profiles, allow lists, path
#   arguments, scopes, the shell tools, the agent tool, and
#   config.builtin_tools, where a deployment names its runtime's tools),
#   and the declared tools.
_known_names(conf, index, aliases) := _known_set(
	array.flatten([_preset_names(conf), _config_names(conf), _floor_names, [n | some n, _ in index]]),
	aliases,
)

# The canonical forms of names, each with the name its aliases resolve to.
_known_set(names, aliases) := {k: true |
	some n in names
	c := canonical_or_null(n)
	is_string(c)
	some k in [c, object.get(aliases, c, c)]
}

# The names the shipped floor's exclusions list (tooleval's own).
_floor_names := [e |
	some list in data.tooleval.floor.exclusions
	is_array(list)
	some e in list
]

_preset_names(conf) := _names_in_preset(object.remove(conf.presets[conf.preset], ["source"])) if {
	is_object(conf.presets[conf.preset])
} else := []

_names_in_preset(p) := array.concat(
	[v | walk(p, [_, v]); is_string(v)],
	[k | some member in ["aliases", "deny_families", "path_arguments"]; some k, _ in validate.object_at(p, member)],
)

_config_names(conf) := array.concat(
	[_entry_name(e) | some l in _lists(conf); _naming_list(l); is_array(l.list); some e in l.list],
	_config_tool_names(conf),
)

# The names the configuration gives tools outside its lists: its path
# arguments, scopes, shell tools, agent tool and builtin_tools.
_config_tool_names(conf) := array.flatten([
	[k | some k, _ in validate.object_at(conf, "path_arguments")],
	[k | some k, _ in validate.object_at(conf, "scopes")],
	validate.array_at(validate.object_at(conf, "shell"), "tools"),
	validate.array_at(conf, "builtin_tools"),
	[t | t := validate.object_at(conf, "agent_filters").agent_tool; is_string(t)],
])

# A list that names tools without refusing them: an allow list, or a
# group.
_naming_list(l) if l.kind == "allow"

_naming_list(l) if startswith(l.field, "config.groups.")

# METADATA
# description: |
#   A group that the configuration and its preset both define, with
#   different members, and that a deny list or an exclusion names: deny
#   lists and exclusions read the union of the two, allow lists the
#   preset's (see tooleval.configuration.deny_groups).
_group_union_warnings(conf, doc) := [_warning(
	"preset_group_union",
	sprintf(
		"group:%s is %v in config.groups and %v in config.presets.%s.groups; %v name it: deny lists and exclusions read both (the union), allow lists the preset's",
		[name, own[name], members, conf.preset, uses],
	),
	{"field": sprintf("config.groups.%s", [name]), "preset_field": sprintf("config.presets.%s.groups.%s", [conf.preset, name]), "used_by": uses},
) |
	own := lists.own_groups(conf)
	some name, members in lists.preset_groups(conf)
	is_array(own[name])
	is_array(members)
	_canonical_set(own[name]) != _canonical_set(members)
	uses := [l.field | some l in _group_using_lists(conf, doc); _names_group(l.list, name)]
	count(uses) > 0
]

_canonical_set(list) := {canonical_or_null(e) | some e in list}

_names_group(list, name) if {
	is_array(list)
	some e in list
	is_string(e)
	pattern.group_name(e) == name
}

# The deny lists and exclusions that can name a group: the
# configuration's, its preset's exclusions, the request's inline layers.
_group_using_lists(conf, doc) := array.concat(
	_checked_deny_lists(conf, doc),
	[{"field": sprintf("config.presets.%s.exclusions.%s", [conf.preset, name]), "kind": "deny", "list": list} |
		some name, list in validate.object_at(conf.presets[conf.preset], "exclusions")
	],
)
