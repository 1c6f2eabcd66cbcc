# METADATA
# title: Tenant plans and caller scopes
# description: |
#   The stages of the tenant and of the caller (tooleval.subject.caller),
#   documented in docs/configuration.md, "Tenant plans and caller scopes
#   (`tenants`, `scopes`)". No preset sets them.
#
#     input.tenant          the tenant id; config.tenants[id].tools is what
#                           its plan entitles it to (null: every tool)
#     input.caller.scopes   the caller's scopes; config.scopes[scope] lists
#                           the tools a scope covers, and a scope that is not
#                           mapped there covers the tool of the same name
#
#   A tenant or caller that states nothing (absent or null) narrows
#   nothing; one that states an empty set refuses everything; an unknown
#   tenant id is an error (unknown_tenant), so every call is refused.
package tooleval.stages.tenants

import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_name
import data.tooleval.configuration.lists
import data.tooleval.configuration.tables
import data.tooleval.configuration.validate
import data.tooleval.shape
import data.tooleval.subject

_tenant_stage(doc, conf) := [] if {
	shape.field(doc, "tenant", null) == null
} else := [{"name": "tenant", "allow": shape.field(plan, "tools", null), "deny": []}] if {
	plan := tables.table_entry(shape.field(conf, "tenants", {}), doc.tenant)
	is_object(plan)
} else := [{"name": "tenant", "allow": [], "deny": []}]

_caller_stage(doc, conf) := [{
	"name": "caller",
	"allow": [e |
		some scope in scopes
		some e in _scope_tools(scope, conf)
	],
	"deny": [],
}] if {
	scopes := shape.field(subject.caller(doc), "scopes", null)
	is_array(scopes)
} else := []

# A mapped scope covers the tools config.scopes lists for it; any other
# scope covers the tool of its own name, taken literally (a scope is
# never read as a wildcard or group), and nothing when it is not a plain
# tool name.
_scope_tools(scope, conf) := tools if {
	tools := tables.table_entry(shape.field(conf, "scopes", {}), scope)
	is_array(tools)
} else := [scope] if {
	plain_name(scope)
} else := []

_tenant_errors(doc, conf) := [] if {
	shape.field(doc, "tenant", null) == null
} else := [shape.problem("invalid_field", "tenant must be a string or null", {"field": "tenant"})] if {
	not is_string(doc.tenant)
} else := [] if {
	# no canonical form: reported by the look-up (uncanonicalizable_name)
	canonical_or_null(doc.tenant) == null
} else := [shape.problem(
	"unknown_tenant",
	sprintf("tenant %q is not defined in config.tenants", [doc.tenant]),
	{"field": "tenant", "tenant": doc.tenant},
)] if {
	not _known_tenant(conf, doc.tenant)
} else := []

_known_tenant(conf, id) if is_object(tables.table_entry(shape.field(conf, "tenants", {}), id))

_caller_errors(doc) := [shape.problem("invalid_field", "caller must be an object or null", {"field": "caller"})] if {
	not is_object(subject.caller(doc))
} else := [shape.problem("invalid_field", "caller.scopes must be an array of strings or null", {"field": "caller.scopes"})] if {
	not _valid_scopes(shape.field(subject.caller(doc), "scopes", null))
} else := [shape.problem("invalid_field", "caller.user must be a string or null", {"field": "caller.user"})] if {
	not is_string(shape.field(subject.caller(doc), "user", ""))
} else := []

_valid_scopes(null) := true

_valid_scopes(scopes) if {
	is_array(scopes)
	every scope in scopes {
		is_string(scope)
	}
}

_tenant_request_errors(doc, conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "tenants"), "config.tenants", true),
	_own_plan_errors(doc, conf),
	tables.lookup_errors(shape.field(conf, "tenants", {}), "config.tenants", [["tenant", shape.field(doc, "tenant", null)]]),
	validate.object_errors(validate.value_at(conf, "scopes"), "config.scopes", true),
	tables.lookup_errors(shape.field(conf, "scopes", {}), "config.scopes", [[sprintf("caller.scopes[%d]", [i]), scope] |
		some i, scope in _scopes(doc)
	]),
	[e |
		some scope in shape.field(subject.caller(doc), "scopes", [])
		key := tables.table_key(shape.field(conf, "scopes", {}), scope)
		some e in lists.entries_errors(conf.scopes[key], "allow", sprintf("config.scopes.%s", [key]), conf, false)
	],
])

