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
import data.tooleval.canonical.plain_canonical
import data.tooleval.canonical.plain_name_chars
import data.tooleval.shape

# METADATA
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
# description: |
#   The error code of one entry of a list of the given kind ("allow" or
#   "deny"), or undefined when the entry is valid. The members of a group
#   are checked by list_problems.
entry_problem(entry, kind, groups) := _problem(entry, canonical_or_null(entry), kind, groups) if {
	not _plain_entry(entry)
}

# METADATA
# description: |
#   A plain name (see tooleval.canonical.plain_name) that does not start
#   with mcp__: a valid exact entry, with no need to check it further.
_plain_entry(entry) if {
	not startswith(plain_canonical(entry), "mcp__")
}

# problem is entry_problem given the entry's canonical form c (null when
# it has none), so that an entry is canonicalized once.
_problem(entry, c, kind, groups) := "non_string_entry" if {
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
	some part in _mcp_parts(c)
	part != trim_space(part)
} else := "unknown_group" if {
	startswith(c, "group:")
	not is_array(object.get(groups, substring(c, 6, -1), null))
} else := "misplaced_wildcard" if {
	contains(c, "*")
	indexof(c, "*") != count(c) - 1
} else := "empty_mcp_server" if {
	_mcp_parts(c)[0] == ""
} else := "incomplete_mcp_pattern" if {
	_mcp_separator(c) < 0
} else := "builtin_wildcard_in_allow" if {
	kind == "allow"
	not startswith(c, "mcp__")
	endswith(c, "*")
}

# METADATA
# description: |
#   Every problem of a list of the given kind, in order, as
#   {index, entry, code} objects; a problem of a group member also names
#   the group and the member's index in it.
list_problems(list, kind, groups) := [] if {
	plain_list(list)
} else := [{"index": shape.max_entries, "entry": list[shape.max_entries], "code": "too_many_entries"}] if {
	count(list) > shape.max_entries
} else := [p |
	some i, entry in list
	some p in _entry_problems(i, entry, kind, groups)
]

_entry_problems(i, entry, kind, groups) := [] if {
	_plain_entry(entry)
} else := [{"index": i, "entry": entry, "code": code}] if {
	code := entry_problem(entry, kind, groups)
} else := [{"index": i, "entry": entry, "code": code, "group": name, "group_index": j} |
	name := group_name(entry)
	some j, member in groups[name]
	code := _member_problem(member, kind, groups)
]

# METADATA
# description: The error code of one member of a group used in a list of the given kind.
_member_problem(member, kind, groups) := code if {
	not _plain_entry(member)
	code := _unplain_member_problem(member, kind, groups)
}

_unplain_member_problem(member, kind, groups) := "nested_group" if {
	group_name(member)
} else := entry_problem(member, kind, groups)

# METADATA
# description: NAME, when the entry is group:NAME.
group_name(entry) := substring(c, 6, -1) if {
	c := canonical(entry)
	startswith(c, "group:")
}

# The server and, when there is one, the tool or tool prefix of an
# MCP entry other than mcp__*: [S] for mcp__S, [S, T] for mcp__S__T and
# [S, P] for mcp__S__P*. Undefined for any other entry.
_mcp_parts(c) := parts if {
	startswith(c, "mcp__")
	c != "mcp__*"
	body := trim_suffix(substring(c, 5, -1), "*")
	separator := indexof(body, "__")
	parts := _split_at(body, separator)
}

_split_at(body, -1) := [body]

_split_at(body, separator) := [substring(body, 0, separator), substring(body, separator + 2, -1)] if separator >= 0

# The position of the __ that ends the server in an MCP wildcard
# (mcp__S__P*), relative to the text after mcp__; -1 when there is none.
# Undefined for anything that is not an MCP wildcard other than mcp__*.
_mcp_separator(c) := indexof(substring(c, 5, -1), "__") if {
	startswith(c, "mcp__")
	endswith(c, "*")
	c != "mcp__*"
}

# METADATA
# scope: document
# description: |
#   entry names tools by name, not by pattern: a valid entry with no
#   wildcard and no group (a built-in, peer agent or MCP tool name, or a
#   bare mcp__S).
exact(entry) if _plain_entry(entry)

