package tooleval.verdict_test

import data.tooleval.verdict

# Facts under which every check named in refusing refuses (through the
# fake outcome and tool_refusal below) and every other check passes.
# Every call-level check can refuse them (verdict.well_formed_verdict
# asks a check only of a call it could refuse): the call's tool is a
# read-only shell tool with path arguments, in a batch with a run, with
# a layer that has argument rules, and it
# reaches no declared tool when the declaration check is to refuse it.
refusing_facts(refusing) := {
	"ctx": {
		"checks": {"refusing": refusing, "asking": [{"name": "asking_layer"}], "arguing": [{"name": "arguing_layer"}], "judging": [{"name": "asking_layer"}]},
		"tools": {}, "names": {}, "notes": {},
		"actions": {"tools": {"t": true}}, "path_arguments": {"t": {"path": {}}},
	},
	"call": {"id": "c", "name": "t"},
	"i": 0,
	"problem": "call 0 is malformed",
	"errors": 1,
	"name": "t",
	"canonical": "t",
	"tool": refusing_tool(refusing),
	"run": {"attempts": 0, "refusals": 0, "max_attempts": 1, "max_refusals": null},
	"refusing": refusing,
}

refusing_tool(refusing) := null if {
	refusing.declaration
} else := {"name": "t", "kind": "builtin", "server": null, "tool": null}

fake_outcome(check, _, f) := object.union_n([
	{"outcome": "refused", "reason": verdict.rows[check].reason, "layer": verdict.rows[check].layer},
	{"refusal": _fake_refusal[check]},
	object.get({"arguments": {"argument": "command"}}, check, {}),
]) if {
	f.refusing[check]
} else := {"outcome": "pass"}

# What a refused outcome carries for its message: an argument rule's
# refusal for the arguments row, a path's and an action's for the others.
_fake_refusal[check] := {"layer": "read_only", "action": "x", "rule": "outside_workspace", "path": "/x"} if {
	some check, _ in verdict.rows
	check != "arguments"
}

_fake_refusal["arguments"] := {
	"layer": "l", "source": "layers[0]", "list": "deny",
	"rule": {"entry": {"tool": "t", "command": "x"}, "reads": "command"},
	"readings": {"command": {"unreadable": "x"}},
}

fake_tool_ask(compiled, _, _) := "asking_layer" if compiled.refusing.ask

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
			with verdict.tool_ask as fake_tool_ask
	]
	reasons == [row.reason | some row in verdict.order]
}

test_a_call_that_no_check_refuses_is_allowed if {
	v := verdict.call_verdict(refusing_facts(set())) with verdict.outcome as fake_outcome
		with verdict.tool_refusal as fake_tool_refusal
	v == {"allowed": true, "outcome": "allow"}
}

# A check without an outcome (a defect: no clause for it, or a clause
# that gives nothing) has the default outcome, which refuses the call as
# undecided.
test_a_missing_outcome_is_refused_as_undecided if {
	f := refusing_facts(set())
	verdict.outcome("no_such_check", null, f) == {"outcome": "refused", "undecided": true}
	verdict.outcome("exclusion", 99, f) == {"outcome": "refused", "undecided": true}
}

default_outcome(check, _, f) := {"outcome": "refused", "undecided": true} if {
	f.refusing[check]
} else := {"outcome": "pass"}

# The call-level checks (the rows asked once per call, not per compiled check).
call_level_rows := [row | some row in verdict.order; not row.checks]

test_a_missing_outcome_refuses if {
	count(call_level_rows) == 7
	every row in call_level_rows {
		v := verdict.call_verdict(refusing_facts({row.check})) with verdict.outcome as default_outcome
			with verdict.tool_refusal as fake_tool_refusal
		v == verdict.undecided
	}
}

test_every_row_names_a_check_once if {
	count(verdict.rows) == count(verdict.order)
	count({row.check | some row in verdict.order}) == count(verdict.order)
	every check, row in verdict.rows {
		row.check == check
	}
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

# well_formed_verdict asks a call-level check only of a call it could
# refuse; of any other call, outcome says the check lets it through.
unasked_base := {
	"ctx": {
		"workspace": workspace_ctx.workspace,
		"actions": {"tools": {"exec": true}, "observe": {}, "arguments": {}, "default_action": "exec"},
		"path_arguments": workspace_ctx.path_arguments,
	},
	"call": {"id": "c", "name": "grep", "args": {"path": "/etc/passwd", "action": "rm"}},
	"i": 3,
	"problem": null,
	"errors": 0,
	"name": "grep",
	"canonical": "grep",
	"tool": {"name": "grep", "kind": "builtin", "server": null, "tool": null},
	"run": null,
}

workspace_ctx := data.tooleval.context.compile({"workspace": {"root": "/ws"}})

# [note, check, changes to unasked_base]
unasked_cases := [
	["a declared tool", "declaration", {}],
	["no tool of the action policy", "action", {}],
	["no action policy", "action", {"ctx": {"actions": null, "path_arguments": {}, "workspace": null}}],
	["no path arguments", "paths", {}],
	["no workspace", "paths", {"ctx": {"workspace": null}, "canonical": "read_file"}],
	["no run", "run", {}],
]

test_an_unasked_check_lets_the_call_through if {
	failing := {[note, o] |
		some [note, check, changes] in unasked_cases
		o := verdict.outcome(check, null, object.union(unasked_base, changes))
		not o.outcome in {"pass", "not_applicable"}
	}
	failing == set()
}

# The same call is refused once each check can refuse it: the cases
# above are not passing for want of a refusing argument.
test_an_asked_check_refuses_the_same_call if {
	read_file := {"name": "read_file", "kind": "builtin", "server": null, "tool": null}
	f := object.union(unasked_base, {
		"ctx": {"actions": {"tools": {"read_file": true}}},
		"canonical": "read_file", "tool": read_file,
		"run": {"attempts": 5, "refusals": 0, "max_attempts": 1, "max_refusals": null, "valid": true},
	})
	[o.outcome | some check in ["action", "paths", "run"]; o := verdict.outcome(check, null, f)] == ["refused", "refused", "refused"]
	verdict.outcome("declaration", null, object.union(unasked_base, {"tool": null})).outcome == "refused"
}

# tool_refusal asks the name-level rows in the order of the table: when
# every row from the i-th on refuses, the i-th names the refusal, with
# the first compiled check of its list that refuses.
fake_refuses(check, c, _, _) if c.refusing[check]

name_checks(refusing) := {
	"exclusions": [{"name": "ex0", "refusing": {}}, {"name": "ex1", "refusing": refusing}],
	"layers": [{"name": "l0", "refusing": {}}, {"name": "l1", "refusing": refusing}, {"name": "l2", "refusing": refusing}],
}

test_tool_refusal_follows_the_order_table if {
	refusals := [r |
		some i, _ in verdict.name_rows
		refusing := {row.check: true | some j, row in verdict.name_rows; j >= i}
		r := verdict.tool_refusal(name_checks(refusing), "t", {}) with data.tooleval.checks.refuses as fake_refuses
	]
	refusals == [{"reason": row.reason, "layer": layer} |
		some row in verdict.name_rows
		layer := {"exclusions": "ex1", "layers": "l1"}[row.checks]
	]
	not verdict.tool_refusal(name_checks({}), "t", {}) with data.tooleval.checks.refuses as fake_refuses
}
