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
import data.tooleval.canonical.plain_name
import data.tooleval.shape

# METADATA
# title: records
# description: |
#   One record per declaration, in order:
#   {index, name, canonical, kind, server, tool}. canonical, server and
#   tool are canonical forms, or null where there is none.
records(declared) := [record(i, d) | some i, d in declared]

record(i, d) := {
	"index": i,
	"name": d.name,
	"canonical": lower(d.name),
	"kind": kind(d),
	"server": null,
	"tool": null,
	"plain": true,
} if {
	plain_builtin(d)
} else := {
	"index": i,
	"name": d.name,
	"canonical": lower(d.name),
	"kind": "mcp",
	"server": lower(d.mcp.server),
	"tool": lower(d.mcp.tool),
	"plain": true,
} if {
	plain_mcp(d)
} else := {
	"index": i,
	"name": shape.field(d, "name", null),
	"canonical": canonical_or_null(shape.field(d, "name", null)),
	"kind": kind(d),
	"server": canonical_or_null(shape.field(shape.field(d, "mcp", {}), "server", null)),
	"tool": canonical_or_null(shape.field(shape.field(d, "mcp", {}), "tool", null)),
	"plain": false,
}

# A plain built-in or peer agent: plain name not starting with mcp__, no
# mcp member, agent absent or a boolean. It has no problem to report.
plain_builtin(d) if {
	is_object(d)
	plain_name(d.name)
	not startswith(lower(d.name), "mcp__")
	not shape.present(d, "mcp")
	is_boolean(shape.field(d, "agent", false))
}

# A plain MCP tool: plain name, server and tool, and not also an agent.
plain_mcp(d) if {
	is_object(d)
	plain_name(d.name)
	plain_name(d.mcp.server)
	plain_name(d.mcp.tool)
	shape.field(d, "agent", false) == false
}

kind(d) := "mcp" if {
	shape.present(d, "mcp")
} else := "agent" if {
	shape.field(d, "agent", false) == true
} else := "builtin"

# METADATA
# title: errors
# description: Every configuration error among the declarations.
errors(declared, records) := array.concat(
	[e |
		some r in records
		some e in record_errors(declared[r.index], r)
	],
	[duplicate_error(r) |
		duplicates := duplicate_names(records)
		some r in records
		duplicates[r.canonical]
	],
)

record_errors(d, r) := [] if {
	r.plain
} else := [shape.problem(code, message, {"field": "declared", "index": r.index, "name": r.name})] if {
	[code, message] := record_problem(d, r)
} else := []

record_problem(d, r) := ["invalid_declaration", "a declaration must be an object"] if {
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
	not valid_mcp(shape.field(d, "mcp", {}))
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

valid_mcp(m) if {
	is_object(m)
	is_string(m.server)
	is_string(m.tool)
}

duplicate_error(r) := shape.problem(
	"duplicate_declaration",
	sprintf("another declaration has the same canonical name %q", [r.canonical]),
	{"field": "declared", "index": r.index, "name": r.name, "canonical": r.canonical},
)

# METADATA
# title: duplicate_names
# description: The canonical names that more than one declaration has.
duplicate_names(records) := {name |
	names := sort([r.canonical | some r in records; is_string(r.canonical)])
	some i, name in names
	i > 0
	name == names[i - 1]
}

# METADATA
# title: index
# description: |
#   The valid, unambiguous declarations keyed by canonical name. A
#   declaration with an error is left out (the error refuses every call).
index(declared, records) := {r.canonical: r |
	duplicates := duplicate_names(records)
	some r in records
	valid(declared[r.index], r)
	not duplicates[r.canonical]
}

valid(d, r) if {
	r.plain
} else if {
	not record_problem(d, r)
}
