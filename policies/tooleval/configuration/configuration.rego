# METADATA
# title: Configuration
# description: |
#   The configuration in force and how it is put together. Three sources,
#   from the bottom up:
#
#   | source                  | what                                                  |
#   | data.tooleval.floor     | the shipped runtime exclusions and sensitive paths    |
#   | data.tooleval.config    | the shipped configuration with a deployment's overlay |
#   |                         | merged in (overlay)                                   |
#   | config.presets[preset]  | the runtime preset config.preset selects              |
#
#   The floor can only be added to: the exclusion lists and sensitive
#   paths in force are the floor's, the configuration's and the preset's
#   together, and a preset never takes an entry out of a deny list or an
#   exclusion (deny_groups, _joined_filters). Dropping a floor entry
#   takes a named exception in config.floor_exceptions, which tooleval
#   check always reports.
#
#   This package puts the configuration together, prepares it
#   (prepared.rego) and reports the errors of the parts every request
#   reads (errors.rego). What every part of the policy reads a
#   configuration with is in packages of their own:
#
#   | package                           | what                                          |
#   | tooleval.configuration.validate   | validators of configured objects and members  |
#   | tooleval.configuration.lists      | configured lists of tool entries, and the groups they read |
#   | tooleval.configuration.tables     | name-keyed tables (agents, tenants, scopes, profiles) |
#   | tooleval.configuration.sections   | the sections a stage validates on every request |
#   | tooleval.configuration.suggest    | what an error about an unknown name suggests  |
package tooleval.configuration

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration.lists
import data.tooleval.configuration.validate
import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# description: |
#   A deployment's configuration overlay (an object of config members)
#   merged over a configuration: members that are objects on both sides
#   merge key by key, recursively; anything else (a list, a string, a
#   number, null) replaces the value underneath. The engine and the
#   command line apply an overlay with this function when they load a
#   bundle, and tests build configurations with it, so there is one merge.
overlay(base, members) := object.union(base, members) if {
	is_object(base)
	is_object(members)
} else := base

# METADATA
# scope: document
# description: |
#   The configuration in force: data.tooleval.config with the members of
#   the preset it selects (config.preset) merged over it, or an empty
#   configuration (which is reported as errors) when it is missing.
config := object.union(prepared.config, object.filter(raw, table_members))

# METADATA
# scope: document
# description: data.tooleval.config as the bundle holds it (an overlay merged in), or {} when it is not an object (an error).
default raw := {}

raw := data.tooleval.config if is_object(data.tooleval.config)

# METADATA
# description: |
#   A configuration with its preset applied: the members a preset
#   replaces are merged over the configuration key by key (a preset's
#   group, profile or list replaces the configuration's of the same name);
#   the members a preset adds to (see additive_members) are read by
#   exclusion_entries, sensitive_paths and path_arguments.
with_preset(conf) := object.union_n([conf, object.filter(_preset(conf), _replaced_members), _joined_filters(conf)])

# METADATA
# description: |
#   The agent filters that can only narrow (deny lists): where the
#   configuration and its preset both have one, the two joined (the
#   configuration's entries, then the preset's it lacks), so that a
#   preset never takes an entry out of what is in force.
_joined_filters(conf) := {"agent_filters": filters} if {
	filters := _joined_filter_lists(validate.object_at(conf, "agent_filters"), validate.object_at(_preset(conf), "agent_filters"))
	count(filters) > 0
} else := {}

_joined_filter_lists(own, preset) := {name: _joined_list(own[name], preset[name]) |
	some name in _narrowing_filters
	is_array(own[name])
	is_array(preset[name])
}

# The agent filters that are deny lists.
_narrowing_filters := {"all_agents_disallowed", "custom_agents_disallowed"}

# The entries of a, then those of b that a lacks.
_joined_list(a, b) := array.concat(a, [e | some e in b; not e in a])

# METADATA
# description: The preset a configuration selects, or {} when it selects none (or an unknown one, an error).
_preset(conf) := conf.presets[conf.preset] if {
	is_object(conf.presets[conf.preset])
} else := {}

