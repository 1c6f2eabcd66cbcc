# Request-level MCP service allowlists (seed 004).
#
#   input.mcp_services           the MCP servers this request may use
#                                (absent or null: any)         (mcp_services)
#   config.mcp_user_services     when an object, binds MCP servers to user
#                                identity: the servers of input.caller.user;
#                                a request with no user, or an unknown one,
#                                gets no MCP tool              (mcp_user_services)
#
# Both admit only MCP tools of the listed raw servers (compared
# canonically) and let every non-MCP tool through untouched: the
# request's other tools are the business of the other layers.
package tooleval.stages

import data.tooleval.canonical.canonical_or_null
import data.tooleval.shape

mcp_service_stages(doc, conf) := array.concat(request_services_stage(doc), user_services_stage(doc, conf))

request_services_stage(doc) := [services_stage("mcp_services", servers)] if {
	servers := shape.field(doc, "mcp_services", null)
	is_array(servers)
} else := []

user_services_stage(doc, conf) := [services_stage("mcp_user_services", user_servers(doc, users))] if {
	users := shape.field(conf, "mcp_user_services", null)
	is_object(users)
} else := []

user_servers(doc, users) := servers if {
	servers := users[shape.field(caller(doc), "user", null)]
	is_array(servers)
} else := []

services_stage(name, servers) := {
	"name": name,
	"allow": [sprintf("mcp__%s__*", [s]) | some s in servers; valid_server(s)],
	"deny": [],
	"exempt": "non_mcp",
}

# A server an MCP wildcard can name: a string with a canonical form,
# without * or the __ that ends a server in mcp__SERVER__*.
valid_server(s) if {
	is_string(s)
	c := canonical_or_null(s)
	c != null
	c != ""
	not contains(c, "__")
	not contains(c, "*")
}

mcp_service_errors(doc) := [] if {
	shape.field(doc, "mcp_services", null) == null
} else := [shape.problem("invalid_field", "mcp_services must be an array of MCP server names or null", {"field": "mcp_services"})] if {
	not is_array(doc.mcp_services)
} else := [shape.problem(
	"invalid_mcp_service",
	"an MCP service is a server name with a canonical form, without * or __",
	{"field": "mcp_services", "index": i, "entry": s},
) |
	some i, s in doc.mcp_services
	not valid_server(s)
]

# A request reads the servers of its own user only.
mcp_request_errors(doc, conf) := [] if {
	shape.field(conf, "mcp_user_services", null) == null
} else := mcp_config_errors({"mcp_user_services": {user: servers}}) if {
	user := shape.field(caller(doc), "user", null)
	servers := conf.mcp_user_services[user]
} else := mcp_config_errors({"mcp_user_services": object.get(conf, "mcp_user_services", null)}) if {
	not is_object(conf.mcp_user_services)
} else := []

mcp_config_errors(conf) := [] if {
	shape.field(conf, "mcp_user_services", null) == null
} else := [shape.problem(
	"invalid_config_value",
	"config.mcp_user_services must be an object or null",
	{"field": "config.mcp_user_services"},
)] if {
	not is_object(conf.mcp_user_services)
} else := [shape.problem(
	"invalid_mcp_service",
	"an MCP service is a server name with a canonical form, without * or __",
	{"field": sprintf("config.mcp_user_services.%s", [user]), "index": i, "entry": s},
) |
	some user, servers in conf.mcp_user_services
	some i, s in array_or_invalid(servers)
	not valid_server(s)
]

# array_or_invalid is the array itself, or a one-element array holding
# a value that is not a server, so a non-array is reported too.
array_or_invalid(x) := x if is_array(x)

else := [null]