exact(entry) if {
	c := canonical(entry)
	not _problem(entry, c, "deny", {})
	not startswith(c, "group:")
	not contains(c, "*")
}

# METADATA
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
	separator := _mcp_separator(c)
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
# description: |
#   The list's entries that are not groups, then the members of each
#   group it names (once each, however often the list names it), each as
#   {entry, c, plain}: the entry, its canonical form (null when it has
#   none) and whether it is a plain exact entry (see _plain_exact).
#   Every entry is canonicalized once.
expand(list, groups) := array.concat(
	[f | some f in forms; not _group_form(f)],
	[_form(member) |
		some name in {substring(f.c, 6, -1) | some f in forms; _group_form(f)}
		is_array(groups[name])
		some member in groups[name]
	],
) if {
	forms := [_form(e) | some e in list]
}

_form(e) := {"entry": e, "c": c, "plain": true} if {
	c := _plain_exact(e)
} else := {"entry": e, "c": canonical_or_null(e), "plain": false}

_group_form(f) if {
	f.plain == false
	is_string(f.c)
	startswith(f.c, "group:")
}

# METADATA
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
#   reported as errors, which refuse every call). Every member is an
#   object or an array, so that a matcher can be kept as bundle data.
compile(list, kind, vocabulary) := _compile(array.concat(list, extra), kind, vocabulary) if {
	kind == "deny"
	extra := family_entries(list, vocabulary)
	count(extra) > 0
} else := _compile(list, kind, vocabulary)

_compile(list, kind, vocabulary) := _compile_exact(forms, vocabulary.aliases) if {
	forms := plain_list(list)
} else := _compile_entries(list, kind, vocabulary)

# METADATA
# description: |
#   The entries a deny list also denies through the vocabulary's deny
#   families: for each built-in it names exactly (directly or in a group,
#   its aliases resolved), the members of that tool's family. Families
#   do not chain, and a wildcard entry has none.
family_entries(list, vocabulary) := [m |
	families := object.get(vocabulary, "families", {})
	count(families) > 0
	keys := {object.get(vocabulary.aliases, f.c, f.c) |
		some f in expand(list, kind_groups(vocabulary, "deny"))
		is_string(f.c)
	}
	some k in sort(keys)
	some m in object.get(families, k, [])
]

# METADATA
# scope: document
# description: |
#   The groups a list of the given kind reads from a vocabulary: a deny
#   list reads deny_groups (where a preset and the configuration both
#   define a group, the union), an allow list groups.
kind_groups(vocabulary, "deny") := vocabulary.deny_groups if is_object(vocabulary.deny_groups)

else := vocabulary.groups

kind_groups(vocabulary, "allow") := vocabulary.groups

# A list of exact built-in entries only, given their canonical forms
# (see plain_list): what _compile_entries gives for it, without a pass
# per entry over the grammar.
_compile_exact(forms, aliases) := {
	"exact": {object.get(aliases, c, c): true | some c in forms},
	"names": {c: true | some c in forms},
	"all_mcp": false,
	"raw": _empty_index,
	"raw_exact": {},
	"prefixes": _empty_index,
	"mcp_name_prefixes": _empty_index,
}

_empty_index := {"lengths": [], "prefixes": {}}

# METADATA
# description: |
#   The canonical forms, in order, of a list (an array) whose entries are
#   all plain names (tooleval.canonical.plain_name) not starting with
#   mcp__, with at most shape.max_entries of them; undefined for any other
#   list. Such a list, the most common kind, has no problem and only
#   exact entries, so it is checked and compiled a whole list at a time:
#   a few built-in calls over the list's JSON text instead of several
#   rule evaluations per entry.
plain_list(list) := [] if {
	list == []
} else := forms if {
	is_array(list)
	count(list) <= shape.max_entries
	regex.match(_plain_list_text, json.marshal(list))
	text := lower(concat("\n", list))
	not regex.match(`(^|\n)mcp__`, text)
	forms := split(text, "\n")
}

# The JSON text of a list of plain names: see plain_list.
_plain_list_text := sprintf(`^\["%s"(,"%s")*\]$`, [plain_name_chars, plain_name_chars])