# METADATA
# description: |
#   The tool-name aliases of the configuration's preset, canonical alias
#   to canonical tool: an alias and its tool are one name in every list
#   the policy reads (allow, deny, groups, exclusions) and in the path
#   arguments. Only built-in names have aliases; an invalid pair (see
#   alias_problems) is an error (see errors) and left out, so that no two
#   pairs give one alias two tools and no name is both an alias and a
#   tool: the table is a function whatever the preset says.
_aliases(conf) := {c: t |
	table := validate.object_at(_preset(conf), "aliases")
	problems := alias_problems(table)
	some alias, tool in table
	not problems[alias]
	c := canonical_or_null(alias)
	t := canonical_or_null(tool)
}

# METADATA
# description: |
#   What is wrong with each pair alias: tool of a preset's alias table
#   that is not a valid pair, by alias: ["invalid_alias", message] when
#   the alias or the tool has no canonical form, they are one name, one
#   of them is not a built-in tool name, or the tool is itself an alias
#   (a chain); ["colliding_names", message] when another alias has the
#   alias's canonical form and another tool (Bash: read_file beside
#   bash: exec), which would give one name two tools. Two spellings of
#   one alias for one tool (Task and task, both agent) are one pair. Each
#   name is put in canonical form once (the table has a hundred pairs).
alias_problems(table) := {alias: problem |
	forms := {alias: [canonical_or_null(alias), canonical_or_null(tool)] | some alias, tool in table}
	aliases := {form[0] | some form in forms}
	pairs := {form | some form in forms}
	some alias, form in forms
	problem := _alias_problem(form, aliases, pairs)
}

# The problem of one pair form [alias, tool] (canonical forms), among
# the table's canonical aliases and distinct pairs.
_alias_problem([alias, tool], aliases, pairs) := ["invalid_alias", _invalid_alias_message] if {
	not _valid_alias(alias, tool)
} else := ["invalid_alias", _invalid_alias_message] if {
	aliases[tool]
} else := ["colliding_names", _colliding_alias_message] if {
	count(pairs) != count(aliases) # else every alias has one tool
	some [other, other_tool] in pairs
	other == alias
	other_tool != tool
}

_colliding_alias_message := concat(" ", [
	"another alias of this preset is the same name in canonical form for another tool:",
	"which tool it names would depend on spelling",
])

_invalid_alias_message := concat(" ", [
	"an alias and its tool are two different built-in tool names (no wildcard, group or MCP name)",
	"with a canonical form, and the tool is not itself an alias",
])

# A canonical alias and tool pair: two different built-in tool names
# (no wildcard, group or MCP name).
_valid_alias(c, t) if {
	every name in [c, t] {
		is_string(name)
		name != ""
		not contains(name, "*")
		not startswith(name, "mcp__")
		not startswith(name, "group:")
	}
	c != t
}

# METADATA
# description: "For each tool that has aliases, its canonical names: the tool's own and its aliases'."
_classes(conf) := {t: _class_of(t, table) |
	table := _aliases(conf)
	some t in {target | some target in table}
}

_class_of(t, table) := object.union({t: true}, {a: true | some a, target in table; target == t})

# METADATA
# description: |
#   What compiling the configuration's lists needs (see
#   tooleval.pattern.vocabulary): the groups an allow list reads and the
#   groups a deny list reads (see groups and deny_groups), the aliases,
#   and the preset's deny families (see deny_families).
vocabulary(conf) := pattern.full_vocabulary(lists.groups(conf), deny_groups(conf), _aliases(conf), deny_families(conf))

# METADATA
# description: |
#   The deny families of the configuration's preset, canonical tool (its
#   aliases resolved) to the entries a deny entry naming that tool also
#   denies (Qwen Code's Read rule covering glob, OpenClaw's canvas plugin
#   covering show_widget). Deny lists only: in an allow list a family
#   would widen. Invalid families are errors (see errors) and left out.
deny_families(conf) := {key: members |
	some tool, members in validate.object_at(_preset(conf), "deny_families")
	c := canonical_or_null(tool)
	_valid_family(c, members)
	key := object.get(_aliases(conf), c, c)
}

# A family: a built-in tool name to a list of valid deny entries that
# are not groups.
_valid_family(c, members) if {
	is_string(c)
	c != ""
	not contains(c, "*")
	not startswith(c, "mcp__")
	not startswith(c, "group:")
	is_array(members)
	count(members) <= shape.max_entries
	every m in members {
		is_string(m)
		not pattern.entry_problem(m, "deny", {})
		not pattern.group_name(m)
	}
}

