package tooleval.batch_test

import data.tooleval

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

test_decisions_echo_calls_in_order if {
	calls := [
		{"id": "b", "name": "READ_FILE"},
		{"id": "a", "name": "write_file", "args": {"path": "/ws/x"}},
		{"id": "c", "name": "nope"},
	]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	[[x.id, x.name, x.allowed] | some x in d.decisions] == [["b", "READ_FILE", true], ["a", "write_file", true], ["c", "nope", false]]
	d.errors == []
	not d.run
}

test_allowed_decision_has_only_id_name_allowed if {
	d := tooleval.decision.decisions[0] with input as {"declared": declared, "calls": [{"id": "x", "name": "read_file"}]}
	d == {"id": "x", "name": "read_file", "allowed": true}
}

test_large_batches if {
	calls := [{"id": sprintf("c%d", [i]), "name": "read_file"} | some i in numbers.range(1, 10000)]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	count(d.decisions) == 10000
	every x in d.decisions {
		x.allowed
	}
}