# The matcher of any list (see compile), entry by entry.
_compile_entries(list, kind, vocabulary) := {
	"exact": object.union(
		{object.get(vocabulary.aliases, c, c): true | some c, _ in plain},
		{object.get(vocabulary.aliases, p.name, p.name): true | some p in parsed; p.kind == "exact"},
	),
	"names": object.union(plain, {p.name: true | some p in parsed; _exact_kinds[kind][p.kind]}),
	"all_mcp": count([p | some p in parsed; p.kind == "all_mcp"]) > 0,
	"raw": raw_index([[p.server, _raw_prefix(p)] | some p in parsed; _raw_prefix_kinds[kind][p.kind]]),
	"raw_exact": {raw_key(p.server, p.tool): true | some p in parsed; kind == "deny"; p.kind == "mcp_exact"},
	"prefixes": _prefix_index([p.prefix | some p in parsed; p.kind == "prefix"; kind == "deny"]),
	"mcp_name_prefixes": _prefix_index([_mcp_name_prefix(p) | some p in parsed; kind == "deny"; p.kind in {"mcp_prefix", "mcp_server"}]),
} if {
	groups := kind_groups(vocabulary, kind)
	forms := expand(list, groups)
	plain := {f.c: true | some f in forms; f.plain == true}
	parsed := [parse(f.c) |
		some f in forms
		f.plain == false
		not _problem(f.entry, f.c, kind, groups)
		not startswith(f.c, "group:")
	]
}

# The canonical form of a plain entry (a valid exact entry that does not
# start with mcp__); undefined for any other entry.
_plain_exact(e) := c if {
	c := plain_canonical(e)
	not startswith(c, "mcp__")
}

# METADATA
# description: |
#   What compiling a list needs besides the list: groups (name to
#   entries) and aliases (canonical alias to the canonical tool it names).
#   tooleval.configuration.vocabulary gives the configuration's.
vocabulary(groups, aliases) := full_vocabulary(groups, groups, aliases, {})

# METADATA
# description: |
#   What compiling a list needs: the groups an allow list reads, the
#   groups a deny list reads, the aliases (canonical alias to canonical
#   tool), and the deny families (canonical tool to the entries a deny of
#   it also denies; see family_entries).
full_vocabulary(groups, deny_groups, aliases, families) := {
	"groups": groups,
	"deny_groups": deny_groups,
	"aliases": aliases,
	"families": families,
}

# The parsed kinds that each kind of list matches by canonical name.
_exact_kinds := {
	"allow": {"exact", "mcp_exact"},
	"deny": {"exact", "mcp_exact", "mcp_server"},
}

# The parsed kinds that each kind of list matches by raw server and tool prefix.
_raw_prefix_kinds := {
	"allow": {"mcp_prefix"},
	"deny": {"mcp_prefix", "mcp_server"},
}

_raw_prefix(p) := p.prefix if p.kind == "mcp_prefix"

else := ""

_mcp_name_prefix(p) := concat("", ["mcp__", p.server, "__", _raw_prefix(p)])

# METADATA
# description: |
#   A set of prefixes as {lengths, prefixes}: whether a name starts with
#   one of them is one look-up per distinct length, however many there are.
_prefix_index(prefixes) := {
	"lengths": sort({count(p) | some p in prefixes}),
	"prefixes": {p: true | some p in prefixes},
}

# METADATA
# description: |
#   [server, prefix] pairs of raw MCP identities as a prefix index whose
#   keys carry the server (see raw_key), so that no entry is grouped by
#   server: a tool is matched with one look-up per distinct prefix length.
raw_index(pairs) := {
	"lengths": sort({count(p) | some [_, p] in pairs}),
	"prefixes": {raw_key(server, p): true | some [server, p] in pairs},
}

# METADATA
# description: |
#   One key for a raw server and a text after it (a tool name or prefix):
#   the server's length first, so that no two pairs share a key.
raw_key(server, text) := concat("", [format_int(count(server), 10), ":", server, text])

