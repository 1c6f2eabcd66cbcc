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
#
#   The package is cut at its seams, one file each: what an entry may be
#   (grammar.rego: validating and parsing entries), compiling a list into
#   a matcher (compile.rego), matching a tool against compiled matchers
#   (match.rego), and the groups a list may name (groups.rego).
package tooleval.pattern

import data.tooleval.canonical.canonical
import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_canonical
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
	simple_list(list, kind)
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
#   The canonical forms of a list (an array) of the given kind ("allow"
#   or "deny"), joined by new lines, when each of its at most
#   shape.max_entries entries is a valid entry of one of these simple
#   forms, written in plain characters (ASCII letters, digits, _, . and -,
#   and the * that ends a wildcard) and at most 256 characters long:
#
#   | form       | entry                        | lists       |
#   | name       | N, not starting with mcp__   | allow, deny |
#   | wildcard   | N*, N not starting with mcp__ | deny       |
#   | all_mcp    | mcp__*                       | allow, deny |
#   | mcp_prefix | mcp__S__P*                   | allow, deny |
#   | mcp_tool   | mcp__S__T                    | allow, deny |
#   | mcp_server | mcp__B, B without __         | allow, deny |
#
#   S is a server as the grammar reads it: not empty, no __ in it and not
#   ending with _, so that the __ after it is the first __ after mcp__.
#   Undefined for any other list (groups, other characters, entries with a
#   problem, anything that is not an array of strings): those are read
#   entry by entry. Most lists are simple; one regular expression over a
#   simple list's text in lower case checks it (once the text is
#   known to be ASCII: a case-insensitive match would let in non-ASCII
#   letters such as the long s, which fold to ASCII ones), one lower over
#   the joined list canonicalizes it (the canonical form of plain
#   characters is their lower case), and simple_forms sorts it by form, a
#   few built-in calls a list instead of several rule evaluations per
#   entry.
simple_list(list, kind) := lower(concat("\n", list)) if {
	is_array(list)
	count(list) <= shape.max_entries

	# The list as Rego writes it (sprintf's %v, written straight from the
	# value; json.marshal would copy it into Go values first): strings
	# quoted, ", " between them, an entry with a quote, a backslash or a
	# character Go does not print as it is written with a backslash.
	text := sprintf("%v", [list])
	not regex.match(`[^",]{257}|[^\x00-\x7f]`, text)
	regex.match(_simple_list_regex[kind], lower(text))
}

# METADATA
# scope: document
# description: |
#   The entries of a simple list of the given kind (simple_list's text)
#   sorted by form, each list in the order of the entries:
#
#   | member       | holds                         |
#   | names        | the canonical names           |
#   | wildcards    | the N of each N*              |
#   | all_mcp      | whether the list has mcp__*   |
#   | mcp_prefixes | [entry, S, P] for mcp__S__P*  |
#   | mcp_tools    | [entry, S, T] for mcp__S__T   |
#   | mcp_servers  | [entry, B] for mcp__B         |
#
#   An allow list has no wildcards, and its mcp__B entries match no tool
#   (see compile): for an allow list both are [], not looked for.
simple_forms(text, "allow") := {
	"names": regex.find_n(_form_lines.name, text, -1),
	"wildcards": [],
	"all_mcp": regex.match(_form_lines.all_mcp, text),
	"mcp_prefixes": regex.find_all_string_submatch_n(_form_lines.mcp_prefix, text, -1),
	"mcp_tools": regex.find_all_string_submatch_n(_form_lines.mcp_tool, text, -1),
	"mcp_servers": [],
}

simple_forms(text, "deny") := {
	"names": regex.find_n(_form_lines.name, text, -1),
	"wildcards": [n | some [_, n] in regex.find_all_string_submatch_n(_form_lines.wildcard, text, -1)],
	"all_mcp": regex.match(_form_lines.all_mcp, text),
	"mcp_prefixes": regex.find_all_string_submatch_n(_form_lines.mcp_prefix, text, -1),
	"mcp_tools": regex.find_all_string_submatch_n(_form_lines.mcp_tool, text, -1),
	"mcp_servers": regex.find_all_string_submatch_n(_form_lines.mcp_server, text, -1),
}

# The forms of simple_list as regular expressions over canonical forms
# (lower case), capturing N, S, P, T and B. A name (_not_mcp) is one of
# mcp__'s proper prefixes, or a name that leaves mcp__ at its first,
# second, ..., fifth character. A server (_server) is not empty and each
# _ in it is followed by another character, not by _.
_forms := {
	"name": _not_mcp,
	"wildcard": sprintf(`(%s)\*`, [_not_mcp]),
	"all_mcp": `mcp__\*`,
	"mcp_prefix": sprintf(`mcp__%s__([a-z0-9_.-]*)\*`, [_server]),
	"mcp_tool": sprintf(`mcp__%s__([a-z0-9_.-]*)`, [_server]),
	"mcp_server": `mcp__(_|(?:_?[a-z0-9.-])+_?)`,
}

_not_mcp := `(?:m(?:c(?:p_?)?)?|(?:[a-ln-z0-9_.-]|m[abd-z0-9_.-]|mc[a-oq-z0-9_.-]|mcp[a-z0-9.-]|mcp_[a-z0-9.-])[a-z0-9_.-]*)`

_server := `((?:_?[a-z0-9.-])+)`

# The forms each kind of list may hold.
_kind_forms := {
	"allow": ["name", "all_mcp", "mcp_prefix", "mcp_tool", "mcp_server"],
	"deny": ["name", "wildcard", "all_mcp", "mcp_prefix", "mcp_tool", "mcp_server"],
}

# Each form as a pattern that finds the lines of a joined list in that form.
_form_lines[form] := sprintf(`(?m)^%s$`, [re]) if some form, re in _forms

# The text of a simple list of each kind (see simple_list), in lower case.
_simple_list_regex[kind] := sprintf(`^\[(?:"%s"(?:, "%s")*)?\]$`, [entry, entry]) if {
	some kind, forms in _kind_forms
	entry := sprintf("(?:%s)", [concat("|", [_forms[f] | some f in forms])])
}
