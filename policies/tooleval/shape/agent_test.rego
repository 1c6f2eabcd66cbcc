package tooleval.shape_test

import data.tooleval.shape

# [agent member, expected problems]
agent_cases := [
	[null, []],
	[{}, []],
	[{"name": "concierge", "role": "main", "depth": 0}, []],
	[{"role": "subagent", "depth": 1}, []],
	[{"role": "fork", "depth": 3}, []],
	["main", ["agent must be an object"]],
	[{"name": 5}, ["agent.name must be a string"]],
	[{"role": "root"}, ["agent.role must be one of \"main\", \"subagent\" or \"fork\""]],
	[{"role": "subagent", "depth": -1}, ["agent.depth must be a whole number at least 0"]],
	[{"role": "subagent", "depth": 1.5}, ["agent.depth must be a whole number at least 0"]],
	[{"role": "subagent", "depth": "1"}, ["agent.depth must be a whole number at least 0"]],
	[{"role": "subagent"}, ["a sub-agent must state agent.depth"]],
	[{"role": "fork", "depth": 0}, ["a sub-agent has agent.depth at least 1"]],
	[{"role": "main", "depth": 2}, ["the main agent has agent.depth 0"]],
]

test_agent_errors if {
	mismatches := {[a, got, want] |
		some [a, want] in agent_cases
		got := [e.message | some e in shape.agent_errors({"agent": a})]
		got != want
	}
	mismatches == set()
}

test_agent_defaults if {
	shape.agent({}) == {"name": "", "role": "main", "depth": 0, "leaf": false, "teammate": false}
	shape.agent({"agent": {"role": "fork", "depth": 2, "name": "f"}}) == {"name": "f", "role": "fork", "depth": 2, "leaf": false, "teammate": false}
	shape.agent({"agent": {"role": "subagent", "depth": 1, "leaf": true}}).leaf == true
	[e.message | some e in shape.agent_errors({"agent": {"role": "subagent", "depth": 1, "leaf": "yes"}})] == ["agent.leaf must be a boolean"]
}
