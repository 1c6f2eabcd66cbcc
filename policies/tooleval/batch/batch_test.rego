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

test_allowed_decision_has_only_id_name_allowed_and_outcome if {
	d := tooleval.decision.decisions[0] with input as {"declared": declared, "calls": [{"id": "x", "name": "read_file"}]}
	d == {"id": "x", "name": "read_file", "allowed": true, "outcome": "allow"}
}

# A batch of many calls is decided call by call, all of them. 1,000 calls
# here (10,000 made it the slowest Rego test under coverage); the Go test
# TestAdversarialManyCalls decides 20,000 (make soak: the cap, 100,000).
test_large_batches if {
	calls := [{"id": sprintf("c%d", [i]), "name": "read_file"} | some i in numbers.range(1, 1000)]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	count(d.decisions) == 1000
	every x in d.decisions {
		x.allowed
	}
}

# [calls, well formed]
well_formed_cases := [
	[[], true],
	[[{"id": "a", "name": "x"}, {"id": "b", "name": "x", "args": {}}], true],
	[[{"id": "a", "name": "x"}, {"id": "a", "name": "y"}], false],
	[[{"id": "a", "name": "x"}, {"id": 1, "name": "y"}], false],
	[[{"id": "a", "name": "x"}, {"id": "b", "name": null}], false],
	[[{"id": "a", "name": "x"}, {"id": "b"}], false],
	[[{"id": "a", "name": "x"}, ["b", "y"]], false],
	[["a"], false],
]

test_well_formed if {
	mismatches := {[calls, want] |
		some [calls, want] in well_formed_cases
		got := data.tooleval.batch.well_formed(calls) == true
		got != want
	}
	mismatches == set()
}

# A batch with a malformed call: each call still gets its own verdict,
# the well-formed ones as in a well-formed batch.
test_a_malformed_call_leaves_the_others_decided if {
	calls := [{"id": "a", "name": "read_file"}, {"id": "b"}, {"id": "c", "name": "nope"}]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
	[[x.id, x.allowed, object.get(x, "reason", "")] | some x in d.decisions] == [
		["a", true, ""],
		["b", false, "invalid_input"],
		["c", false, "not_declared"],
	]
}

# The errors of a batch: the request's, then the batch's own (calls not
# a list or too long, an invalid run).
test_batch_errors if {
	ctx := {"errors": [{"code": "x"}]}
	data.tooleval.batch._errors(ctx, {"calls": []}, []) == [{"code": "x"}]
	data.tooleval.batch._errors(ctx, {}, []) == [{"code": "x"}]
	[e.code | some e in data.tooleval.batch._errors(ctx, {"calls": "no"}, [])] == ["x", "invalid_field"]
	[e.code | some e in data.tooleval.batch._errors(ctx, {"calls": [], "run": 5}, [])] == ["x", "invalid_run"]
	data.tooleval.batch._errors(ctx, {"calls": [], "run": {"attempts": 1}}, []) == [{"code": "x"}]
}

# A well-formed batch without a run takes decide's first clause; with a
# run that limits nothing it is read member by member: the same
# decisions.
test_the_common_case_decides_as_the_general_one if {
	calls := [
		{"id": "a", "name": "READ_FILE"},
		{"id": "b", "name": "write_file", "args": {"path": "/etc/passwd"}},
		{"id": "c", "name": "nope"},
		{"id": "d", "name": "gateway"},
	]
	doc := {"declared": declared, "workspace": {"root": "/ws"}, "layers": [{"name": "l", "allow": ["read_file", "write_file"]}]}
	ctx := data.tooleval.context.compile(doc)
	common := data.tooleval.batch.decide(ctx, {"calls": calls})
	general := data.tooleval.batch.decide(ctx, {"calls": calls, "run": {}})
	common == object.remove(general, {"run"})
	general.run == {"attempts": 4, "refusals": 3, "exhausted": false}
}

# A batch over the call cap is refused whole without reading its calls:
# every call, well formed or not, gets the config check's refusal with
# one message, the request the too_many_entries error; a run still gets
# its totals.
test_a_batch_over_the_call_cap_is_refused_whole if {
	calls := [{"id": "a", "name": "read_file"}, {"id": 7}, "x"]
	d := tooleval.decision with input as {"declared": declared, "calls": calls}
		with data.tooleval.shape.max_calls as 2
	[[c.id, c.name, c.allowed, c.reason, c.layer] | some c in d.decisions] == [
		["a", "read_file", false, "invalid_config", "config"],
		[7, null, false, "invalid_config", "config"],
		[null, null, false, "invalid_config", "config"],
	]
	d.decisions[0].message == "tool call refused: the batch has 3 calls, more than the 2 a batch may have (too_many_entries, listed under errors)"
	[e.code | some e in d.errors] == ["too_many_entries"]
	r := tooleval.decision with input as {"declared": declared, "calls": calls, "run": {"attempts": 0}}
		with data.tooleval.shape.max_calls as 2
	r.run.refusals == 3
	count(r.decisions) == 3
}