# The raw tool name of server starts with one of the prefixes the index
# holds for that server.
_has_raw_prefix(index, server, tool) if {
	some k in index.lengths
	index.prefixes[raw_key(server, substring(tool, 0, k))]
}

# METADATA
# description: name starts with one of the prefixes of the index.
has_prefix(index, name) if {
	some k in index.lengths
	index.prefixes[substring(name, 0, k)]
}

# METADATA
# scope: document
# description: |
#   The compiled list matches the declared tool with canonical name name
#   and record ({kind, server, tool, key?, names?}, see tooleval.declared:
#   key is the name a built-in's aliases resolve to, names all of its
#   names): a few look-ups, whatever the number of entries.
matches(matcher, name, record) if {
	record.kind != "mcp"
	matcher.exact[object.get(record, "key", name)]
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
	_has_raw_prefix(matcher.raw, record.server, record.tool)
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
	not record.names
	has_prefix(matcher.prefixes, name)
}

matches(matcher, _, record) if {
	record.kind != "mcp"
	some n, _ in record.names
	has_prefix(matcher.prefixes, n)
}

# METADATA
# description: The compiled list has an exact entry for the built-in whose name resolves to key (see matches).
exact_hit(matcher, key) if matcher.exact[key]

# METADATA
# description: |
#   The canonical names of the declared tools (an index from
#   tooleval.declared: canonical name to declaration record) that the
#   compiled list matches: the tools matches holds for, computed a whole
#   catalog at a time. Exact entries are looked up from the list's side;
#   the tools are scanned once for each kind of wildcard the list has, and
#   not at all for the kinds it does not have. Undefined for anything but
#   a compiled list.
matched(matcher, tools) := union({
	_matched_exact(matcher, tools),
	{name | some name, _ in matcher.names; tools[name].kind == "mcp"},
	_matched_all_mcp(matcher, tools),
	_matched_raw(matcher, tools),
	_matched_raw_exact(matcher, tools),
	_matched_mcp_name_prefixes(matcher, tools),
	_matched_prefixes(matcher, tools),
}) if {
	_compiled(matcher)
}

# matcher has every member compile gives a list, each of its type.
_compiled(matcher) if {
	is_object(matcher.exact)
	is_object(matcher.names)
	is_boolean(matcher.all_mcp)
	is_object(matcher.raw_exact)
	every index in [matcher.raw, matcher.prefixes, matcher.mcp_name_prefixes] {
		is_array(index.lengths)
		is_object(index.prefixes)
	}
}

# Built-ins whose name is an exact entry, and built-ins with aliases whose
# key is (see matches).
_matched_exact(matcher, tools) := {name |
	some name, _ in matcher.exact
	tools[name].kind != "mcp"
	not tools[name].key
} | {name |
	some name, record in tools
	record.key
	record.kind != "mcp"
	matcher.exact[record.key]
}

_matched_all_mcp(matcher, tools) := {name | some name, record in tools; record.kind == "mcp"} if matcher.all_mcp == true

else := set()

_matched_raw(matcher, tools) := set() if {
	count(matcher.raw.lengths) == 0
} else := {name |
	some name, record in tools
	record.kind == "mcp"
	_has_raw_prefix(matcher.raw, record.server, record.tool)
}

_matched_raw_exact(matcher, tools) := set() if {
	count(matcher.raw_exact) == 0
} else := {name |
	some name, record in tools
	record.kind == "mcp"
	matcher.raw_exact[raw_key(record.server, record.tool)]
}

_matched_mcp_name_prefixes(matcher, tools) := set() if {
	count(matcher.mcp_name_prefixes.lengths) == 0
} else := {name |
	some name, record in tools
	record.kind == "mcp"
	has_prefix(matcher.mcp_name_prefixes, name)
}

_matched_prefixes(matcher, tools) := set() if {
	count(matcher.prefixes.lengths) == 0
} else := {name |
	some name, record in tools
	record.kind != "mcp"
	_has_any_name_prefix(matcher.prefixes, name, record)
}

_has_any_name_prefix(index, name, record) if {
	not record.names
	has_prefix(index, name)
}

_has_any_name_prefix(index, _, record) if {
	some n, _ in record.names
	has_prefix(index, n)
}
