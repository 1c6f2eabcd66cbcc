package tooleval.batch_test

import data.tooleval

# A defect that dropped a decision would be caught by the safety net.
short_decide(_, _) := {"decisions": [], "errors": []}

test_fail_closed_safety_net if {
	doc := {"declared": declared, "calls": [{"id": "x", "name": "read_file"}], "run": {"attempts": 1}}
	d := tooleval.decision with input as doc with data.tooleval.batch.decide as short_decide
	d.decisions == [{
		"id": "x", "name": "read_file", "allowed": false, "outcome": "deny",
		"reason": "invalid_config", "layer": "config",
		"message": "the call is refused: the policy could not decide it",
	}]
	d.errors[0].code == "internal_error"
	d.run == {"attempts": 2, "refusals": 1, "exhausted": true}
}

test_fail_closed_without_run if {
	d := tooleval.decision with input as {"calls": [5]} with data.tooleval.batch.decide as short_decide
	d.decisions[0].allowed == false
	not d.run
}
