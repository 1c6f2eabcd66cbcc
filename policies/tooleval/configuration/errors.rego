# Errors in the configuration every request reads: its keys, the
# preset, the floor and its exceptions, the exclusion lists, groups,
# path arguments and sensitive paths. (The configured stages check the
# parts of the configuration they read: tooleval.stages.)
package tooleval.configuration

import data.tooleval.canonical.canonical
import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration.lists
import data.tooleval.configuration.suggest
import data.tooleval.configuration.validate
import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# description: Every error in the parts of the configuration every request reads, with its location.
errors(conf) := array.flatten([
	_missing_config_errors,
	_floor_errors,
	_unknown_key_errors(conf),
	_preset_errors(conf),
	_depth_errors(conf),
	_exclusion_errors(object.get(conf, "exclusions", {}), "config.exclusions", conf),
	_exclusion_errors(object.get(_preset(conf), "exclusions", {}), _preset_location(conf, "exclusions"), conf),
	pattern.group_errors(conf),
	_path_argument_errors(object.get(conf, "path_arguments", {}), "config.path_arguments"),
	_path_argument_errors(object.get(_preset(conf), "path_arguments", {}), _preset_location(conf, "path_arguments")),
	_rule_argument_errors(object.get(conf, "rule_arguments", {}), "config.rule_arguments"),
	_rule_argument_errors(object.get(_preset(conf), "rule_arguments", {}), _preset_location(conf, "rule_arguments")),
	_rule_argument_conflicts(conf),
	_sensitive_path_errors(object.get(conf, "sensitive_paths", []), "config.sensitive_paths"),
	_sensitive_path_errors(object.get(_preset(conf), "sensitive_paths", []), _preset_location(conf, "sensitive_paths")),
	_floor_exception_errors(object.get(conf, "floor_exceptions", {})),
	_mcp_server_list_errors(object.get(conf, "mcp_servers", null)),
	_builtin_tool_list_errors(object.get(conf, "builtin_tools", null)),
	_alias_errors(object.get(_preset(conf), "aliases", {}), _preset_location(conf, "aliases")),
	_family_errors(object.get(_preset(conf), "deny_families", {}), _preset_location(conf, "deny_families")),
	_preset_depth_errors(_preset(conf), _preset_location(conf, "max_depth")),
])

# A preset's aliases: an object of built-in tool names to the built-in
# tool each names, with no chains (an alias of an alias) and no two
# aliases of one canonical form. Each problem is located at its alias.
_alias_errors(value, location) := [shape.problem("invalid_config_value", sprintf("%s must be an object", [location]), {"field": location})] if {
	not is_object(value)
} else := [shape.problem(
	code,
	message,
	{"field": sprintf("%s.%s", [location, alias]), "alias": alias, "tool": tool},
) |
	problems := alias_problems(value)
	some alias in sort(object.keys(value))
	tool := value[alias]
	[code, message] := problems[alias]
]

# A preset's deny families: an object of built-in tool names to lists of
# deny entries that are not groups (see deny_families).
_family_errors(value, location) := [shape.problem("invalid_config_value", sprintf("%s must be an object", [location]), {"field": location})] if {
	not is_object(value)
} else := [shape.problem(
	"invalid_family",
	"a deny family maps a built-in tool name (no wildcard, group or MCP name) to a list of deny entries that are not groups",
	{"field": location, "tool": tool},
) |
	some tool, members in value
	not _valid_family(canonical_or_null(tool), members)
]

_preset_depth_errors(p, location) := [shape.problem(
	"invalid_config_value",
	sprintf("%s must be a whole number at least 1", [location]),
	{"field": location},
)] if {
	shape.present(p, "max_depth")
	not _valid_depth(p.max_depth)
} else := []

_valid_depth(d) if {
	shape.is_count(d)
	d >= 1
}

# config.mcp_servers lists the MCP servers the deployment runs (raw
# server names), so that tooleval check can tell a misspelt one.
_mcp_server_list_errors(null) := []

