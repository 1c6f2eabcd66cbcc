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

test_field_treats_null_as_absent if {
	shape.field({"a": null}, "a", 1) == 1
	shape.field({"a": false}, "a", 1) == false
	shape.field("text", "a", 1) == 1
	not shape.present({"a": null}, "a")
	shape.present({"a": []}, "a")
}

test_list_field_and_errors if {
	shape.list_field({"calls": "x"}, "calls") == []
	shape.list_field({"calls": [1]}, "calls") == [1]
	shape.list_errors({"calls": null}, "calls") == []
	[e.field | some e in shape.list_errors({"calls": {}}, "calls")] == ["calls"]
}

test_document if {
	shape.document([1]) == {}
	[e.code | some e in shape.document_errors("x")] == ["invalid_document"]
	shape.document_errors({}) == []
}

# field and present read only objects' members: not a set's element, an
# array's element or a string's character.
test_field_reads_only_objects if {
	shape.field({"a"}, "a", 1) == 1
	shape.field(["x"], 0, 1) == 1
	shape.field("abc", 0, 1) == 1
	not shape.present({"a"}, "a")
	not shape.present(["x"], 0)
}

test_count_errors_is_length_errors_of_a_list_of_that_length if {
	shape.count_errors("calls", 3, 2) == shape.length_errors({"calls": [1, 2, 3]}, "calls", 2)
	shape.count_errors("calls", 3, 2) == [{"code": "too_many_entries", "message": "calls may have at most 2 elements", "field": "calls", "count": 3}]
	shape.count_errors("calls", 2, 2) == []
}
