# METADATA
# title: Declared tools
# description: |
#   The tool declarations the model was shown on this request, indexed by
#   canonical name. A declaration is a built-in ({name}), an MCP tool
#   ({name, mcp: {server, tool}}, with the registry's raw names) or a peer
#   agent ({name, agent: true}).
#
#   Configuration errors: a declaration that is malformed or whose names
#   have no canonical form, two declarations with one canonical name
#   (which one a call reached would depend on order), and a built-in or
#   peer agent whose canonical name starts with mcp__ (it would
#   impersonate an MCP tool).
package tooleval.declared

import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_canonical
import data.tooleval.shape

# METADATA
# description: |
#   One record per declaration, in order:
#   {index, name, canonical, kind, server, tool}. canonical, server and
#   tool are canonical forms, or null where there is none.
records(declared) := [_record(i, d) | some i, d in declared]

_record(i, d) := {
	"index": i,
	"name": d.name,
	"canonical": c,
	"kind": kind,
	"server": null,
	"tool": null,
	"plain": true,
} if {
	c := plain_canonical(d.name)
	kind := _plain_kind(d, c)
} else := {
	"index": i,
	"name": d.name,
	"canonical": c,
	"kind": "mcp",
	"server": server,
	"tool": tool,
	"plain": true,
} if {
	c := plain_canonical(d.name)
	server := plain_canonical(d.mcp.server)
	tool := plain_canonical(d.mcp.tool)
	shape.field(d, "agent", false) == false
} else := {
	"index": i,
	"name": shape.field(d, "name", null),
	"canonical": canonical_or_null(shape.field(d, "name", null)),
	"kind": _kind(d),
	"server": canonical_or_null(shape.field(shape.field(d, "mcp", {}), "server", null)),
	"tool": canonical_or_null(shape.field(shape.field(d, "mcp", {}), "tool", null)),
	"plain": false,
}

# The kind of a plain built-in or peer agent with canonical name c: no
# mcp member, a name not starting with mcp__, agent absent or a boolean.
# It has no problem to report. Undefined for anything else.
_plain_kind(d, c) := kind if {
	not startswith(c, "mcp__")
	not shape.present(d, "mcp")
	kind := _agent_kind[shape.field(d, "agent", false)]
}

_agent_kind := {true: "agent", false: "builtin"}

_kind(d) := "mcp" if {
	shape.present(d, "mcp")
} else := "agent" if {
	shape.field(d, "agent", false) == true
} else := "builtin"

# METADATA
# description: |
#   The declarations read in one pass: {errors, tools}, where errors is
#   every configuration error among them and tools the index of the valid
#   ones (see index). Most declarations are plain (see clean), and are
#   read without building a record for each.
read(declared, names) := {"errors": [], "tools": tools} if {
	tools := _plain_list_tools(declared, names)
} else := _read_each(declared, names)

# read, declaration by declaration: a plain pair for each when all of
# them have one, else a record for each.
_read_each(declared, names) := {
	"errors": [],
	"tools": {c: _with_names(c, record, names) | some [c, record] in pairs},
} if {
	pairs := _plain_pairs(declared)
	_all_plain_and_distinct(declared, pairs)
} else := {
	"errors": _errors(declared, every_record),
	"tools": {r.canonical: _with_names(r.canonical, _slim(r), names) |
		duplicates := _duplicate_names(every_record)
		some r in every_record
		_valid(declared[r.index], r)
		not duplicates[r.canonical]
	},
} if {
	every_record := records(declared)
}

# METADATA
# description: Every configuration error among the declarations (read(declared, {}).errors).
errors(declared) := read(declared, {}).errors

_errors(declared, records) := array.concat(
	[e |
		some r in records
		some e in _record_errors(declared[r.index], r)
	],
	[_duplicate_error(r) |
		duplicates := _duplicate_names(records)
		some r in records
		duplicates[r.canonical]
	],
)

_record_errors(d, r) := [] if {
	r.plain
} else := [shape.problem(code, message, {"field": "declared", "index": r.index, "name": r.name})] if {
	[code, message] := _record_problem(d, r)
} else := []

