# METADATA
# title: Pattern entries
# description: |
#   The grammar of the entries of allow and deny lists (and of fork_tools):
#
#   | entry        | matches                                                     |
#   | read_file    | the declared tool whose canonical name equals the entry's   |
#   | mcp__*       | every MCP tool, and no built-in or peer agent               |
#   | mcp__S__*    | every MCP tool whose raw server is S                        |
#   | mcp__S__P*   | every MCP tool of server S whose raw tool name starts with P |
#   | P*           | (deny lists only) every non-MCP tool whose name starts with P |
#   | group:NAME   | the entries of data.tooleval.config.groups[NAME]            |
#
#   Entries are canonicalized before they are parsed, and MCP wildcards
#   are matched against the canonical raw server and tool names, never the
#   sanitized function name. S is the text between mcp__ and the next __.
package tooleval.pattern

import data.tooleval.canonical.canonical
import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_name

# METADATA
# title: problem_messages
# description: What each entry error code means.
problem_messages := {
	"non_string_entry": "an entry must be a string",
	"empty_entry": "an entry must not be empty",
	"surrounding_whitespace": "an entry must not have leading or trailing white space",
	"uncanonicalizable_entry": "the entry has no exact canonical form",
	"bare_wildcard": "a bare * is not an entry; omit the list to state no restriction",
	"misplaced_wildcard": "* may only end an entry",
	"builtin_wildcard_in_allow": "a wildcard on a non-MCP name is valid only in a deny list",
	"empty_mcp_server": "an MCP wildcard names a server: mcp__SERVER__*",
	"incomplete_mcp_pattern": "an MCP wildcard is mcp__* or mcp__SERVER__PREFIX*",
	"unknown_group": "the group is not defined in data.tooleval.config.groups",
	"nested_group": "a group cannot list another group",
}

# METADATA
# title: entry_problem
# description: |
#   The error code of one entry of a list of the given kind ("allow" or
#   "deny"), or undefined when the entry is valid. The members of a group
#   are checked by list_problems.
entry_problem(entry, kind, groups) := problem(entry, canonical_or_null(entry), kind, groups) if {
	not plain_name(entry)
}

# problem is entry_problem given the entry's canonical form c (null when
# it has none), so that an entry is canonicalized once.
problem(entry, c, kind, groups) := "non_string_entry" if {
	not is_string(entry)
} else := "empty_entry" if {
	entry == ""
} else := "surrounding_whitespace" if {
	entry != trim_space(entry)
} else := "uncanonicalizable_entry" if {
	c == null
} else := "empty_entry" if {
	c == ""
} else := "bare_wildcard" if {
	c == "*"
} else := "unknown_group" if {
	startswith(c, "group:")
	not is_array(object.get(groups, substring(c, 6, -1), null))
} else := "misplaced_wildcard" if {
	contains(c, "*")
	indexof(c, "*") != count(c) - 1
} else := "empty_mcp_server" if {
	mcp_separator(c) == 0
} else := "incomplete_mcp_pattern" if {
	mcp_separator(c) < 0
} else := "builtin_wildcard_in_allow" if {
	kind == "allow"
	not startswith(c, "mcp__")
	endswith(c, "*")
}

# METADATA
# title: list_problems
# description: |
#   Every problem of a list of the given kind, in order, as
#   {index, entry, code} objects; a problem of a group member also names
#   the group and the member's index in it.
list_problems(list, kind, groups) := [p |
	some i, entry in list
	some p in entry_problems(i, entry, kind, groups)
]

entry_problems(i, entry, kind, groups) := [] if {
	plain_name(entry)
} else := [{"index": i, "entry": entry, "code": code}] if {
	code := entry_problem(entry, kind, groups)
} else := [{"index": i, "entry": entry, "code": code, "group": name, "group_index": j} |
	name := group_name(entry)
	some j, member in groups[name]
	code := member_problem(member, kind, groups)
]

# METADATA
# title: member_problem
# description: The error code of one member of a group used in a list of the given kind.
member_problem(member, kind, groups) := code if {
	not plain_name(member)
	code := unplain_member_problem(member, kind, groups)
}