_mcp_server_list_errors(value) := [] if {
	is_array(value)
	every s in value {
		not canonical_or_null(s) in {null, ""}
	}
} else := [shape.problem(
	"invalid_list",
	"config.mcp_servers must be an array of MCP server names",
	{"field": "config.mcp_servers"},
)] if {
	value != null
}

# config.builtin_tools lists the built-in tools of the deployment's
# runtime, so that tooleval check can tell a deny entry that names none
# of them (unknown_deny_entry): each a name, or P* for the family of
# tools the runtime names by the prefix P (Gemini CLI's
# discovered_tool_*).
_builtin_tool_list_errors(null) := []

_builtin_tool_list_errors(value) := [] if {
	is_array(value)
	count(value) <= shape.max_entries
	every s in value {
		_builtin_tool(s)
	}
} else := [shape.problem(
	"invalid_list",
	sprintf(
		"config.builtin_tools must be an array of at most %d built-in tool names, or P* for the tools named with the prefix P",
		[shape.max_entries],
	),
	{"field": "config.builtin_tools"},
)] if {
	value != null
}

# A built-in tool's name.
_builtin_tool(s) if {
	pattern.exact(s)
	not startswith(canonical_or_null(s), "mcp__")
}

# A family of built-in tools: P*, a valid deny entry that is not MCP (a
# group is not valid without groups).
_builtin_tool(s) if {
	c := canonical_or_null(s)
	endswith(c, "*")
	not startswith(c, "mcp__")
	not pattern.entry_problem(s, "deny", {})
}

_preset_location(conf, member) := sprintf("config.presets.%v.%s", [shape.field(conf, "preset", null), member])

# METADATA
# description: The members of data.tooleval.config; any other is a mistake (a misspelt key configures nothing).
_known_keys := {
	"max_depth", "exclusions", "floor_exceptions", "sensitive_paths", "groups", "path_arguments", "rule_arguments", "preset", "presets",
	"profiles", "tools", "subagents", "agents", "agent_filters", "tenants",
	"scopes", "mcp_servers", "builtin_tools", "mcp_user_services", "read_only", "shell", "continuation", "hooks",
}

_unknown_key_errors(conf) := [shape.problem(
	"unknown_config_key",
	sprintf("config.%s is not a configuration key%s", [key, suggest.suggestion(key, _known_keys)]),
	{"field": sprintf("config.%s", [key])},
) |
	some key in sort(object.keys(conf) - _known_keys)
]

_missing_config_errors := [] if {
	is_object(data.tooleval.config)
} else := [shape.problem(
	"missing_config",
	"the bundle has no configuration (data.tooleval.config is not an object): every call is refused",
	{"field": "config"},
)]

# The floor is part of the bundle; without it every call is refused.
_floor_errors := [] if {
	every name in exclusion_names {
		is_array(object.get(data.tooleval.floor, ["exclusions", name], null))
	}
	is_array(object.get(data.tooleval.floor, "sensitive_paths", null))
} else := [shape.problem(
	"missing_floor",
	"the bundle has no floor (data.tooleval.floor with exclusions and sensitive_paths): every call is refused",
	{"field": "floor"},
)]

_preset_errors(conf) := [] if {
	shape.field(conf, "preset", null) == null
} else := [shape.problem(
	"unknown_config_key",
	sprintf("config.presets.%s.%s is not a member a preset sets (%v)", [conf.preset, key, sort(_preset_members)]),
	{"field": sprintf("config.presets.%s.%s", [conf.preset, key])},
) |
	some key in sort(object.keys(conf.presets[conf.preset]) - _preset_members)
] if {
	is_object(conf.presets[conf.preset])
} else := [shape.problem(
	"unknown_preset",
	sprintf("config.preset %v names no preset in config.presets%s", [conf.preset, suggest.suggestion(conf.preset, _preset_names(conf))]),
	{"field": "config.preset", "preset": conf.preset},
)]

_depth_errors(conf) := [] if {
	shape.is_count(conf.max_depth)
	conf.max_depth >= 1
} else := [shape.problem("invalid_config_value", "max_depth must be a whole number at least 1", {"field": "config.max_depth"})]

