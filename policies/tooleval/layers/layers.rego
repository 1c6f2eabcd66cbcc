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
	_problem_message(p.code),
	object.union(p, {"field": "layers", "layer_index": i, "layer": _layer_name(layer), "list": list}),
) |
	some p in _list_problems(shape.field(layer, list, []), list, groups)
]

# The problems of a list: its name entries' (tooleval.pattern), and its
# argument rules' (tooleval.arguments.rule_problem, then the rule's tool
# as an entry of the list), each at its index.
_list_problems(entries, list, groups) := pattern.list_problems(entries, _grammar[list], groups) if {
	not _has_rules(entries)
} else := array.concat(
	[p |
		some p in pattern.list_problems(entries, _grammar[list], groups)
		not _rule_read_as_name(p)
	],
	[p |
		some j, entry in entries
		is_object(entry)
		some p in _rule_problems(j, entry, list, groups)
	],
)

_rule_problems(j, entry, list, groups) := [{"index": j, "entry": entry, "code": code}] if {
	code := arguments.rule_problem(entry, list)
} else := array.concat(
	[object.union(p, {"index": j, "entry": entry}) |
		some p in pattern.list_problems([entry.tool], _grammar[list], groups)
	],
	[object.union(failure, {"index": j, "entry": entry, "code": "rule_example_failed"}) |
		some failure in arguments.rule_example_failures(entry, list)
	],
)

# A pattern problem that only says an argument rule is not a name entry
# (it is checked as a rule instead); any other problem stands, too many
# entries included.
_rule_read_as_name(p) if {
	p.code == "non_string_entry"
	is_object(p.entry)
}

_has_rules(entries) if {
	some entry in entries
	is_object(entry)
}

_problem_message(code) := pattern.problem_messages[code]

_problem_message(code) := arguments.rule_problem_messages[code]

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
	"ask": _ask_matcher(object.get(layer, "ask", []), vocabulary),
	"message": object.get(layer, "message", null),
	"arguments": null,
	"judges": _asks_by_name(object.get(layer, "ask", [])),
} if {
	_simple_layer(layer)
} else := {
	"name": layer.name,
	"allow": _allow_matcher(_names_and_rule_tools(shape.field(layer, "allow", null)), vocabulary),
	"deny": pattern.compile(_names(shape.field(layer, "deny", [])), "deny", vocabulary),
	"ask": _ask_matcher(_names(shape.field(layer, "ask", [])), vocabulary),
	"message": shape.field(layer, "message", null),
	"arguments": rules,
	"judges": _judges(_names(shape.field(layer, "ask", [])), rules),
} if {
	is_object(layer)
	is_array(shape.field(layer, "deny", []))
	is_array(shape.field(layer, "allow", []))
	is_array(shape.field(layer, "ask", []))
	rules := _compile_arguments(i, layer, vocabulary)
} else := {
	"name": _layer_name(layer),
	"allow": pattern.compile([], "allow", vocabulary),
	"deny": pattern.compile([], "deny", vocabulary),
	"ask": pattern.compile([], "deny", vocabulary),
	"message": null,
	"arguments": null,
	"judges": false,
}

# The argument rules of the i-th inline layer
# (tooleval.arguments.compile_rules), by list, with names: its allow
# list's name entries compiled (a tool they match is allowed whatever its
# arguments), and source, where the layer is (layers[i]); null when the
# layer has none, as most layers.
_compile_arguments(i, layer, vocabulary) := {
	"source": sprintf("layers[%d]", [i]),
	"allow": arguments.compile_rules(allow, "allow", vocabulary),
	"deny": arguments.compile_rules(shape.field(layer, "deny", []), "deny", vocabulary),
	"ask": arguments.compile_rules(shape.field(layer, "ask", []), "deny", vocabulary),
	"names": pattern.compile(_names(allow), "allow", vocabulary),
} if {
	allow := _array_or_empty(shape.field(layer, "allow", []))
	some list in ["allow", "deny", "ask"]
	some entry in shape.field(layer, list, [])
	is_object(entry)
} else := null

_array_or_empty(x) := x if is_array(x)

else := []

# A list's name entries: its entries but argument rules.
_names(list) := [entry | some entry in list; not is_object(entry)]

# An allow list's name entries and the tool entry of each of its
# argument rules: the tools the layer lets through by name (a rule's
# tool is then decided on its arguments, per call); null stays null.
_names_and_rule_tools(null) := null

_names_and_rule_tools(list) := [_name_or_tool(entry) | some entry in list] if is_array(list)

_name_or_tool(entry) := entry.tool if is_object(entry)

else := entry

# Whether a layer of name entries only may ask: its ask list has one.
_asks_by_name([]) := false

_asks_by_name(ask) if ask != []

# Whether a layer judges calls past their names: its ask list has a name
# entry, or it has argument rules (rules, not null).
_judges(ask_names, null) := _asks_by_name(ask_names)

_judges(_, rules) if rules != null

# An ask list is compiled as a deny list; an empty one (most layers)
# matches nothing without compiling.
_ask_matcher([], _) := pattern.nothing

_ask_matcher(ask, vocabulary) := pattern.compile(ask, "deny", vocabulary) if ask != []

_allow_matcher(allow, vocabulary) := pattern.compile(allow, "allow", vocabulary) if is_array(allow)

else := null
