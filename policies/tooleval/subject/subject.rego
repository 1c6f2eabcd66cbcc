# METADATA
# title: Who is asking
# description: |
#   The step of a decision after the input's shape (tooleval.shape) and
#   before the configured stages (tooleval.stages): who is asking, read
#   once from the request and the configuration. The agent is looked up
#   in config.agents (docs/configuration.md, "Agent definitions
#   (`agents`)"), its modes are read from the request and its definition,
#   and the caller is input.caller (docs/configuration.md, "Tenant plans
#   and caller scopes (`tenants`, `scopes`)"). The stages read the
#   subject instead of the request.
#
#   What is wrong with these fields is reported by the stages that read
#   them (tooleval.stages.agents, tooleval.stages.tenants), and a name
#   that selects no definition or several by its canonical form by
#   tooleval.configuration.tables.lookup_errors.
package tooleval.subject

import data.tooleval.configuration.tables
import data.tooleval.shape

# METADATA
# description: |
#   Who is asking, read once from the request and the configuration:
#   {name, subagent, definition_key and definition (or null), builtin,
#   async, teammate, coordinator, read_only, profile (or null)}. The
#   stages read it instead of the request.
of(doc, conf) := {
	"name": agent.name,
	"subagent": agent.role in shape.subagent_roles,
	"definition_key": key,
	"definition": d,
	"builtin": object.get(attrs, "builtin", false) == true,
	"async": true in [object.get(attrs, "async", false), object.get(attrs, "background", false), object.get(mode, "async", false)],
	"teammate": object.get(mode, "teammate", false) == true,
	"coordinator": object.get(mode, "coordinator", false) == true,
	"read_only": true in [object.get(attrs, "read_only", false), object.get(mode, "read_only", false)],
	"profile": shape.field(d, "profile", shape.field(shape.field(conf, "tools", {}), "profile", null)),
} if {
	agent := shape.agent(doc)
	mode := _object_or_empty(shape.field(doc, "agent", {}))
	key := _definition_key(agent.name, conf)
	d := _definition(key, conf)
	attrs := _object_or_empty(d)
}

# METADATA
# description: input.caller, or {} when it is absent or null.
caller(doc) := shape.field(doc, "caller", {})

_object_or_empty(x) := x if is_object(x)

else := {}

# METADATA
# description: |
#   The key of config.agents that defines the agent named name (the key
#   with the same canonical form: Auditor, auditor and a full-width
#   spelling are one agent, as tool names are), or null. A name with no
#   exact canonical form and keys that collide canonically are errors
#   that refuse the request (tooleval.configuration.tables.lookup_errors).
_definition_key(name, conf) := key if {
	key := tables.table_key(shape.field(conf, "agents", {}), name)
} else := null

# The definition under key, when it is an object; else null.
_definition(key, conf) := d if {
	d := shape.field(conf, "agents", {})[key]
	is_object(d)
} else := null
