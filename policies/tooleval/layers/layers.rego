# METADATA
# title: Layers
# description: |
#   A layer is {name, allow, deny}. Layers are ordered and each can only
#   narrow: allow null (or absent) states nothing and narrows nothing,
#   allow [] refuses everything, and deny (absent = []) wins over allow
#   inside the same layer.
#
#   Where layers come from (sources.rego for the input's, tooleval.stages
#   for the configured stages) is kept apart from how they are evaluated
#   (here).
package tooleval.layers

import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# title: errors
# description: Every error in the layers, naming the layer and the entry.
errors(doc, layers, groups) := array.flatten([
	shape.list_errors(doc, "layers"),
	shape.length_errors(doc, "layers", shape.max_layers),
	[e |
		some i, layer in layers
		some e in layer_errors(i, layer, groups)
	],
])

layer_errors(i, layer, groups) := [shape.problem("invalid_layer", "a layer must be an object", {"field": "layers", "layer_index": i})] if {
	not is_object(layer)
} else := array.flatten([
	name_errors(i, layer),
	list_errors(i, layer, "allow", groups),
	list_errors(i, layer, "deny", groups),
])

name_errors(i, layer) := [] if {
	is_string(layer.name)
	layer.name != ""
} else := [shape.problem("invalid_layer", "a layer needs a non-empty string name", {"field": "layers", "layer_index": i})]

list_errors(i, layer, list, groups) := [shape.problem(
	"invalid_list",
	sprintf("%s must be an array or null", [list]),
	{"field": "layers", "layer_index": i, "layer": layer_name(layer), "list": list},
)] if {
	not is_array(shape.field(layer, list, []))
} else := [shape.problem(
	p.code,
	pattern.problem_messages[p.code],
	object.union(p, {"field": "layers", "layer_index": i, "layer": layer_name(layer), "list": list}),
) |
	some p in pattern.list_problems(shape.field(layer, list, []), list, groups)
]

layer_name(layer) := shape.field(layer, "name", null)

# METADATA
# title: compile
# description: |
#   Each layer as {name, allow, deny} with compiled matchers; allow is
#   null when the layer states no allowlist. A malformed layer compiles to
#   one that refuses everything.
compile(layers, vocabulary) := [compile_layer(layer, vocabulary) | some layer in layers]

compile_layer(layer, vocabulary) := {
	"name": layer.name,
	"allow": allow_matcher(shape.field(layer, "allow", null), vocabulary),
	"deny": pattern.compile(shape.field(layer, "deny", []), "deny", vocabulary),
} if {
	is_object(layer)
	is_array(shape.field(layer, "deny", []))
	is_array(shape.field(layer, "allow", []))
} else := {
	"name": layer_name(layer),
	"allow": pattern.compile([], "allow", vocabulary),
	"deny": pattern.compile([], "deny", vocabulary),
}

allow_matcher(allow, vocabulary) := pattern.compile(allow, "allow", vocabulary) if is_array(allow)

else := null

# METADATA
# title: resolve
# description: |
#   The compiled layers (or exclusions) with what they match among the
#   declared tools: denied, the set of canonical names their deny list
#   matches, and allowed, the set their allow list matches (null when the
#   layer states no allowlist).
#   A configured stage may be exempt ("mcp" or "non_mcp"): the tools of
#   that kind pass it untouched, neither denied nor outside its allow.
resolve(compiled, tools) := [object.union(layer, {
	"denied": pattern.matched(layer.deny, tools) - exempt,
	"allowed": allowed_names(layer, tools, exempt),
}) |
	some layer in compiled
	exempt := exempt_names(object.get(layer, "exempt", null), tools)
]

allowed_names(layer, tools, exempt) := pattern.matched(layer.allow, tools) | exempt if {
	object.get(layer, "allow", null) != null
} else := null

exempt_names(null, _) := set()

exempt_names("mcp", tools) := {name | some name, tool in tools; tool.kind == "mcp"}

exempt_names("non_mcp", tools) := {name | some name, tool in tools; tool.kind != "mcp"}

# METADATA
# title: refusal
# description: |
#   The first name-level refusal of the declared tool with this canonical
#   name, or undefined when nothing refuses it: a runtime exclusion
#   (reason excluded), then any layer's deny (denied), then any layer's
#   allow list that does not match (not_allowed), each time the first in
#   order. exclusions and layers are resolved (see resolve).
refusal(name, exclusions, layers) := {"reason": "excluded", "layer": hits[0]} if {
	hits := [e.name | some e in exclusions; e.denied[name]]
	count(hits) > 0
} else := {"reason": "denied", "layer": hits[0]} if {
	hits := [l.name | some l in layers; l.denied[name]]
	count(hits) > 0
} else := {"reason": "not_allowed", "layer": hits[0]} if {
	hits := [l.name | some l in layers; l.allowed != null; not l.allowed[name]]
	count(hits) > 0
}