# METADATA
# description: Every canonical name of the tool named c under the configuration's aliases, c included.
alias_names(conf, c) := names if {
	names := _classes(conf)[object.get(_aliases(conf), c, c)]
} else := {c: true}

# METADATA
# description: |
#   Every name that has other names, to {key, names}: key is the name its
#   aliases resolve to, names all of its canonical names (see
#   alias_names). Declared records carry these (tooleval.declared.index).
alias_names_table(conf) := {name: {"key": target, "names": names} |
	some target, names in _classes(conf)
	some name, _ in names
}

# METADATA
# description: |
#   The members a preset sets over the configuration's (but see
#   _joined_filters: an agent filter that is a deny list is joined, not
#   replaced). Groups are not merged into the configuration: see groups
#   and deny_groups.
_replaced_members := {"profiles", "agent_filters", "read_only", "shell"}

# METADATA
# description: The members a preset adds to the floor and the configuration's, never replacing them.
_additive_members := {"exclusions", "sensitive_paths", "path_arguments", "rule_arguments"}

# METADATA
# description: |
#   Everything a preset may hold: the members it replaces or adds to,
#   its aliases, a max_depth (which can only lower the configuration's)
#   and source (which runtime release it follows, and where to look).
_preset_members := (_replaced_members | _additive_members) | {"groups", "aliases", "deny_families", "max_depth", "source"}

# METADATA
# scope: document
# description: The shipped floor (data.tooleval.floor), or {} when the bundle lacks it (an error).
default _shipped_floor := {}

_shipped_floor := data.tooleval.floor if is_object(data.tooleval.floor)

# METADATA
# description: The runtime exclusions, in the order they are checked.
exclusion_names := ["subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn", "teammate_no_spawn"]

# METADATA
# description: The lists of the floor, each named as config.floor_exceptions names it.
floor_lists := {"subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn", "teammate_no_spawn", "sensitive_paths"}

# METADATA
# description: |
#   The entries of one runtime exclusion in force: the floor's (less the
#   configuration's named exceptions), then the configuration's, then the
#   preset's.
exclusion_entries(conf, name) := array.flatten([
	[e | some e in validate.array_at(object.get(_shipped_floor, "exclusions", {}), name); not _excepted(conf, name, e)],
	validate.array_at(object.get(conf, "exclusions", {}), name),
	validate.array_at(object.get(_preset(conf), "exclusions", {}), name),
])

# METADATA
# description: |
#   Where each entry of exclusion_entries(conf, name) comes from, in the
#   same order: floor.exclusions.NAME[i], config.exclusions.NAME[i] or
#   config.presets.PRESET.exclusions.NAME[i].
exclusion_entry_sources(conf, name) := array.flatten([
	[sprintf("floor.exclusions.%s[%d]", [name, i]) |
		some i, e in validate.array_at(object.get(_shipped_floor, "exclusions", {}), name)
		not _excepted(conf, name, e)
	],
	[sprintf("config.exclusions.%s[%d]", [name, i]) | some i, _ in validate.array_at(object.get(conf, "exclusions", {}), name)],
	[sprintf("config.presets.%s.exclusions.%s[%d]", [conf.preset, name, i]) |
		some i, _ in validate.array_at(object.get(_preset(conf), "exclusions", {}), name)
	],
])

# METADATA
# description: |
#   The sensitive paths in force: the floor's (less the configuration's
#   named exceptions), then the configuration's, then the preset's. Each
#   is a relative path: a written path with those segments in a row is
#   refused (rule sensitive).
sensitive_paths(conf) := array.flatten([
	[p | some p in validate.array_at(_shipped_floor, "sensitive_paths"); not _excepted(conf, "sensitive_paths", p)],
	validate.array_at(conf, "sensitive_paths"),
	validate.array_at(_preset(conf), "sensitive_paths"),
])

