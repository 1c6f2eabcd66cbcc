# METADATA
# title: MCP service allowlists
# description: |
#   The mcp_services and mcp_user_services stages, documented in
#   docs/configuration.md, "MCP service allowlists (`mcp_services`,
#   `mcp_user_services`)". No preset sets them.
#
#     input.mcp_services           the MCP servers this request may use
#                                  (absent or null: any)         (mcp_services)
#     config.mcp_user_services     when an object, binds MCP servers to user
#                                  identity: the servers of input.caller.user
#                                  (its key compared canonically);
#                                  a request with no user, or an unknown one,
#                                  gets no MCP tool              (mcp_user_services)
#
#   Both admit only MCP tools of the listed raw servers (compared
#   canonically, never by the sanitized function name) and let every
#   non-MCP tool through untouched: the request's other tools are the
#   business of the other layers.
package tooleval.stages.mcp

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration.tables
import data.tooleval.shape
import data.tooleval.subject

_mcp_service_stages(doc, conf) := array.concat(_request_services_stage(doc), _user_services_stage(doc, conf))

_request_services_stage(doc) := [_services_stage("mcp_services", servers)] if {
	servers := shape.field(doc, "mcp_services", null)
	is_array(servers)
} else := []

_user_services_stage(doc, conf) := [_services_stage("mcp_user_services", _user_servers(doc, users))] if {
	users := shape.field(conf, "mcp_user_services", null)
	is_object(users)
} else := []

# The servers of the caller's user: the entry of config.mcp_user_services
# its name selects (canonically, as every name-keyed table is read).
_user_servers(doc, users) := servers if {
	servers := tables.table_entry(users, _user(doc))
	is_array(servers)
} else := []

_user(doc) := shape.field(subject.caller(doc), "user", null)

# The stage's allow is a set of canonical raw server names, matched
# directly against each MCP tool's server (stages.compile), never written
# as mcp__SERVER__* entries: a server name is not parsed by the grammar.
_services_stage(name, servers) := {
	"name": name,
	"allow": [],
	"servers": {c | some s in servers; c := canonical_or_null(s); _valid_server(s)},
	"deny": [],
	"exempt": "non_mcp",
}

# A server name: a non-empty string with a canonical form.
_valid_server(s) if {
	is_string(s)
	not canonical_or_null(s) in {null, ""}
}

_mcp_service_errors(doc) := [] if {
	shape.field(doc, "mcp_services", null) == null
} else := [shape.problem("invalid_field", "mcp_services must be an array of MCP server names or null", {"field": "mcp_services"})] if {
	not is_array(doc.mcp_services)
} else := [shape.problem(
	"invalid_mcp_service",
	"an MCP service is a non-empty server name with a canonical form",
	{"field": "mcp_services", "index": i, "entry": s},
) |
	some i, s in doc.mcp_services
	not _valid_server(s)
]

# A request reads the servers of its own user only, and looks its user
# up in the table.
_mcp_request_errors(doc, conf) := [] if {
	shape.field(conf, "mcp_user_services", null) == null
} else := _mcp_config_errors({"mcp_user_services": object.get(conf, "mcp_user_services", null)}) if {
	not is_object(conf.mcp_user_services)
} else := array.concat(
	tables.lookup_errors(conf.mcp_user_services, "config.mcp_user_services", [["caller.user", _user(doc)]]),
	_own_servers_errors(doc, conf),
)

_own_servers_errors(doc, conf) := _mcp_config_errors({"mcp_user_services": {key: conf.mcp_user_services[key]}}) if {
	key := tables.table_key(conf.mcp_user_services, _user(doc))
} else := []

_mcp_config_errors(conf) := [] if {
	shape.field(conf, "mcp_user_services", null) == null
} else := [shape.problem(
	"invalid_config_value",
	"config.mcp_user_services must be an object or null",
	{"field": "config.mcp_user_services"},
)] if {
	not is_object(conf.mcp_user_services)
} else := array.concat(tables.key_errors(conf.mcp_user_services, "config.mcp_user_services"), _server_errors(conf.mcp_user_services))

_server_errors(users) := [shape.problem(
	"invalid_mcp_service",
	"an MCP service is a non-empty server name with a canonical form",
	{"field": sprintf("config.mcp_user_services.%s", [user]), "index": i, "entry": s},
) |
	some user, servers in users
	some i, s in _array_or_invalid(servers)
	not _valid_server(s)
]

# array_or_invalid is the array itself, or a one-element array holding
# a value that is not a server, so a non-array is reported too.
_array_or_invalid(x) := x if is_array(x)

else := [null]

# METADATA
# description: The MCP service stages that apply to the request, in order.
layers(doc, _, conf) := _mcp_service_stages(doc, conf)

# METADATA
# description: What is wrong with the request's MCP services, and with the user binding it reads.
request_errors(doc, _, conf) := array.concat(_mcp_service_errors(doc), _mcp_request_errors(doc, conf))

# METADATA
# description: Every error in config.mcp_user_services.
config_errors(conf) := _mcp_config_errors(conf)

# METADATA
# description: |
#   Where the entries of this package's stages come from: none by entry
#   (their allow is a set of servers, which tooleval.tracing names by the
#   server that matched).
sources(_, _, _) := {}