# The additions to the runtime exclusions at location: absent or null
# adds nothing; else an object of exclusion names and deny lists.
_exclusion_errors(null, _, _) := []

_exclusion_errors(value, location, _) := [shape.problem(
	"invalid_config_value",
	sprintf("%s must be an object of exclusion lists", [location]),
	{"field": location},
)] if {
	value != null
	not is_object(value)
}

_exclusion_errors(value, location, conf) := array.concat(
	[shape.problem(
		"unknown_config_key",
		sprintf("%s.%s is not a runtime exclusion (%v)", [location, name, exclusion_names]),
		{"field": sprintf("%s.%s", [location, name])},
	) |
		some name in sort(object.keys(value) - {n | some n in exclusion_names})
	],
	[e |
		some name in exclusion_names
		some e in _entry_list_errors(value, name, sprintf("%s.%s", [location, name]), conf)
	],
) if {
	is_object(value)
}

_entry_list_errors(obj, key, location, conf) := [] if {
	object.get(obj, key, null) == null
} else := [shape.problem("invalid_list", sprintf("%s must be an array", [location]), {"field": location})] if {
	not is_array(obj[key])
} else := [shape.problem(
	p.code,
	pattern.problem_messages[p.code],
	object.union(p, {"field": location}),
) |
	some p in pattern.list_problems(obj[key], "deny", lists.groups(conf))
]

_path_argument_errors(value, location) := [] if {
	value == null
} else := [shape.problem("invalid_config_value", sprintf("%s must be an object", [location]), {"field": location})] if {
	not is_object(value)
} else := [shape.problem("invalid_config_value", message, {"field": location, "tool": name}) |
	some name, spec in value
	some message in _tool_problems(name, spec)
]

_tool_problems(name, spec) := ["a tool name must be its own canonical form, or no call can reach it"] if {
	canonical_or_null(name) != name
} else := ["a tool's path arguments must be an object of \"read\", \"write\", \"patch\" or \"glob\""] if {
	not _valid_spec(spec)
} else := []

_valid_spec(spec) if {
	is_object(spec)
	every access in spec {
		access in _accesses
	}
}

# rule_arguments: an object of canonical tool names to {command? or
# argv?, url?}, each the name of an argument (a non-empty string), and
# inert, a list of argument names.
_rule_argument_errors(value, location) := [] if {
	value == null
} else := [shape.problem("invalid_config_value", sprintf("%s must be an object", [location]), {"field": location})] if {
	not is_object(value)
} else := [shape.problem("invalid_config_value", message, {"field": location, "tool": name}) |
	some name, spec in value
	some message in _rule_tool_problems(name, spec)
]

_rule_tool_problems(name, spec) := ["a tool name must be its own canonical form, or no call can reach it"] if {
	canonical_or_null(name) != name
} else := [concat("", [
	"a tool's rule arguments must be an object of \"command\" (or \"argv\") or \"url\" to an argument name, ",
	"and \"inert\" to a list of argument names",
])] if {
	not _valid_rule_spec(spec)
} else := ["a tool's command is either a string a shell reads (\"command\") or an argument vector (\"argv\"), not both"] if {
	is_string(spec.command)
	is_string(spec.argv)
} else := []

_valid_rule_spec(spec) if {
	is_object(spec)
	every reads, value in spec {
		_valid_rule_member(reads, value)
	}
}

_valid_rule_member(reads, value) if {
	reads in {"command", "argv", "url"}
	is_string(value)
	value != ""
}

_valid_rule_member("inert", value) if {
	is_array(value)
	every name in value {
		is_string(name)
		name != ""
	}
}

# A tool whose command or URL the configuration and the preset say
# different arguments hold: which one the runtime reads is not known, so
# neither is read (its argument rules never allow, and every deny and ask
# rule bites).
_rule_argument_conflicts(conf) := [shape.problem(
	"invalid_config_value",
	sprintf("the configuration and the preset name different %s arguments for tool %q", [reads, tool]),
	{"field": sprintf("config.rule_arguments.%s.%s", [tool, reads]), "tool": tool},
) |
	ours := validate.object_at(conf, "rule_arguments")
	theirs := validate.object_at(_preset(conf), "rule_arguments")
	some tool, spec in ours
	is_object(spec)
	some reads, arg in spec
	reads in {"command", "argv", "url"}
	_other_argument(validate.object_at(theirs, tool), reads, arg)
]

