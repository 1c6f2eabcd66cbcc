# Validating and compiling the inline layers (inline.rego says where
# they come from and what a layer is): every error names the layer and
# the entry, and each layer becomes a check with compiled matchers.
package tooleval.layers

import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# description: Every error in the layers, naming the layer and the entry.
errors(doc, layers, groups) := array.flatten([
	shape.list_errors(doc, "layers"),
	shape.length_errors(doc, "layers", shape.max_layers),
	[e |
		some i, layer in layers
		some e in _layer_errors(i, layer, groups)
	],
])

_layer_errors(i, layer, groups) := [] if {
	_simple_layer(layer)
} else := [shape.problem("invalid_layer", "a layer must be an object", {"field": "layers", "layer_index": i})] if {
	not is_object(layer)
} else := array.flatten([
	_name_errors(i, layer),
	_message_errors(i, layer),
	_list_errors(i, layer, "allow", groups),
	_list_errors(i, layer, "deny", groups),
	_list_errors(i, layer, "ask", groups),
])

# A layer with nothing to report, checked without building its errors: a
# non-empty string name, a valid message, allow absent, null or simple
# (tooleval.pattern.simple_list, so without problems), deny absent or
# simple. Any other layer is checked member by member.
_simple_layer(layer) if {
	layer.name != ""
	is_string(layer.name)
	shape.valid_message(object.get(layer, "message", null))
	pattern.simple_list(object.get(layer, "deny", []), "deny")
	pattern.simple_list(object.get(layer, "ask", []), "deny")
	_simple_allow(object.get(layer, "allow", null))
}

_simple_allow(null)

_simple_allow(allow) if pattern.simple_list(allow, "allow")

_name_errors(i, layer) := [] if {
	is_string(layer.name)
	layer.name != ""
} else := [shape.problem("invalid_layer", "a layer needs a non-empty string name", {"field": "layers", "layer_index": i})]

_list_errors(i, layer, list, groups) := [shape.problem(
	"invalid_list",
	sprintf("%s must be an array or null", [list]),
	{"field": "layers", "layer_index": i, "layer": _layer_name(layer), "list": list},
)] if {
	not is_array(shape.field(layer, list, []))
} else := [shape.problem(
	p.code,
	pattern.problem_messages[p.code],
	object.union(p, {"field": "layers", "layer_index": i, "layer": _layer_name(layer), "list": list}),
) |
	some p in pattern.list_problems(shape.field(layer, list, []), _grammar[list], groups)
]

# The grammar each list is read with: an ask list is read as a deny list
# (it narrows, so an entry bites on any of a tool's names).
_grammar := {"allow": "allow", "deny": "deny", "ask": "deny"}

_layer_name(layer) := shape.field(layer, "name", null)

_message_errors(i, layer) := [] if {
	shape.valid_message(shape.field(layer, "message", null))
} else := [shape.problem(
	"invalid_layer",
	sprintf("a layer's message must be a string of at most %d characters, or null", [shape.max_message_length]),
	{"field": "layers", "layer_index": i, "layer": _layer_name(layer)},
)]

# METADATA
# description: |
#   Each layer as {name, allow, deny} with compiled matchers; allow is
#   null when the layer states no allowlist. A malformed layer compiles to
#   one that refuses everything.
compile(layers, vocabulary) := [_compile_layer(layer, vocabulary) | some layer in layers]

_compile_layer(layer, vocabulary) := {
	"name": layer.name,
	"allow": _allow_matcher(object.get(layer, "allow", null), vocabulary),
	"deny": pattern.compile(object.get(layer, "deny", []), "deny", vocabulary),
	"ask": _ask_matcher(object.get(layer, "ask", []), vocabulary),
	"message": object.get(layer, "message", null),
} if {
	_simple_layer(layer)
} else := {
	"name": layer.name,
	"allow": _allow_matcher(shape.field(layer, "allow", null), vocabulary),
	"deny": pattern.compile(shape.field(layer, "deny", []), "deny", vocabulary),
	"ask": _ask_matcher(shape.field(layer, "ask", []), vocabulary),
	"message": shape.field(layer, "message", null),
} if {
	is_object(layer)
	is_array(shape.field(layer, "deny", []))
	is_array(shape.field(layer, "allow", []))
	is_array(shape.field(layer, "ask", []))
} else := {
	"name": _layer_name(layer),
	"allow": pattern.compile([], "allow", vocabulary),
	"deny": pattern.compile([], "deny", vocabulary),
	"ask": pattern.compile([], "deny", vocabulary),
	"message": null,
}

# An ask list is compiled as a deny list; an empty one (most layers)
# matches nothing without compiling.
_ask_matcher([], _) := pattern.nothing

_ask_matcher(ask, vocabulary) := pattern.compile(ask, "deny", vocabulary) if ask != []

_allow_matcher(allow, vocabulary) := pattern.compile(allow, "allow", vocabulary) if is_array(allow)

else := null