unplain_member_problem(member, kind, groups) := "nested_group" if {
	group_name(member)
} else := entry_problem(member, kind, groups)

# METADATA
# title: group_name
# description: NAME, when the entry is group:NAME.
group_name(entry) := substring(c, 6, -1) if {
	c := canonical(entry)
	startswith(c, "group:")
}

# The position of the __ that ends the server in an MCP wildcard
# (mcp__S__P*), relative to the text after mcp__; -1 when there is none.
# Undefined for anything that is not an MCP wildcard other than mcp__*.
mcp_separator(c) := indexof(substring(c, 5, -1), "__") if {
	startswith(c, "mcp__")
	endswith(c, "*")
	c != "mcp__*"
}

# METADATA
# title: parse
# description: The parsed form of a valid entry in canonical form (not a group).
parse(c) := {"kind": "all_mcp"} if {
	c == "mcp__*"
} else := {"kind": "mcp_prefix", "server": substring(body, 0, separator), "prefix": substring(body, separator + 2, -1)} if {
	separator := mcp_separator(c)
	body := trim_suffix(substring(c, 5, -1), "*")
} else := {"kind": "prefix", "prefix": trim_suffix(c, "*")} if {
	endswith(c, "*")
} else := {"kind": "exact", "name": c}

# METADATA
# title: expand
# description: The list with every valid group entry replaced by the group's members.
expand(list, groups) := [e |
	some entry in list
	some e in expand_entry(entry, groups)
]

expand_entry(entry, groups) := groups[name] if {
	name := group_name(entry)
	is_array(groups[name])
} else := [entry]

# METADATA
# title: compile
# description: |
#   A matcher for a list of the given kind: an object of exact canonical
#   names, an all-MCP flag, MCP tool prefixes keyed by server, and non-MCP
#   name prefixes. Invalid entries are left out (they are reported as
#   errors, which refuse every call).
compile(list, kind, groups) := {
	"exact": {p.name: true | some p in parsed; p.kind == "exact"},
	"all_mcp": count([p | some p in parsed; p.kind == "all_mcp"]) > 0,
	"mcp_prefixes": {q.server: [p.prefix | some p in parsed; p.kind == "mcp_prefix"; p.server == q.server] |
		some q in parsed
		q.kind == "mcp_prefix"
	},
	"prefixes": [p.prefix | some p in parsed; p.kind == "prefix"],
} if {
	parsed := [parsed_entry(e) |
		some e in expand(list, groups)
		not entry_problem(e, kind, groups)
	]
}

# parsed_entry is the parsed form of a valid entry other than a group
# (undefined for a group, which expand has replaced by its members).
parsed_entry(e) := {"kind": "exact", "name": lower(e)} if {
	plain_name(e)
} else := parse(c) if {
	c := canonical(e)
	not startswith(c, "group:")
}

# METADATA
# title: matched
# description: |
#   The canonical names of the declared tools (an index from
#   tooleval.declared: canonical name to declaration record) that the
#   compiled list matches. Exact entries are looked up in the index; each
#   kind of wildcard scans the index once, and only when the list has one.
matched(matcher, tools) := ((exact_hits(matcher, tools) | all_mcp_hits(matcher, tools)) | mcp_prefix_hits(matcher, tools)) | prefix_hits(matcher, tools)

exact_hits(matcher, tools) := {name |
	some name, _ in matcher.exact
	tools[name]
}

all_mcp_hits(matcher, tools) := {name |
	matcher.all_mcp
	some name, tool in tools
	tool.kind == "mcp"
}

mcp_prefix_hits(matcher, tools) := {name |
	count(matcher.mcp_prefixes) > 0
	some name, tool in tools
	tool.kind == "mcp"
	some prefix in matcher.mcp_prefixes[tool.server]
	startswith(tool.tool, prefix)
}

prefix_hits(matcher, tools) := {name |
	count(matcher.prefixes) > 0
	some name, tool in tools
	tool.kind != "mcp"
	some prefix in matcher.prefixes
	startswith(name, prefix)
}
