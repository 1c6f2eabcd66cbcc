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
import data.tooleval.canonical.plain_name_chars
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
#   checked a whole list at a time: a few built-in calls over its JSON text
#   instead of several rule evaluations per declaration. Each declaration
#   is {name}, {agent, name} with agent a boolean, or {mcp: {server,
#   tool}, name}, possibly with agent false, every name a plain name
#   (tooleval.canonical.plain_name); no built-in or peer agent has a
#   canonical name starting with mcp__, and no two declarations share a
#   canonical name. Undefined for any other list, which read then takes
#   declaration by declaration.
_plain_list_tools(declared, names) := object.union_n([
	mcp,
	builtins,
	{c: object.union(builtins[c], aliases) | some c, aliases in names; builtins[c]},
]) if {
	regex.match(_plain_list_text, json.marshal(declared))
	count({lower(d.name) | some d in declared}) == count(declared)
	builtins := {lower(d.name): {"name": d.name, "kind": _agent_kind[object.get(d, "agent", false)], "server": null, "tool": null} |
		some d in declared
		not d.mcp
	}
	not regex.match(`(^|\n)mcp__`, concat("\n", object.keys(builtins)))
	mcp := {lower(d.name): {"name": d.name, "kind": "mcp", "server": lower(d.mcp.server), "tool": lower(d.mcp.tool)} |
		some d in declared
		d.mcp
	}
}

# The JSON text (json.marshal writes members in key order) of a list of
# plain declarations: see _plain_list_tools.
_plain_list_text := concat("", [`^\[(`, _plain_declaration, `(,`, _plain_declaration, `)*)?\]$`])

_plain_declaration := concat("", [
	`(\{("agent":(true|false),)?"name":`, _plain_string, `\}`,
	`|\{("agent":false,)?"mcp":\{"server":`, _plain_string, `,"tool":`, _plain_string, `\},"name":`, _plain_string, `\})`,
])

_plain_string := concat("", [`"`, plain_name_chars, `"`])

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
