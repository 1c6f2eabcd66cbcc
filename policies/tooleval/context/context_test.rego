package tooleval.context_test

import data.tooleval
import data.tooleval_test

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

subagent(depth) := {"role": "subagent", "depth": depth}

# A session's context (finished verdicts for plain calls) and the one-shot
# context decide alike.
test_session_context_decides_like_the_one_shot if {
	every doc in array.concat(tooleval_test.odd_inputs, session_inputs) {
		one_shot := tooleval.decision with input as doc
		session := tooleval.decide(tooleval.context.session(doc), doc)
		one_shot == session
	}
}

session_inputs := [
	{
		"agent": subagent(1),
		"declared": declared,
		"layers": [{"name": "tenant", "allow": ["read_file", "gateway", "mcp__github__*"], "deny": ["write_file"]}],
		"calls": [
			{"id": "1", "name": "read_file"},
			{"id": "2", "name": "gateway"},
			{"id": "3", "name": "write_file"},
			{"id": "4", "name": "READ_FILE"},
			{"id": "5", "name": "nope"},
			{"id": "6", "name": "mcp__github__read_issue"},
			{"id": "1", "name": "read_file"},
		],
	},
	{
		"declared": declared,
		"workspace": {"root": "/ws"},
		"calls": [{"id": "1", "name": "read_file", "args": {"path": "/etc/x"}}, {"id": "2", "name": "Refund"}],
		"run": {"attempts": 1, "max_attempts": 2},
	},
	{
		"declared": declared,
		"calls": [{"id": "1", "name": "read_file"}],
		"run": {"refusals": 3, "max_refusals": 3},
	},
]

test_huge_declared_name_is_an_error if {
	name := concat("", ["x" | some _ in numbers.range(1, 300)])
	d := tooleval.decision with input as {"declared": [{"name": name}], "calls": [{"id": "x", "name": name}]}
	d.errors[0].code == "uncanonicalizable_name"
	d.decisions[0].reason == "invalid_config"
}
