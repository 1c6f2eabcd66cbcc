package tooleval.budget_test

import data.tooleval
import data.tooleval.budget

declared := [{"name": "read_file"}, {"name": "nope_tool"}]

calls(n) := [{"id": sprintf("c%d", [i]), "name": "read_file"} | some i in numbers.range(1, n)]

decide(run, n) := d if {
	d := tooleval.decision with input as {"declared": declared, "calls": calls(n), "run": run}
}

test_calls_past_the_cap_are_refused if {
	d := decide({"attempts": 8, "refusals": 0, "max_attempts": 10}, 4)
	[x.allowed | some x in d.decisions] == [true, true, false, false]
	d.decisions[2].reason == "run_exhausted"
	d.decisions[2].layer == "run"
	d.run == {"attempts": 12, "refusals": 2, "exhausted": true}
}

test_reaching_the_cap_exhausts if {
	d := decide({"attempts": 8, "max_attempts": 10}, 2)
	[x.allowed | some x in d.decisions] == [true, true]
	d.run == {"attempts": 10, "refusals": 0, "exhausted": true}
}

test_refusals_count_and_their_cap_exhausts if {
	d := tooleval.decision with input as {
		"declared": declared,
		"layers": [{"name": "agent", "allow": ["read_file"]}],
		"calls": [{"id": "a", "name": "nope_tool"}, {"id": "b", "name": "missing"}],
		"run": {"attempts": 0, "refusals": 3, "max_refusals": 5},
	}
	d.run == {"attempts": 2, "refusals": 5, "exhausted": true}
}

# A run whose refusals have reached the refusal cap is spent: every call
# of the next batch is refused, allowed or not by everything else.
test_reached_refusal_cap_refuses_the_next_batch if {
	d := decide({"attempts": 5, "refusals": 3, "max_refusals": 3}, 2)
	[[x.allowed, x.reason] | some x in d.decisions] == [[false, "run_exhausted"], [false, "run_exhausted"]]
	d.decisions[0].layer == "run"
	d.decisions[0].message == "tool \"read_file\" is not permitted: the run has reached its limit of 3 refusals"
	d.run == {"attempts": 7, "refusals": 5, "exhausted": true}
	[x.allowed | some x in decide({"attempts": 5, "refusals": 2, "max_refusals": 3}, 2).decisions] == [true, true]
}

# Numbers in messages are written as JSON writes them.
test_messages_write_numbers_as_json if {
	d := decide({"attempts": 2, "max_attempts": 2.0}, 1)
	d.decisions[0].message == "tool \"read_file\" is not permitted: the run has used all 2.0 of its attempts"
	not contains(d.decisions[0].message, "%!")
}

test_no_caps_no_exhaustion if {
	d := decide({"attempts": 1000000}, 3)
	every x in d.decisions {
		x.allowed
	}
	d.run == {"attempts": 1000003, "refusals": 0, "exhausted": false}
}

test_run_absent_or_null_has_no_member if {
	not decide(null, 1).run
	d := tooleval.decision with input as {"declared": declared, "calls": calls(1)}
	not d.run
}

run_error_cases := [
	[[], ["run"]],
	[{"attempts": -1}, ["run.attempts"]],
	[{"refusals": 1.5}, ["run.refusals"]],
	[{"max_attempts": "10"}, ["run.max_attempts"]],
	[{"max_refusals": true}, ["run.max_refusals"]],
	[{"attempts": 1, "refusals": 0, "max_attempts": null, "max_refusals": 0}, []],
]

test_run_errors if {
	mismatches := {[run, got, want] |
		some [run, want] in run_error_cases
		got := [e.field | some e in budget.errors({"run": run})]
		got != want
	}
	mismatches == set()
}

test_malformed_run_refuses_and_is_spent if {
	d := decide({"attempts": "many"}, 2)
	[x.reason | some x in d.decisions] == ["invalid_config", "invalid_config"]
	d.run == {"attempts": 2, "refusals": 2, "exhausted": true}
	d.errors[0].code == "invalid_run"
}

test_malformed_cap_reads_as_reached if {
	budget.run({"run": {"max_attempts": -3}}).max_attempts == 0
	budget.run({"run": {"attempts": "x"}}).attempts == 0
}
