package tooleval.layers_test

import data.tooleval
import data.tooleval.configuration

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