_record_problem(d, r) := ["invalid_declaration", "a declaration must be an object"] if {
	not is_object(d)
} else := ["invalid_declaration", "name must be a string"] if {
	not is_string(r.name)
} else := ["uncanonicalizable_name", "the name has no exact canonical form"] if {
	r.canonical == null
} else := ["invalid_declaration", "the canonical name is empty"] if {
	r.canonical == ""
} else := ["invalid_declaration", "agent must be true or false"] if {
	not is_boolean(shape.field(d, "agent", false))
} else := ["invalid_declaration", "a declaration is an MCP tool or a peer agent, not both"] if {
	r.kind == "mcp"
	shape.field(d, "agent", false) == true
} else := ["invalid_declaration", "mcp must be an object with string server and tool"] if {
	r.kind == "mcp"
	not _valid_mcp(shape.field(d, "mcp", {}))
} else := ["uncanonicalizable_name", "the MCP server or tool name has no exact canonical form"] if {
	r.kind == "mcp"
	null in {r.server, r.tool}
} else := ["invalid_declaration", "the MCP server name is empty"] if {
	r.kind == "mcp"
	r.server == ""
} else := ["builtin_impersonates_mcp", "only an MCP tool may have a name that starts with mcp__"] if {
	r.kind != "mcp"
	startswith(r.canonical, "mcp__")
}

_valid_mcp(m) if {
	is_object(m)
	is_string(m.server)
	is_string(m.tool)
}

_duplicate_error(r) := shape.problem(
	"duplicate_declaration",
	sprintf("another declaration has the same canonical name %q", [r.canonical]),
	{"field": "declared", "index": r.index, "name": r.name, "canonical": r.canonical},
)

# METADATA
# description: The canonical names that more than one declaration has.
_duplicate_names(records) := {name |
	names := sort([r.canonical | some r in records; is_string(r.canonical)])
	some i, name in names
	i > 0
	name == names[i - 1]
}

# METADATA
# description: |
#   The valid, unambiguous declarations keyed by canonical name, as
#   {name, kind, server, tool}, and for a built-in whose name has aliases
#   (names, a table from tooleval.configuration.alias_names_table) also
#   key (the name its aliases resolve to) and names (all of its names). A
#   declaration with an error is left out (the error refuses every call).
#   read(declared, names).tools.
index(declared, names) := read(declared, names).tools

# METADATA
# description: |
#   The declarations have no error: every one is plain (see _plain_pair)
#   and no two share a canonical name. Most requests are like this; it is
#   checked without building a record per declaration.
clean(declared) if _all_plain_and_distinct(declared, _plain_pairs(declared))

_all_plain_and_distinct(declared, pairs) if {
	count(pairs) == count(declared)
	count({c | some [c, _] in pairs}) == count(pairs)
}

_plain_pairs(declared) := [p | some d in declared; p := _plain_pair(d)]

# [canonical name, record] of a declaration that has nothing to report:
# a built-in or peer agent with a plain name not starting with mcp__ and
# agent absent or a boolean, or an MCP tool whose name, server and tool
# are plain and that is not also an agent. Undefined for anything else.
_plain_pair(d) := [c, {"name": d.name, "kind": kind, "server": null, "tool": null}] if {
	c := plain_canonical(d.name)
	not startswith(c, "mcp__")
	object.get(d, "mcp", null) == null
	kind := _agent_kind[object.get(d, "agent", false)]
} else := [c, {"name": d.name, "kind": "mcp", "server": server, "tool": tool}] if {
	c := plain_canonical(d.name)
	server := plain_canonical(d.mcp.server)
	tool := plain_canonical(d.mcp.tool)
	object.get(d, "agent", false) == false
}

# METADATA
# description: |
#   The index (see read) of a declaration list written the plain way,
#   read a whole list at a time: a constant number of built-in calls over
#   its text, whatever the number of declarations, and one comprehension
#   step per name with an upper-case letter. Each declaration is {name},
#   {agent, name} with agent a boolean, or {mcp: {server, tool}, name},
#   possibly with agent false, every name a plain name
#   (tooleval.canonical.plain_name, whose canonical form is its lower
#   case, so the lower case of the whole text holds every canonical form);
#   no built-in or peer agent has a canonical name starting with mcp__,
#   and no two declarations share a canonical name. Undefined for any
#   other list, which read then takes declaration by declaration.
_plain_list_tools(declared, names) := object.union(tools, _aliased(tools, names)) if {
	# A list: an object's text can look like one declaration inside the
	# brackets added next.
	is_array(declared)

	# The list inside another one (see _plain_list_regex).
	text := sprintf("%v", [[declared]])
	regex.match(_plain_list_regex, text)
	regex.match(_short_strings_regex, text)
	lowered := lower(text)
	not _builtin_named_mcp(lowered)
	by_name := json.unmarshal(_index_text(lowered))

	# A JSON object has one member per name: fewer members than
	# declarations means two declarations share a canonical name.
	count(by_name) == count(declared)
	tools := object.union(by_name, _original_names(text))
}