_own_plan_errors(doc, conf) := _plan_errors(key, conf.tenants[key], conf) if {
	key := tables.table_key(shape.field(conf, "tenants", {}), doc.tenant)
} else := []

_tenant_config_errors(conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "tenants"), "config.tenants", true),
	tables.key_errors(shape.field(conf, "tenants", {}), "config.tenants"),
	[e |
		some id, plan in shape.field(conf, "tenants", {})
		some e in _plan_errors(id, plan, conf)
	],
	validate.object_errors(validate.value_at(conf, "scopes"), "config.scopes", true),
	tables.key_errors(shape.field(conf, "scopes", {}), "config.scopes"),
	[e |
		some scope, tools in shape.field(conf, "scopes", {})
		some e in lists.entries_errors(tools, "allow", sprintf("config.scopes.%s", [scope]), conf, false)
	],
])

_plan_errors(id, plan, conf) := array.concat(
	lists.entries_errors(validate.value_at(plan, "tools"), "allow", sprintf("config.tenants.%s.tools", [id]), conf, true),
	validate.unknown_member_errors(plan, {"tools"}, sprintf("config.tenants.%s", [id])),
) if {
	is_object(plan)
} else := [shape.problem(
	"invalid_config_value",
	sprintf("config.tenants.%s must be an object", [id]),
	{"field": sprintf("config.tenants.%s", [id])},
)]

# METADATA
# description: The tenant and caller stages that apply to the request, in order.
layers(doc, _, conf) := array.concat(_tenant_stage(doc, conf), _caller_stage(doc, conf))

# METADATA
# description: What is wrong with the request's tenant and caller, and with the plan and scopes it reads.
request_errors(doc, _, conf) := [] if {
	_reads_nothing(doc, conf)
} else := array.flatten([_tenant_errors(doc, conf), _caller_errors(doc), _tenant_request_errors(doc, conf)])

# A request that names no tenant and no caller, under a configuration
# whose tenants and scopes are absent or empty, has nothing of this package's to check (the
# common case), so its errors are none without building them.
_reads_nothing(doc, conf) if {
	shape.field(doc, "tenant", null) == null
	shape.field(doc, "caller", null) == null
	object.get(conf, "tenants", {}) == {}
	object.get(conf, "scopes", {}) == {}
}

# METADATA
# description: Every error in config.tenants and config.scopes.
config_errors(conf) := _tenant_config_errors(conf)

# METADATA
# description: |
#   Where the entries of this package's stages come from, by stage and
#   list, one source per entry (see tooleval.tracing): the tenant's plan,
#   and for the caller each scope's tools in config.scopes, or the scope
#   itself.
sources(doc, _, conf) := {
	"tenant": {"allow": tables.indexed_sources(sprintf("config.tenants.%s.tools", [shape.field(doc, "tenant", null)]), _plan_tools(doc, conf))},
	"caller": {"allow": [source |
		some j, scope in _scopes(doc)
		some source in _scope_sources(j, scope, conf)
	]},
}

_scopes(doc) := scopes if {
	scopes := shape.field(subject.caller(doc), "scopes", null)
	is_array(scopes)
} else := []

_scope_sources(j, scope, conf) := tables.indexed_sources(sprintf("config.scopes.%s", [scope]), tools) if {
	tools := tables.table_entry(shape.field(conf, "scopes", {}), scope)
	is_array(tools)
} else := [sprintf("input.caller.scopes[%d]", [j])] if {
	plain_name(scope)
} else := []

_plan_tools(doc, conf) := shape.field(plan, "tools", null) if {
	plan := tables.table_entry(shape.field(conf, "tenants", {}), doc.tenant)
} else := []
