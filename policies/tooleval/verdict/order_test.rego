package tooleval.verdict_test

import data.tooleval.verdict

# Facts under which every check named in refusing refuses (through the
# fake outcome and tool_refusal below) and every other check passes.
refusing_facts(refusing) := {
	"ctx": {"checks": {"refusing": refusing}, "tools": {}, "names": {}, "notes": {}},
	"call": {"id": "c", "name": "t"},
	"i": 0,
	"problem": "call 0 is malformed",
	"errors": 1,
	"name": "t",
	"canonical": "t",
	"tool": {"name": "t", "kind": "builtin", "server": null, "tool": null},
	"run": {"attempts": 0, "refusals": 0, "max_attempts": 1, "max_refusals": null},
	"refusing": refusing,
}

fake_outcome(check, _, f) := object.union(
	{"outcome": "refused", "reason": verdict.rows[check].reason, "layer": verdict.rows[check].layer},
	{"refusal": {"layer": "read_only", "action": "x", "rule": "outside_workspace", "path": "/x"}},
) if {
	f.refusing[check]
} else := {"outcome": "pass"}

fake_tool_refusal(compiled, _, _) := refusals[0] if {
	refusals := [{"reason": row.reason, "layer": row.check} | some row in verdict.name_rows; compiled.refusing[row.check]]
	count(refusals) > 0
}

# call_verdict asks the checks in the order of the table: when every
# check from the i-th on refuses, the i-th names the refusal.
test_call_verdict_follows_the_order_table if {
	reasons := [v.reason |
		some i, _ in verdict.order
		refusing := {row.check | some j, row in verdict.order; j >= i}
		v := verdict.call_verdict(refusing_facts(refusing)) with verdict.outcome as fake_outcome
			with verdict.tool_refusal as fake_tool_refusal
	]
	reasons == [row.reason | some row in verdict.order]
}

test_a_call_that_no_check_refuses_is_allowed if {
	v := verdict.call_verdict(refusing_facts(set())) with verdict.outcome as fake_outcome
		with verdict.tool_refusal as fake_tool_refusal
	v == {"allowed": true}
}

# A check without an outcome (a defect) refuses the call.
no_outcome(_, _, _) := x if {
	x := 1
	x == 2
}

test_a_missing_outcome_refuses if {
	v := verdict.call_verdict(refusing_facts(set())) with verdict.outcome as no_outcome
		with verdict.tool_refusal as fake_tool_refusal
	v == verdict.undecided
}

test_every_row_names_a_check_once if {
	count(verdict.rows) == count(verdict.order)
	[row.check | some row in verdict.name_rows] == ["exclusion", "deny", "allow"]
}

# An outcome the chain does not know (a new kind, say "ask") lets no call
# through until the chain handles it.
unknown_outcome(check, _, _) := {"outcome": "ask"} if {
	check == "paths"
} else := {"outcome": "pass"}

test_an_unknown_outcome_refuses if {
	v := verdict.call_verdict(refusing_facts(set())) with verdict.outcome as unknown_outcome
		with verdict.tool_refusal as fake_tool_refusal
	v.allowed == false
}

# A refusal whose message cannot be written still refuses the call.
no_message(_, _, _) := x if {
	x := 1
	x == 2
}

test_a_refusal_without_a_message_refuses if {
	v := verdict.call_verdict(refusing_facts({"paths"})) with verdict.outcome as fake_outcome
		with verdict.tool_refusal as fake_tool_refusal
		with verdict.message as no_message
	v == verdict.undecided
}
