package tooleval.layers_test

import data.tooleval
import data.tooleval.configuration
import data.tooleval.layers
import data.tooleval.pattern
import data.tooleval.shape

declared := [
	{"name": "read_file"},
	{"name": "write_file"},
	{"name": "read_issue"},
	{"name": "gateway"},
	{"name": "sessions_spawn"},
	{"name": "agent"},
	{"name": "conversations_list"},
	{"name": "Refund"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
	{"name": "researcher", "agent": true},
]

test_inline_layers_and_their_lists_are_capped if {
	many_layers := [{"name": sprintf("l%d", [i])} | some i in numbers.range(1, 257)]
	d := tooleval.decision with input as {"declared": declared, "layers": many_layers, "calls": [{"id": "c", "name": "read_file"}]}
	[[e.code, e.field] | some e in d.errors] == [["too_many_entries", "layers"]]
	d.decisions[0].reason == "invalid_config"
	long := [sprintf("t%d", [i]) | some i in numbers.range(0, 4096)]
	d2 := tooleval.decision with input as {"declared": declared, "layers": [{"name": "l", "deny": long}], "calls": [{"id": "c", "name": "read_file"}]}
	[[e.code, e.list] | some e in d2.errors] == [["too_many_entries", "deny"]]
}

test_messages_must_be_short_strings if {
	long := concat("", [" " | some _ in numbers.range(1, 1001)])
	every message in [7, long, {"x": 1}] {
		d := tooleval.decision with input as {"layers": [{"name": "l", "message": message}], "calls": []}
		d.errors[0].code == "invalid_layer"
	}
	c := tooleval.check with input as {} with data.tooleval.config as configuration.overlay(data.tooleval.config, {"tools": {"message": 7}})
	some e in c.errors
	e.field == "config.tools.message"
}

# [layer, the codes of its errors]: layers with simple lists take the
# short path (no errors built), every other layer is checked member by
# member, and both give what the members give.
layer_cases := [
	[{"name": "l"}, []],
	[{"name": "l", "allow": null, "deny": null, "message": null}, []],
	[{"name": "l", "allow": ["read_file", "mcp__s__*", "MCP__S__T"], "deny": ["debug_*", "mcp__s"]}, []],
	[{"name": "l", "allow": [], "deny": [], "message": "ask"}, []],
	[{"name": "l", "allow": ["group:edit"], "deny": ["group:edit"]}, []],
	[{"name": "l", "allow": ["debug_*"]}, ["builtin_wildcard_in_allow"]],
	[{"name": "l", "deny": ["mcp__"]}, ["empty_mcp_server"]],
	[{"name": "l", "allow": "read_file"}, ["invalid_list"]],
	[{"name": "l", "deny": {"read_file": true}}, ["invalid_list"]],
	[{"name": ""}, ["invalid_layer"]],
	[{"name": 7, "allow": ["*"]}, ["invalid_layer", "bare_wildcard"]],
	[{"allow": ["read_file"]}, ["invalid_layer"]],
	[{"name": "l", "message": 7}, ["invalid_layer"]],
	[["read_file"], ["invalid_layer"]],
	["l", ["invalid_layer"]],
]

test_layer_errors if {
	mismatches := {[layer, codes] |
		some [layer, want] in layer_cases
		codes := [e.code | some e in layers.errors({"layers": [layer]}, [layer], {"edit": ["write_file"]})]
		codes != want
	}
	mismatches == set()
}

# Each layer compiles to its name, message and lists, whichever path it
# takes: an absent or null allow states no allowlist, an absent or null
# deny denies nothing, and a layer that is not an object or whose lists
# are not arrays refuses everything.
test_layer_compile if {
	vocabulary := pattern.vocabulary({"edit": ["write_file"]}, {})
	mismatches := {layer |
		some [layer, _] in layer_cases
		layers.compile([layer], vocabulary) != [_compiled(layer, vocabulary)]
	}
	mismatches == set()

	compared := [layer | some [layer, _] in layer_cases; layers.compile([layer], vocabulary) == [_compiled(layer, vocabulary)]]
	count(compared) == count(layer_cases)
}

_compiled(layer, vocabulary) := {
	"name": layer.name,
	"allow": _allow(object.get(layer, "allow", null), vocabulary),
	"deny": pattern.compile(_or(object.get(layer, "deny", null), []), "deny", vocabulary),
	"ask": pattern.compile(_or(object.get(layer, "ask", null), []), "deny", vocabulary),
	"message": _or(object.get(layer, "message", null), null),
	"otherwise": "deny",
	"arguments": null,
	"judges": _or(object.get(layer, "ask", null), []) != [],
} if {
	is_array(_or(object.get(layer, "allow", null), []))
	is_array(_or(object.get(layer, "deny", null), []))
	is_array(_or(object.get(layer, "ask", null), []))
} else := {
	"name": shape.field(layer, "name", null),
	"allow": pattern.nothing,
	"deny": pattern.nothing,
	"ask": pattern.nothing,
	"message": null,
	"otherwise": "deny",
	"arguments": null,
	"judges": false,
}

_allow(null, _) := null

_allow(list, vocabulary) := pattern.compile(list, "allow", vocabulary) if list != null

_or(null, fallback) := fallback

_or(value, _) := value if value != null
