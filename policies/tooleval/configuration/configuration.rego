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
#   together. Dropping a floor entry takes a named exception in
#   config.floor_exceptions, which tooleval check always reports.
package tooleval.configuration

import data.tooleval.canonical.canonical_or_null
import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# title: overlay
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
# title: config
# scope: document
# description: |
#   The configuration in force: data.tooleval.config with the members of
#   the preset it selects (config.preset) merged over it, or an empty
#   configuration (which is reported as errors) when it is missing.
config := with_preset(raw)

# METADATA
# title: raw
# scope: document
# description: data.tooleval.config as the bundle holds it (an overlay merged in), or {} when it is not an object (an error).
default raw := {}

raw := data.tooleval.config if is_object(data.tooleval.config)

# METADATA
# title: with_preset
# description: |
#   A configuration with its preset applied: the members a preset
#   replaces are merged over the configuration key by key (a preset's
#   group, profile or list replaces the configuration's of the same name);
#   the members a preset adds to (see additive_members) are read by
#   exclusion_entries, sensitive_paths and path_arguments.
with_preset(conf) := object.union(conf, object.filter(preset(conf), replaced_members))

# METADATA
# title: preset
# description: The preset a configuration selects, or {} when it selects none (or an unknown one, an error).
preset(conf) := conf.presets[conf.preset] if {
	is_object(conf.presets[conf.preset])
} else := {}

# METADATA
# title: aliases
# description: |
#   The tool-name aliases of the configuration's preset, canonical alias
#   to canonical tool: an alias and its tool are one name in every list
#   the policy reads (allow, deny, groups, exclusions) and in the path
#   arguments. Only built-in names have aliases; an invalid pair is an
#   error (see errors) and left out.
aliases(conf) := {c: t |
	some alias, tool in object_at(preset(conf), "aliases")
	c := canonical_or_null(alias)
	t := canonical_or_null(tool)
	valid_alias(c, t)
}