# METADATA
# description: |
#   Which arguments of which tools are paths, in force: for each canonical
#   tool name, each argument's accesses ({"read": true}, {"write": true},
#   or both, or {"patch": true}). The
#   configuration's and the preset's are joined; an argument that one
#   calls read and the other write gets both checks.
path_arguments(conf) := {name: _arguments(alias_names(conf, name), sources) |
	sources := [validate.object_at(conf, "path_arguments"), validate.object_at(_preset(conf), "path_arguments")]
	some tool in {t | some source in sources; some t, _ in source}
	some name, _ in alias_names(conf, tool)
}

# The path arguments of a tool known by these names (its alias class),
# from every source.
_arguments(names, sources) := {arg: {access: true |
	some source in sources
	some tool, _ in names
	access := validate.object_at(source, tool)[arg]
	access in _accesses
} |
	some source in sources
	some tool, _ in names
	some arg, _ in validate.object_at(source, tool)
}

# METADATA
# description: |
#   What a path argument is: a path read, a path written, patch text
#   (every file its headers name is written; see tooleval.paths), or a
#   glob pattern of files read (see tooleval.arguments).
_accesses := {"read", "write", "patch", "glob"}

# METADATA
# description: |
#   Which argument of which tool the argument rules read, in force: for
#   each canonical tool name, {command?, argv?, url?, inert}, the name of
#   the argument that holds its shell command (a string a shell reads) or
#   its argument vector (a list of words exec reads; both are read by
#   command rules) and its URL (read by domain rules), and inert the other arguments (as keys)
#   that may come with them without changing what the command runs or
#   which host the URL reaches (a call with any other argument cannot be
#   read exactly: see tooleval.arguments.call_readings). The
#   configuration's and the preset's are joined; a tool they give
#   different arguments for (or a command and an argv) is a configuration
#   error (see errors), and then has neither.
rule_arguments(conf) := {name: object.union(_one_command(readings), {"inert": inert}) |
	sources := [validate.object_at(conf, "rule_arguments"), validate.object_at(_preset(conf), "rule_arguments")]
	some tool in {t | some source in sources; some t, _ in source}
	some name, _ in alias_names(conf, tool)
	readings := {reads: arg |
		some reads in _rule_readings
		args := {a |
			some source in sources
			some t, _ in alias_names(conf, tool)
			a := validate.object_at(source, t)[reads]
			is_string(a)
		}
		count(args) == 1
		some arg in args
	}
	inert := {a: true |
		some source in sources
		some t, _ in alias_names(conf, tool)
		some a in validate.array_at(validate.object_at(source, t), "inert")
		is_string(a)
	}
}

# The readings a tool's rule_arguments entry names arguments for.
_rule_readings := {"command", "argv", "url"}

# A tool's command is read one way: named both as a string and as an
# argument vector (an error), it is read neither way.
_one_command(readings) := object.remove(readings, ["command", "argv"]) if {
	readings.command
	readings.argv
} else := readings

# METADATA
# scope: document
# description: path_arguments of the configuration in force (what the engine reads to resolve paths on the host).
path_arguments_in_force := path_arguments(config)

# A floor entry the configuration names in config.floor_exceptions[list],
# compared canonically.
_excepted(conf, list, entry) if {
	some exception in validate.array_at(validate.object_at(conf, "floor_exceptions"), list)
	canonical_or_null(exception) == canonical_or_null(entry)
}

# METADATA
# description: |
#   The groups a deny list or an exclusion reads: where the configuration
#   and its preset both define a group, the union of the two (the
#   configuration's entries, then the preset's it lacks), so that a
#   preset never takes an entry out of a deny list or an exclusion. The
#   groups only one of them defines are as in groups.
deny_groups(conf) := object.union(lists.groups(conf), {name: _joined_list(own[name], preset[name]) |
	own := lists.own_groups(conf)
	preset := lists.preset_groups(conf)
	some name, _ in preset
	is_array(own[name])
	is_array(preset[name])
})

# METADATA
# description: |
#   The depth cap of a configuration. A missing or malformed max_depth is
#   an error (see errors); until it is mended, every sub-agent is treated
#   as being at the cap. A preset's max_depth can lower it, never raise it.
max_depth(conf) := min({conf.max_depth, object.get(_preset(conf), "max_depth", conf.max_depth)}) if {
	shape.is_count(conf.max_depth)
	shape.is_count(object.get(_preset(conf), "max_depth", conf.max_depth))
} else := 0
