package tooleval_test

import data.tooleval
import data.tooleval.configuration
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

test_tools_is_defined_for_any_input if {
	every doc in odd_inputs {
		t := tooleval.tools with input as doc
		is_array(t.errors)
		is_array(t.effective)
		is_array(t.tools)
	}
}

# Inputs of every shape: each decision is defined, has one entry per call
# and allows nothing that is malformed.
odd_inputs := [
	{},
	null,
	[],
	"text",
	42,
	true,
	{"calls": null, "declared": null, "layers": null, "agent": null, "workspace": null, "run": null},
	{"calls": "read_file"},
	{"calls": {"id": "x"}},
	{"calls": [1, null, [], {"id": "x"}, {"name": "read_file"}]},
	{"declared": {"name": "read_file"}, "calls": [{"id": "x", "name": "read_file"}]},
	{"declared": [null, 1, {"name": null}], "calls": [{"id": "x", "name": "read_file"}]},
	{"layers": 5, "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"layers": [null], "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"agent": "main", "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"workspace": "/ws", "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"run": [], "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
	{"unknown_field": {"deep": [1, 2]}, "declared": [{"name": "read_file"}], "calls": [{"id": "x", "name": "read_file"}]},
]

test_decision_is_defined_for_any_input if {
	every doc in odd_inputs {
		d := tooleval.decision with input as doc
		count(d.decisions) == count(calls_of(doc))
		is_array(d.errors)
		not d.effective
	}
}

test_malformed_inputs_allow_nothing_but_the_well_formed if {
	allowed := [[i, x.id] |
		some i, doc in odd_inputs
		some x in tooleval.decision.decisions with input as doc
		x.allowed
	]
	allowed == [[17, "x"]]
}

# Every decision has an outcome, allow exactly when it is allowed, for
# inputs of every shape, the explained ones and a session's alike.
test_every_decision_has_the_outcome_of_its_allowed if {
	mismatched := [[i, x] |
		some i, doc in odd_inputs
		some x in array.flatten([
			tooleval.decision.decisions,
			tooleval.explain.decisions,
			tooleval.decide(tooleval.context.session(doc), doc).decisions,
		]) with input as doc
		not _outcome_of_allowed[[x.allowed, x.outcome]]
	]
	mismatched == []
}

_outcome_of_allowed := {[true, "allow"], [false, "deny"]}

test_decision_without_input if {
	d := tooleval.decision
	d.decisions == []
	d.errors[0].code == "invalid_document"
}

calls_of(doc) := doc.calls if is_array(doc.calls)

else := []

test_unknown_fields_are_ignored if {
	d := tooleval.decision with input as {
		"declared": [{"name": "read_file", "description": "reads"}],
		"calls": [{"id": "x", "name": "read_file", "extra": 1}],
		"future": true,
	}
	d.errors == []
	d.decisions[0].allowed
}

# config.tools.message is checked on every request, not only by check: a
# decision under an invalid one refuses every call.
test_an_invalid_global_message_refuses_every_call if {
	d := tooleval.decision with input as {"declared": [{"name": "read_file"}], "calls": [{"id": "a", "name": "read_file"}]}
		with data.tooleval.config as configuration.overlay(data.tooleval.config, {"tools": {"deny": ["x"], "message": 7}})
	d.decisions[0].allowed == false
	"config.tools.message" in {e.field | some e in d.errors}
}

# decide's safety net counts the calls as tooleval.shape reads them:
# none unless the request is an object whose calls is a list.
test_call_count if {
	[tooleval._call_count(req) | some req in [{"calls": [1, {}]}, {"calls": "x"}, {"calls": null}, {}, [1], null]] == [2, 0, 0, 0, 0, 0]
}

# Requests without their calls, for over_cap: plain, with a run, with a
# malformed run, with a configuration error.
over_cap_requests := [
	{"declared": declared},
	{"declared": declared, "run": {"attempts": 3, "refusals": 1, "max_attempts": 10}},
	{"declared": declared, "run": []},
	{"declared": declared, "layers": [{"name": "team", "allow": [""]}]},
]

# Calls of every shape: ids and names present, missing, null, not
# strings, and calls that are not objects.
over_cap_calls := [{"id": "a", "name": "read_file"}, {"id": 7}, "x", {"name": "Refund", "id": null}, [1], {"id": "a", "name": "read_file", "args": {}}]

# Each call's decision from over_cap's refusal: its id and name with it.
stamped(refusal, calls) := [object.union(refusal, {"id": shape.field(call, "id", null), "name": shape.field(call, "name", null)}) |
	some call in calls
]

# over_cap is decision and explain for a batch over the call cap, read
# without its calls: with each call's id and name, its refusal and trace
# give the very documents; decide_over_cap is decide for a session's
# context.
test_over_cap_is_the_decision_of_a_batch_over_the_cap if {
	every req in over_cap_requests {
		doc := object.union(req, {"calls": over_cap_calls})
		o := tooleval.over_cap(req, count(over_cap_calls)) with data.tooleval.shape.max_calls as 2
		decisions := stamped(o.refusal, over_cap_calls)
		d := tooleval.decision with input as doc with data.tooleval.shape.max_calls as 2
		d == object.union(o.document, {"decisions": decisions})
		x := tooleval.explain with input as doc with data.tooleval.shape.max_calls as 2
		x == object.union(o.document, {"decisions": [object.union(c, {"trace": o.trace}) | some c in decisions]})

		ctx := tooleval.context.session(req)
		s := tooleval.decide_over_cap(ctx, object.remove(req, {"declared", "layers"}), count(over_cap_calls)) with data.tooleval.shape.max_calls as 2
		batch := object.union(object.filter(req, {"run"}), {"calls": over_cap_calls})
		tooleval.decide(ctx, batch) == object.union(s.document, {"decisions": stamped(s.refusal, over_cap_calls)}) with data.tooleval.shape.max_calls as 2
	}
}

test_over_cap_is_undefined_within_the_cap if {
	not tooleval.over_cap({"declared": declared}, 2) with data.tooleval.shape.max_calls as 2
	not tooleval.decide_over_cap(tooleval.context.compile({}), {}, 2) with data.tooleval.shape.max_calls as 2
}

# A context that cannot be compiled (undefined for every request the
# test sends): the decision's safety net.
no_context(req) := req.no_such_member

test_over_cap_fails_closed_as_the_decision_does if {
	req := {"declared": declared, "run": {"attempts": 1}}
	doc := object.union(req, {"calls": over_cap_calls})
	o := tooleval.over_cap(req, count(over_cap_calls)) with data.tooleval.shape.max_calls as 2
		with data.tooleval.context.compile as no_context
	d := tooleval.decision with input as doc with data.tooleval.shape.max_calls as 2
		with data.tooleval.context.compile as no_context
	d.errors[0].code == "internal_error"
	d == object.union(o.document, {"decisions": stamped(o.refusal, over_cap_calls)})
	x := tooleval.explain with input as doc with data.tooleval.shape.max_calls as 2
		with data.tooleval.context.compile as no_context
	x == object.union(o.document, {"decisions": [object.union(c, {"trace": o.trace}) | some c in stamped(o.refusal, over_cap_calls)]})
}