# The text of a list of plain declarations (see _plain_list_tools),
# strings of any length, as Rego writes a value (sprintf's %v): members
# in key order, ": " after a member name and ", " between elements,
# strings quoted as Go quotes them (a plain name as it is, anything else
# with a backslash or a character no plain name has). %v writes it
# straight from the value, where json.marshal would first copy the whole
# list into Go maps. The list goes inside another one, [[declared]]: %v
# writes a string unquoted, and a string must never read as a list.
# Every alternative is known from its next character, so that Go's
# regexp matches it in one pass. The forms, in member order:
#   {"agent": true, "name": S}  {"agent": false, "name": S}  {"name": S}
#   {"agent": false, "mcp": {"server": S, "tool": S}, "name": S}
#   {"mcp": {"server": S, "tool": S}, "name": S}
_plain_list_regex := concat("", [`^\[\[(`, declaration, `(, `, declaration, `)*)?\]\]$`]) if {
	s := `"[A-Za-z0-9_.-]+"`

	# after the opening quote of its member name
	mcp := concat("", [`mcp": \{"server": `, s, `, "tool": `, s, `\}, "name": `, s])
	declaration := concat("", [
		`\{"(agent": (true, "name": `, s, `|false, "(name": `, s, `|`, mcp, `))|name": `, s, `|`, mcp, `)\}`,
	])
}

# No string of the text is longer than a plain name may be (256
# characters): kept out of _plain_list_regex, whose one-pass matcher a
# counted repetition in each of its strings would disable.
_short_strings_regex := `^([^"]|"[^"]{0,256}")*$`

# A built-in or peer agent whose (lower-case) name starts with mcp__: its
# name follows the opening brace or "agent": true, / "agent": false, (an
# MCP tool's follows its mcp member's closing brace).
_builtin_named_mcp(lowered) if contains(lowered, `{"name": "mcp__`)

_builtin_named_mcp(lowered) if contains(lowered, `e, "name": "mcp__`)

# The index of a lower-case plain list (its text, see _plain_list_regex)
# as the text of a JSON object: each declaration becomes "canonical
# name": {kind, server, tool, name}, with its name in lower case
# (_original_names restores the others). First the start of each
# declaration, which tells its form, becomes the start of its record
# (_record_starts, one pass over the text with no regular expression);
# then one replacement puts each record's name before it as its key.
_index_text(lowered) := concat("", ["{", trim_suffix(trim_prefix(keyed, "[["), "]]"), "}"]) if {
	records := strings.replace_n(_record_starts, lowered)
	keyed := regex.replace(records, `\{("kind":[^{}]*"name": ("[^"]+"))\}`, `${2}:{${1}}`)
}

# The start of each form of a plain declaration (see _plain_list_regex)
# and the start of its record. An MCP tool's server and tool members stay
# where they are and its name follows them:
#   {"mcp": {"server": S, "tool": T}, "name": N}
#   -> {"kind":"mcp","server": S, "tool": T,"name": N}
# No start is the beginning of another at the same place, so which one
# matches never depends on their order.
_record_starts := {
	`{"agent": true, "name": `: `{"kind":"agent","server":null,"tool":null,"name": `,
	`{"agent": false, "name": `: `{"kind":"builtin","server":null,"tool":null,"name": `,
	`{"name": `: `{"kind":"builtin","server":null,"tool":null,"name": `,
	`{"agent": false, "mcp": {`: `{"kind":"mcp",`,
	`{"mcp": {`: `{"kind":"mcp",`,
	`}, "name": `: `,"name": `,
}

# {canonical name: {name}} for each name of a plain list (its text) with
# an upper-case letter: the name as declared.
_original_names(text) := {lower(name): {"name": name} |
	some [_, name] in regex.find_all_string_submatch_n(`"name": "([A-Za-z0-9_.-]*[A-Z][A-Za-z0-9_.-]*)"`, text, -1)
}

# The built-ins of tools whose name has aliases (names), with them (see
# _with_names).
_aliased(tools, names) := {c: object.union(tools[c], aliases) |
	some c, aliases in names
	tools[c].kind != "mcp"
}

_slim(r) := {"name": r.name, "kind": r.kind, "server": r.server, "tool": r.tool}

_with_names(c, record, names) := object.union(record, names[c]) if {
	record.kind != "mcp"
	names[c]
} else := record

_valid(d, r) if {
	r.plain
} else if {
	not _record_problem(d, r)
}