# A canonical alias and tool pair: two different built-in tool names
# (no wildcard, group or MCP name).
valid_alias(c, t) if {
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
# title: classes
# description: "For each tool that has aliases, its canonical names: the tool's own and its aliases'."
classes(conf) := {t: class_of(t, table) |
	table := aliases(conf)
	some t in {target | some target in table}
}

class_of(t, table) := {t} | {a | some a, target in table; target == t}

# METADATA
# title: vocabulary
# description: What compiling the configuration's lists needs (see tooleval.pattern.vocabulary).
vocabulary(conf) := pattern.vocabulary(groups(conf), aliases(conf), classes(conf))

# METADATA
# title: alias_names
# description: Every canonical name of the tool named c under the configuration's aliases, c included.
alias_names(conf, c) := names if {
	names := classes(conf)[object.get(aliases(conf), c, c)]
} else := {c}

# METADATA
# title: alias_names_table
# description: Every name that has other names, to all of its canonical names (see alias_names).
alias_names_table(conf) := {name: classes(conf)[target] |
	some target, _ in classes(conf)
	some name in classes(conf)[target]
}

# METADATA
# title: replaced_members
# description: The members a preset sets over the configuration's.
replaced_members := {"groups", "profiles", "agent_filters", "read_only", "shell"}

# METADATA
# title: additive_members
# description: The members a preset adds to the floor and the configuration's, never replacing them.
additive_members := {"exclusions", "sensitive_paths", "path_arguments"}

# METADATA
# title: preset_members
# description: |
#   Everything a preset may hold: the members it replaces or adds to,
#   its aliases, a max_depth (which can only lower the configuration's)
#   and source (which runtime release it follows, and where to look).
preset_members := (replaced_members | additive_members) | {"aliases", "max_depth", "source"}

# METADATA
# title: shipped_floor
# scope: document
# description: The shipped floor (data.tooleval.floor), or {} when the bundle lacks it (an error).
default shipped_floor := {}

shipped_floor := data.tooleval.floor if is_object(data.tooleval.floor)

# METADATA
# title: exclusion_names
# description: The runtime exclusions, in the order they are checked.
exclusion_names := ["subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn"]

# METADATA
# title: floor_lists
# description: The lists of the floor, each named as config.floor_exceptions names it.
floor_lists := {"subagent_hard_deny", "subagent_depth_cap", "fork_no_spawn", "sensitive_paths"}

# METADATA
# title: exclusion_entries
# description: |
#   The entries of one runtime exclusion in force: the floor's (less the
#   configuration's named exceptions), then the configuration's, then the
#   preset's.
exclusion_entries(conf, name) := array.flatten([
	[e | some e in array_at(object.get(shipped_floor, "exclusions", {}), name); not excepted(conf, name, e)],
	array_at(object.get(conf, "exclusions", {}), name),
	array_at(object.get(preset(conf), "exclusions", {}), name),
])

# METADATA
# title: sensitive_paths
# description: |
#   The sensitive paths in force: the floor's (less the configuration's
#   named exceptions), then the configuration's, then the preset's. Each
#   is a relative path: a written path with those segments in a row is
#   refused (rule sensitive).
sensitive_paths(conf) := array.flatten([
	[p | some p in array_at(shipped_floor, "sensitive_paths"); not excepted(conf, "sensitive_paths", p)],
	array_at(conf, "sensitive_paths"),
	array_at(preset(conf), "sensitive_paths"),
])

# METADATA
# title: path_arguments
# description: |
#   Which arguments of which tools are paths, in force: for each canonical
#   tool name, each argument's set of accesses ("read", "write"). The
#   configuration's and the preset's are joined; an argument that one
#   calls read and the other write gets both checks.
path_arguments(conf) := {name: arguments(alias_names(conf, name), sources) |
	sources := [object_at(conf, "path_arguments"), object_at(preset(conf), "path_arguments")]
	some tool in {t | some source in sources; some t, _ in source}
	some name in alias_names(conf, tool)
}

# The path arguments of a tool known by these names (its alias class),
# from every source.
arguments(names, sources) := {arg: {access |
	some source in sources
	some tool in names
	access := object_at(source, tool)[arg]
	access in accesses
} |
	some source in sources
	some tool in names
	some arg, _ in object_at(source, tool)
}

# METADATA
# title: accesses
# description: |
#   What a path argument is: a path read, a path written, or patch text
#   (every file its headers name is written; see tooleval.paths).
accesses := {"read", "write", "patch"}

# METADATA
# title: path_arguments_in_force
# scope: document
# description: path_arguments of the configuration in force (what the engine reads to resolve paths on the host).
path_arguments_in_force := path_arguments(config)

# A floor entry the configuration names in config.floor_exceptions[list],
# compared canonically.
excepted(conf, list, entry) if {
	some exception in array_at(object_at(conf, "floor_exceptions"), list)
	canonical_or_null(exception) == canonical_or_null(entry)
}

# METADATA
# title: groups
# description: The groups of a configuration (config.groups), or none.
groups(conf) := conf.groups if is_object(conf.groups)

else := {}

# METADATA
# title: max_depth
# description: |
#   The depth cap of a configuration. A missing or malformed max_depth is
#   an error (see errors); until it is mended, every sub-agent is treated
#   as being at the cap. A preset's max_depth can lower it, never raise it.
max_depth(conf) := min({conf.max_depth, object.get(preset(conf), "max_depth", conf.max_depth)}) if {
	shape.is_count(conf.max_depth)
	shape.is_count(object.get(preset(conf), "max_depth", conf.max_depth))
} else := 0

# METADATA
# title: array_at
# description: obj[key] when obj is an object and that is an array, else [].
array_at(obj, key) := obj[key] if is_array(obj[key])

else := []

# METADATA
# title: object_at
# description: obj[key] when obj is an object and that is an object, else {}.
object_at(obj, key) := obj[key] if is_object(obj[key])

else := {}
