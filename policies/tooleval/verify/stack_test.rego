package tooleval.verify_test

import data.tooleval.verify

sub(depth) := {"agent": {"name": "", "role": "subagent", "depth": depth}}

# [note, request a, request b, same stack]
stack_cases := [
	["depths below the cap share a stack", sub(1), sub(4), true],
	["the cap adds its exclusion", sub(4), sub(5), false],
	["depths at and past the cap share a stack", sub(5), sub(6), true],
	["a leaf is at the cap", {"agent": {"name": "", "role": "subagent", "depth": 1, "leaf": true}}, sub(5), true],
	["a fork is not a sub-agent", sub(1), {"agent": {"name": "", "role": "fork", "depth": 1}}, false],
	["declared tools are left out", sub(1), object.union(sub(1), {"declared": [{"name": "read_file"}]}), true],
	["an unknown tenant is an error, a stack of its own", {"tenant": null}, {"tenant": "acme"}, false],
	["an async mode nothing reads changes nothing", sub(1), {"agent": {"name": "", "role": "subagent", "depth": 1, "async": true}}, true],
	["read-only mode is a stage", sub(1), {"agent": {"name": "", "role": "subagent", "depth": 1, "read_only": true}}, false],
]

test_stacks if {
	failures := [note |
		some [note, a, b, same] in stack_cases
		_same_stack(a, b) != same
	]
	failures == []
}

test_a_stack_for_every_input if {
	every doc in [null, 1, "x", [], {"agent": 7}] {
		is_object(verify.stack(doc))
	}
	verify.stack(null) != verify.stack(1)
}

default _same_stack(_, _) := false

_same_stack(a, b) if verify.stack(a) == verify.stack(b)
