# Matching declared tools against a compiled list (compile.rego): one
# tool (matches), or a whole catalog at a time (matched).
package tooleval.pattern

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
#   names): a few look-ups, whatever the number of entries. A tool of
#   kind mcp is matched by its name and its raw identity, a tool of any
#   other kind by its names and deny prefixes (_hit, whose rules say in
#   their first argument which kind they match: a rule for the other
#   kind fails on its head, before its body; OPA's rule index does not
#   look at a constant argument).
matches(matcher, name, record) if _hit(record.kind == "mcp", matcher, name, record)

# The ways a compiled list matches a tool (see matches), for an MCP tool
# (true) and for any other (false). Each rule starts with a look-up that
# fails when the list has no entry of its kind.
_hit(false, matcher, name, record) if matcher.exact[object.get(record, "key", name)]

_hit(false, matcher, name, record) if {
	matcher.prefixes.lengths[0]
	_has_any_name_prefix(matcher.prefixes, name, record)
}

_hit(true, matcher, name, _) if matcher.names[name]

_hit(true, matcher, _, _) if matcher.all_mcp

_hit(true, matcher, _, record) if {
	matcher.raw.lengths[0]
	_has_raw_prefix(matcher.raw, record.server, record.tool)
}

_hit(true, matcher, _, record) if {
	matcher.raw_exact != {}
	matcher.raw_exact[raw_key(record.server, record.tool)]
}

_hit(true, matcher, name, _) if {
	matcher.mcp_name_prefixes.lengths[0]
	has_prefix(matcher.mcp_name_prefixes, name)
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
