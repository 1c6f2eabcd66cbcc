# Validating and compiling the inline layers (inline.rego says where
# they come from and what a layer is): every error names the layer and
# the entry, and each layer becomes a check with compiled matchers.
package tooleval.layers

import data.tooleval.arguments
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
	_otherwise_errors(i, layer),
	_list_errors(i, layer, "allow", groups),
	_list_errors(i, layer, "deny", groups),
	_list_errors(i, layer, "ask", groups),
])

# A layer with nothing to report, checked without building its errors: a
# non-empty string name, a valid message, allow absent, null or simple
# (tooleval.pattern.simple_list, so without problems), deny absent or
# simple. Any other layer is checked member by member.
_simple_layer(layer) if {
	regex.match(`^(?s:.)`, layer.name) # a string, not empty: one expression (asked twice per layer)
	shape.valid_message(object.get(layer, "message", null))
	object.get(layer, "otherwise", null) == null # absent or null: refuse what allow does not let through (false is an error)
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
	_problem_message(p.code),
	object.union(p, {"field": "layers", "layer_index": i, "layer": _layer_name(layer), "list": list}),
) |
	some p in arguments.list_problems(shape.field(layer, list, []), list, groups)
]

_problem_message(code) := pattern.problem_messages[code]

_problem_message(code) := arguments.rule_problem_messages[code]

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
#   Each layer as {name, allow, deny, ask, message, arguments, judges}
#   with compiled matchers; allow is null when the layer states no
#   allowlist, arguments the layer's argument rules (null when it has
#   none), judges whether a call of a tool it lets through by name can
#   still be refused or asked by it (an ask list, or argument rules). A
#   malformed layer compiles to one that refuses everything.
compile(layers, vocabulary) := [_compile_layer(i, layer, vocabulary) | some i, layer in layers]

_compile_layer(i, layer, vocabulary) := {
	"name": layer.name,
	"allow": _allow_matcher(object.get(layer, "allow", null), vocabulary),
	"deny": pattern.compile(object.get(layer, "deny", []), "deny", vocabulary),
	"ask": arguments.ask_matcher(object.get(layer, "ask", []), vocabulary),
	"message": object.get(layer, "message", null),
	"otherwise": "deny",
	"arguments": null,
	"judges": _asks_by_name(object.get(layer, "ask", [])),
} if {
	_simple_layer(layer)
} else := {
	"name": layer.name,
	"allow": _allow_matcher(arguments.names_and_rule_tools(shape.field(layer, "allow", null)), vocabulary),
	"deny": pattern.compile(arguments.names(shape.field(layer, "deny", [])), "deny", vocabulary),
	"ask": arguments.ask_matcher(arguments.names(shape.field(layer, "ask", [])), vocabulary),
	"message": shape.field(layer, "message", null),
	"otherwise": otherwise,
	"arguments": rules,
	"judges": arguments.judges(arguments.names(shape.field(layer, "ask", [])), rules, otherwise),
} if {
	is_object(layer)
	is_array(shape.field(layer, "deny", []))
	is_array(shape.field(layer, "allow", []))
	is_array(shape.field(layer, "ask", []))
	rules := _compile_arguments(i, layer, vocabulary)
	otherwise := _otherwise(shape.field(layer, "otherwise", "deny"))
} else := {
	"name": _layer_name(layer),
	"allow": pattern.compile([], "allow", vocabulary),
	"deny": pattern.compile([], "deny", vocabulary),
	"ask": pattern.compile([], "deny", vocabulary),
	"message": null,
	"otherwise": "deny",
	"arguments": null,
	"judges": false,
}

# The argument rules of the i-th inline layer
# (tooleval.arguments.compile_lists), with source layers[i]; null when the
# layer has none, as most layers.
_compile_arguments(i, layer, vocabulary) := arguments.compile_lists(
	_array_or_empty(shape.field(layer, "allow", [])),
	shape.field(layer, "deny", []),
	shape.field(layer, "ask", []),
	sprintf("layers[%d]", [i]),
	vocabulary,
)

_array_or_empty(x) := x if is_array(x)

else := []

# Whether a layer of name entries only may ask: its ask list has one.
_asks_by_name([]) := false

_asks_by_name(ask) if ask != []

# What a layer says of a call its allow list does not let through
# (otherwise): "deny" (absent or null: refuse it, not_allowed) or "ask"
# (ask a person). Any other value is an error, and the layer refuses.
_otherwise(value) := value if value in {"deny", "ask"}

_otherwise_errors(i, layer) := [] if {
	_otherwise(shape.field(layer, "otherwise", "deny"))
} else := [shape.problem(
	"invalid_layer",
	"a layer's otherwise must be \"deny\" or \"ask\", or null",
	{"field": "layers", "layer_index": i, "layer": _layer_name(layer)},
)]

_allow_matcher(allow, vocabulary) := pattern.compile(allow, "allow", vocabulary) if is_array(allow)

else := null