# The preset's entry for a tool (spec) names another argument for reads
# than arg, or reads the command the other way (argv for command).
_other_argument(spec, reads, arg) if {
	is_string(spec[reads])
	spec[reads] != arg
}

_other_argument(spec, "command", _) if is_string(spec.argv)

_other_argument(spec, "argv", _) if is_string(spec.command)

_sensitive_path_errors(value, location) := [] if {
	value == null
} else := [shape.problem("invalid_list", sprintf("%s must be an array of relative paths", [location]), {"field": location})] if {
	not is_array(value)
} else := [shape.problem(
	"invalid_sensitive_path",
	"a sensitive path is a relative, clean path (segments without ., .. or empty ones), in canonical form",
	{"field": location, "index": i, "entry": p},
) |
	some i, p in value
	not _valid_sensitive_path(p)
]

_valid_sensitive_path(p) if {
	is_string(p)
	not startswith(p, "/")
	every segment in split(p, "/") {
		not segment in {"", ".", ".."}
		canonical(segment) == segment
	}
}

_floor_exception_errors(null) := []

_floor_exception_errors(value) := [shape.problem(
	"invalid_config_value",
	"config.floor_exceptions must be an object of floor lists and the entries dropped from them",
	{"field": "config.floor_exceptions"},
)] if {
	value != null
	not is_object(value)
}

_floor_exception_errors(value) := array.concat(
	[shape.problem(
		"unknown_config_key",
		sprintf("config.floor_exceptions.%s is not a floor list (%v)", [name, sort(floor_lists)]),
		{"field": sprintf("config.floor_exceptions.%s", [name])},
	) |
		some name in sort(object.keys(value) - floor_lists)
	],
	[shape.problem(
		"unknown_floor_exception",
		sprintf("config.floor_exceptions.%s names %v, which is not an entry of that floor list", [name, entry]),
		{"field": sprintf("config.floor_exceptions.%s", [name]), "index": i, "entry": entry},
	) |
		some name in floor_lists
		some i, entry in _exception_list(value, name)
		not floor_entry(name, entry)
	],
) if {
	is_object(value)
}

_exception_list(value, name) := value[name] if {
	is_array(value[name])
} else := [value[name]] if {
	value[name] != null
} else := []

# METADATA
# description: entry is, canonically, an entry of the floor list name.
floor_entry(name, entry) if {
	c := canonical_or_null(entry)
	c != null
	some e in _floor_list(name)
	canonical_or_null(e) == c
}

_floor_list("sensitive_paths") := validate.array_at(_shipped_floor, "sensitive_paths")

_floor_list(name) := validate.array_at(object.get(_shipped_floor, "exclusions", {}), name) if name != "sensitive_paths"

# METADATA
# scope: document
# description: |
#   An error when the bundle lacks its Unicode tables (data.tooleval.unicode
#   and its skeleton table): without them a full-width or otherwise folded
#   spelling of an excluded tool would be another name. Each table is
#   probed for one entry it always holds, which costs a look-up, not a
#   read of the table.
unicode_errors := [] if {
	data.tooleval.unicode.map.A == "a"
	data.tooleval.unicode.ccc["́"] == 230
	data.tooleval.unicode.trail_ccc["é"] == 230
	data.tooleval.unicode.lead_ccc["ཱི"] == 129
	data.tooleval.unicode.composable["́"] == true
	data.tooleval.unicode.compositions["é"] == "\u00e9"
	data.tooleval.unicode.skeleton["а"] == "a"
} else := [shape.problem(
	"missing_unicode_tables",
	"the bundle has no complete Unicode tables (data.tooleval.unicode): every call is refused",
	{"field": "unicode"},
)]

_preset_names(conf) := {name | some name, _ in validate.object_at(conf, "presets")}
