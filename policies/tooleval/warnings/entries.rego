# Warnings about entries that can never match what they were meant to:
# a bare mcp__S in an allow list, an entry that names no declared tool
# of the request being checked, and an MCP entry whose server nothing
# else in the configuration knows (a misspelt server).
package tooleval.warnings

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration
import data.tooleval.configuration.lists
import data.tooleval.configuration.validate
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
	{"field": l.field, "index": i, "entry": entry},
) |
	some l in array.concat(_lists(conf), _inline_lists(doc))
	l.kind == "allow"
	is_array(l.list)
	some i, entry in l.list
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
# {stage, kind, list, sources}: sources are the configuration paths of
# its entries (tooleval.stages.sources), or [] when they cannot be read.
# The runtime filters, profiles and read-only mode list the tools of a
# whole runtime, most of which a request never declares.
_stage_lists(doc, conf) := [{
	"stage": layer.name,
	"kind": kind,
	"list": object.get(layer, kind, []),
	"sources": object.get(stage_sources, [layer.name, kind], []),
} |
	asking := subject.of(doc, conf)
	stage_sources := _stage_sources(doc, asking, conf)
	some layer in stages.layers(doc, asking, conf)
	_request_stages[layer.name]
	some kind in ["allow", "deny"]
]

_stage_sources(doc, asking, conf) := x if {
	x := stages.sources(doc, asking, conf)
} else := {}

_request_stages := {
	"agent_definition", "global_policy", "subagent_policy", "tenant", "caller",
	"requester_policy", "continuation_restricted",
}

# [list, index] of entry j of a stage's list in the configuration
# (["config.tools.deny", 0]); ["stages.NAME.KIND", j] when the stage's
# sources do not name each entry.
_stage_entry_location(l, j) := [parts[1], to_number(parts[2])] if {
	count(l.sources) == count(l.list)
	parts := regex.find_all_string_submatch_n(`^(.+)\[([0-9]+)\]$`, l.sources[j], 1)[0]
} else := [sprintf("stages.%s.%s", [l.stage, l.kind]), j]

# METADATA
# description: |
#   With a request that declares tools: every entry of the lists written
#   for it (its configured stages, see _stage_lists, and its inline
#   layers) that can never match one of its declared tools: any built-in
#   allow entry, and an MCP entry of a server the request declares tools
#   of (a misspelt tool). A deny of a built-in the request does not
#   declare is ordinary, and so is an MCP entry of a server the request
#   does not have: a misspelt server is unknown_mcp_server. Groups and
#   the runtime exclusions are left out: they name tools of every runtime.
#   The location is the entry's own: config.tenants.acme.tools[3],
#   layers[0].deny[1].
_unmatched_entry_warnings(doc, conf, index) := [_warning(
	"unmatched_entry",
	sprintf("%s lists %q, which matches no declared tool of this request (a misspelt name or server?)", [field, entry]),
	{"field": field, "index": i, "entry": entry},
) |
	count(index) > 0
	groups := lists.groups(conf)
	vocabulary := configuration.vocabulary(conf)
	servers := _declared_servers(index)
	some [field, i, stage, kind, entry] in _request_entries(doc, conf)
	is_string(entry)
	not pattern.group_name(entry)
	not pattern.entry_problem(entry, kind, groups)
	_checked_entry(kind, entry, servers)
	not _agent_tool_entry(stage, entry)
	count(pattern.matched(pattern.compile([entry], kind, vocabulary), index)) == 0
]

# [field, index, stage, kind, entry] for every entry of the lists written
# for the request: the list's location and the entry's index in it
# (stage is null for an inline layer).
_request_entries(doc, conf) := array.concat(
	[array.concat(_stage_entry_location(l, j), [l.stage, l.kind, entry]) |
		some l in _stage_lists(doc, conf)
		is_array(l.list)
		some j, entry in l.list
	],
	[[l.field, j, null, l.kind, entry] |
		some l in _inline_lists(doc)
		is_array(l.list)
		some j, entry in l.list
	],
)

# The canonical servers of a request's declared MCP tools.
_declared_servers(index) := {record.server | some record in index; record.kind == "mcp"}

_checked_entry("allow", entry, _) if not startswith(canonical_or_null(entry), "mcp__")

_checked_entry(_, entry, servers) if servers[_entry_server(entry)]

# An exact entry of the agent definition's tools has its own warning
# (unmatched_agent_tool).
_agent_tool_entry("agent_definition", entry) if not contains(entry, "*")

# METADATA
# description: |
#   Every MCP entry of the configuration whose server nothing else knows:
#   it is not in config.mcp_servers, no user is bound to it in
#   config.mcp_user_services, no other list names it, and the request
#   (if any) declares no tool of it.
_unknown_server_warnings(conf, index) := [_warning(
	"unknown_mcp_server",
	sprintf(
		"%s lists %q, but no other part of the configuration knows MCP server %q: check its spelling, or list it in config.mcp_servers",
		[field, entry, server],
	),
	{"field": field, "index": i, "entry": entry, "server": server},
) |
	mentions := _server_mentions(conf)
	known := _known_servers(conf) | _declared_servers(index)
	some [field, i, entry, server] in mentions
	not known[server]
	count({f | some [f, _, _, s] in mentions; s == server}) < 2
]

# [field, index, entry, server] for every MCP entry of the configuration's lists.
_server_mentions(conf) := [[l.field, i, entry, server] |
	some l in _lists(conf)
	is_array(l.list)
	some i, entry in l.list
	server := _entry_server(entry)
]

_entry_server(entry) := pattern.parse(c).server if {
	c := canonical_or_null(entry)
	startswith(c, "mcp__")
	not pattern.entry_problem(entry, "deny", {})
}

_known_servers(conf) := {c |
	some s in array.concat(
		validate.array_at(conf, "mcp_servers"),
		[s | some servers in validate.object_at(conf, "mcp_user_services"); some s in servers],
	)
	c := canonical_or_null(s)
}
