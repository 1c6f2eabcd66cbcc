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
import data.tooleval.shape

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
	"empty_mcp_server": "an MCP entry names a server: mcp__SERVER, mcp__SERVER__TOOL or mcp__SERVER__PREFIX*",
	"mcp_whitespace": "the server and tool of an MCP entry must not have leading or trailing white space",
	"incomplete_mcp_pattern": "an MCP wildcard is mcp__* or mcp__SERVER__PREFIX*",
	"unknown_group": "the group is not defined in data.tooleval.config.groups",
	"nested_group": "a group cannot list another group",
	"too_many_entries": sprintf("a list may have at most %d entries", [shape.max_entries]),
}

# METADATA
# title: entry_problem
# description: |
#   The error code of one entry of a list of the given kind ("allow" or
#   "deny"), or undefined when the entry is valid. The members of a group
#   are checked by list_problems.
entry_problem(entry, kind, groups) := problem(entry, canonical_or_null(entry), kind, groups) if {
	not plain_entry(entry)
}

# METADATA
# title: plain_entry
# description: |
#   A plain name (see tooleval.canonical.plain_name) that does not start
#   with mcp__: a valid exact entry, with no need to check it further.
plain_entry(entry) if {
	plain_name(entry)
	not startswith(lower(entry), "mcp__")
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
} else := "mcp_whitespace" if {
	some part in mcp_parts(c)
	part != trim_space(part)
} else := "unknown_group" if {
	startswith(c, "group:")
	not is_array(object.get(groups, substring(c, 6, -1), null))
} else := "misplaced_wildcard" if {
	contains(c, "*")
	indexof(c, "*") != count(c) - 1
} else := "empty_mcp_server" if {
	mcp_parts(c)[0] == ""
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
list_problems(list, kind, groups) := [{"index": shape.max_entries, "entry": list[shape.max_entries], "code": "too_many_entries"}] if {
	count(list) > shape.max_entries
} else := [p |
	some i, entry in list
	some p in entry_problems(i, entry, kind, groups)
]

entry_problems(i, entry, kind, groups) := [] if {
	plain_entry(entry)
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
	not plain_entry(member)
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

# The server and, when there is one, the tool or tool prefix of an
# MCP entry other than mcp__*: [S] for mcp__S, [S, T] for mcp__S__T and
# [S, P] for mcp__S__P*. Undefined for any other entry.
mcp_parts(c) := parts if {
	startswith(c, "mcp__")
	c != "mcp__*"
	body := trim_suffix(substring(c, 5, -1), "*")
	separator := indexof(body, "__")
	parts := split_at(body, separator)
}

split_at(body, -1) := [body]

split_at(body, separator) := [substring(body, 0, separator), substring(body, separator + 2, -1)] if separator >= 0

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
# description: |
#   The parsed form of a valid entry in canonical form (not a group):
#
#   | kind        | entry        | members        |
#   | all_mcp     | mcp__*       |                |
#   | mcp_prefix  | mcp__S__P*   | server, prefix |
#   | mcp_exact   | mcp__S__T    | name, server, tool |
#   | mcp_server  | mcp__S       | name, server   |
#   | prefix      | P*           | prefix         |
#   | exact       | anything else | name          |
parse(c) := {"kind": "all_mcp"} if {
	c == "mcp__*"
} else := {"kind": "mcp_prefix", "server": substring(body, 0, separator), "prefix": substring(body, separator + 2, -1)} if {
	separator := mcp_separator(c)
	body := trim_suffix(substring(c, 5, -1), "*")
} else := {"kind": "mcp_exact", "name": c, "server": substring(body, 0, separator), "tool": substring(body, separator + 2, -1)} if {
	startswith(c, "mcp__")
	body := substring(c, 5, -1)
	separator := indexof(body, "__")
	separator > 0
} else := {"kind": "mcp_server", "name": c, "server": substring(c, 5, -1)} if {
	startswith(c, "mcp__")
} else := {"kind": "prefix", "prefix": trim_suffix(c, "*")} if {
	endswith(c, "*")
} else := {"kind": "exact", "name": c}

# METADATA
# title: expand
# description: |
#   The list's entries that are not groups, then the members of each
#   group it names (once each, however often the list names it).
expand(list, groups) := array.concat(
	[entry | some entry in list; not group_name(entry)],
	[member |
		some name in {name | some entry in list; name := group_name(entry)}
		is_array(groups[name])
		some member in groups[name]
	],
)

# METADATA
# title: compile
# description: |
#   A matcher for a list of the given kind ("allow" or "deny"), built so
#   that matching one tool costs look-ups, not a scan of the entries:
#
#   | member            | holds                                            | from             |
#   | exact             | canonical built-in names, through the aliases     | exact entries    |
#   | names             | canonical names as written, for MCP tools        | exact entries; in deny lists also mcp__S__T and mcp__S |
#   | all_mcp           | true when the list has mcp__*                    | mcp__*           |
#   | raw               | raw server and tool-name prefix pairs (by length) | mcp__S__P*; in deny lists also mcp__S (prefix "") |
#   | raw_exact         | raw server and tool name pairs                   | deny: mcp__S__T  |
#   | prefixes          | name prefixes of non-MCP tools (by length)       | deny: P*         |
#   | mcp_name_prefixes | name prefixes of MCP tools (by length)           | deny: mcp__S__P*, mcp__S |
#
#   So in a deny list an MCP pattern bites on the raw identity and on the
#   model-visible name, and a bare mcp__S denies the whole server; in an
#   allow list only the raw identity counts and a bare mcp__S matches
#   nothing. A built-in and its aliases are one tool: exact entries are
#   stored as the tool they name, and a deny prefix bites if it matches
#   any of the tool's names. Invalid entries are left out (they are
#   reported as errors, which refuse every call).
compile(list, kind, vocabulary) := {
	"exact": {object.get(vocabulary.aliases, p.name, p.name) | some p in parsed; p.kind == "exact"},
	"names": {p.name | some p in parsed; exact_kinds[kind][p.kind]},
	"all_mcp": count([p | some p in parsed; p.kind == "all_mcp"]) > 0,
	"raw": raw_index([[p.server, raw_prefix(p)] | some p in parsed; raw_prefix_kinds[kind][p.kind]]),
	"raw_exact": {raw_key(p.server, p.tool) | some p in parsed; kind == "deny"; p.kind == "mcp_exact"},
	"prefixes": prefix_index([p.prefix | some p in parsed; p.kind == "prefix"; kind == "deny"]),
	"mcp_name_prefixes": prefix_index([mcp_name_prefix(p) | some p in parsed; kind == "deny"; p.kind in {"mcp_prefix", "mcp_server"}]),
	"aliases": vocabulary.aliases,
	"classes": vocabulary.classes,
} if {
	parsed := [parsed_entry(e) |
		some e in expand(list, vocabulary.groups)
		not entry_problem(e, kind, vocabulary.groups)
	]
}

# METADATA
# title: vocabulary
# description: |
#   What compiling a list needs besides the list: groups (name to
#   entries), aliases (canonical alias to the canonical tool it names) and
#   classes (canonical tool to every canonical name of it, itself
#   included). tooleval.configuration.vocabulary gives the configuration's.
vocabulary(groups, aliases, classes) := {"groups": groups, "aliases": aliases, "classes": classes}

# The parsed kinds that each kind of list matches by canonical name.
exact_kinds := {
	"allow": {"exact", "mcp_exact"},
	"deny": {"exact", "mcp_exact", "mcp_server"},
}

# The parsed kinds that each kind of list matches by raw server and tool prefix.
raw_prefix_kinds := {
	"allow": {"mcp_prefix"},
	"deny": {"mcp_prefix", "mcp_server"},
}

raw_prefix(p) := p.prefix if p.kind == "mcp_prefix"

else := ""

mcp_name_prefix(p) := concat("", ["mcp__", p.server, "__", raw_prefix(p)])

# parsed_entry is the parsed form of a valid entry other than a group
# (undefined for a group, which expand has replaced by its members).
parsed_entry(e) := {"kind": "exact", "name": lower(e)} if {
	plain_entry(e)
} else := parse(c) if {
	c := canonical(e)
	not startswith(c, "group:")
}

# METADATA
# title: prefix_index
# description: |
#   A set of prefixes as {lengths, prefixes}: whether a name starts with
#   one of them is one look-up per distinct length, however many there are.
prefix_index(prefixes) := {
	"lengths": {count(p) | some p in prefixes},
	"prefixes": {p | some p in prefixes},
}

# METADATA
# title: raw_index
# description: |
#   [server, prefix] pairs of raw MCP identities as a prefix index whose
#   keys carry the server (see raw_key), so that no entry is grouped by
#   server: a tool is matched with one look-up per distinct prefix length.
raw_index(pairs) := {
	"lengths": {count(p) | some [_, p] in pairs},
	"prefixes": {raw_key(server, p) | some [server, p] in pairs},
}

# METADATA
# title: raw_key
# description: |
#   One key for a raw server and a text after it (a tool name or prefix):
#   the server's length first, so that no two pairs share a key.
raw_key(server, text) := concat("", [format_int(count(server), 10), ":", server, text])

# METADATA
# title: has_raw_prefix
# description: The raw tool name of server starts with one of the prefixes the index holds for that server.
has_raw_prefix(index, server, tool) if {
	some k in index.lengths
	index.prefixes[raw_key(server, substring(tool, 0, k))]
}

# METADATA
# title: has_prefix
# description: name starts with one of the prefixes of the index.
has_prefix(index, name) if {
	some k in index.lengths
	index.prefixes[substring(name, 0, k)]
}

# METADATA
# title: matches
# scope: document
# description: |
#   The compiled list matches the declared tool with canonical name name
#   and record ({kind, server, tool}, see tooleval.declared): a few
#   look-ups, whatever the number of entries.
matches(matcher, name, record) if {
	record.kind != "mcp"
	exact_hit(matcher, name)
}

matches(matcher, name, record) if {
	record.kind == "mcp"
	matcher.names[name]
}

matches(matcher, _, record) if {
	record.kind == "mcp"
	matcher.all_mcp
}

matches(matcher, _, record) if {
	record.kind == "mcp"
	has_raw_prefix(matcher.raw, record.server, record.tool)
}

matches(matcher, _, record) if {
	record.kind == "mcp"
	matcher.raw_exact[raw_key(record.server, record.tool)]
}

matches(matcher, name, record) if {
	record.kind == "mcp"
	has_prefix(matcher.mcp_name_prefixes, name)
}

matches(matcher, name, record) if {
	record.kind != "mcp"
	some n in names_of(matcher, name)
	has_prefix(matcher.prefixes, n)
}

# METADATA
# title: exact_hit
# description: The compiled list has an exact entry for the built-in with canonical name c (or one of its aliases).
exact_hit(matcher, c) if matcher.exact[object.get(matcher.aliases, c, c)]

# Every canonical name of the tool named c: its alias class, or c alone.
names_of(matcher, c) := names if {
	names := matcher.classes[object.get(matcher.aliases, c, c)]
} else := {c}

# METADATA
# title: matched
# description: |
#   The canonical names of the declared tools (an index from
#   tooleval.declared: canonical name to declaration record) that the
#   compiled list matches.
matched(matcher, tools) := {name |
	some name, record in tools
	matches(matcher, name, record)
}
