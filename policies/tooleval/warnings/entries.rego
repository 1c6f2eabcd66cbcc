# Warnings about entries that can never match what they were meant to:
# a bare mcp__S in an allow list, an entry that names no declared tool
# of the request being checked, and an MCP entry whose server nothing
# else in the configuration knows (a misspelt server).
package tooleval.warnings

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.subject

# In an allow list a bare mcp__S matches nothing.
_bare_server_warnings(conf, doc) := [_warning(
	"bare_mcp_server_in_allow",
	sprintf(
		"%s lists %q, which matches nothing in an allow list: write %q for every tool of that server",
		[l.field, entry, concat("", [canonical_or_null(entry), "__*"])],
	),
	{"field": l.field, "entry": entry},
) |
	some l in array.concat(_lists(conf), _inline_lists(doc))
	l.kind == "allow"
	is_array(l.list)
	some entry in l.list
	_mcp_server_entry(entry)
]

_mcp_server_entry(entry) if {
	c := canonical_or_null(entry)
	startswith(c, "mcp__")
	pattern.parse(c).kind == "mcp_server"
	not pattern.entry_problem(entry, "allow", {})
}

# The lists of the request's inline layers, as {field, kind, list}.
_inline_lists(doc) := [{"field": sprintf("layers[%d].%s", [i, kind]), "kind": kind, "list": shape.field(layer, kind, [])} |
	some i, layer in shape.list_field(doc, "layers")
	some kind in ["allow", "deny"]
]

# The lists of the configured stages that apply to the request and are
# written for it (its agent's definition, the global and sub-agent
# policies, its tenant, its caller, a captured requester policy), as
# {field, kind, list}. The runtime filters, profiles and read-only mode
# list the tools of a whole runtime, most of which a request never
# declares.
_stage_lists(doc, conf) := [{"field": sprintf("stage %s (%s)", [layer.name, kind]), "kind": kind, "list": object.get(layer, kind, [])} |
	some layer in stages.layers(doc, subject.of(doc, conf), conf)
	_request_stages[layer.name]
	some kind in ["allow", "deny"]
]

_request_stages := {
	"agent_definition", "global_policy", "subagent_policy", "tenant", "caller",
	"requester_policy", "continuation_restricted",
}

# METADATA
# description: |
#   With a request that declares tools: every entry of the lists written
#   for it (see stage_lists, and its inline layers) that can never match
#   one of its declared tools: any allow entry, and MCP deny entries (a
#   deny of a built-in the request does not declare is ordinary; a deny
#   naming a server it does not have is a misspelling waiting to happen).
#   Groups and the runtime exclusions are left out: they name tools of
#   every runtime.
_unmatched_entry_warnings(doc, conf, index) := [_warning(
	"unmatched_entry",
	sprintf("%s lists %q, which matches no declared tool of this request (a misspelt name or server?)", [l.field, entry]),
	{"field": l.field, "entry": entry},
) |
	count(index) > 0
	groups := configuration.groups(conf)
	some l in array.concat(_stage_lists(doc, conf), _inline_lists(doc))
	is_array(l.list)
	some entry in l.list
	is_string(entry)
	not pattern.group_name(entry)
	not pattern.entry_problem(entry, l.kind, groups)
	_checked_entry(l.kind, entry)
	not _agent_tool_entry(l.field, entry)
	count(pattern.matched(pattern.compile([entry], l.kind, configuration.vocabulary(conf)), index)) == 0
]

_checked_entry("allow", _) := true

_checked_entry("deny", entry) if startswith(canonical_or_null(entry), "mcp__")

# An exact entry of the agent definition's tools has its own warning
# (unmatched_agent_tool).
_agent_tool_entry("stage agent_definition (allow)", entry) if not contains(entry, "*")

# METADATA
# description: |
#   Without a request: every MCP entry of the configuration whose server
#   nothing else knows: it is not in config.mcp_servers, no user is bound
#   to it in config.mcp_user_services, and no other list names it.
_unknown_server_warnings(conf, index) := [_warning(
	"unknown_mcp_server",
	sprintf(
		"%s lists %q, but no other part of the configuration knows MCP server %q: check its spelling, or list it in config.mcp_servers",
		[field, entry, server],
	),
	{"field": field, "entry": entry, "server": server},
) |
	count(index) == 0
	mentions := _server_mentions(conf)
	known := _known_servers(conf)
	some [field, entry, server] in mentions
	not known[server]
	count({f | some [f, _, s] in mentions; s == server}) < 2
]

# [field, entry, server] for every MCP entry of the configuration's lists.
_server_mentions(conf) := [[l.field, entry, server] |
	some l in _lists(conf)
	is_array(l.list)
	some entry in l.list
	server := _entry_server(entry)
]

_entry_server(entry) := pattern.parse(c).server if {
	c := canonical_or_null(entry)
	startswith(c, "mcp__")
	not pattern.entry_problem(entry, "deny", {})
}

_known_servers(conf) := {c |
	some s in array.concat(
		configuration.array_at(conf, "mcp_servers"),
		[s | some servers in configuration.object_at(conf, "mcp_user_services"); some s in servers],
	)
	c := canonical_or_null(s)
}
