package tooleval.verdict_test

import data.tooleval.verdict

facts_ctx := {
	"tools": {
		"read_file": {"name": "read_file", "kind": "builtin", "server": null, "tool": null},
		"exec": {"name": "exec", "kind": "builtin", "server": null, "tool": null},
		"shell": {"name": "shell", "kind": "builtin", "server": null, "tool": null},
		"run": {"name": "run", "kind": "builtin", "server": null, "tool": null},
	},
	# bash is another name of exec; sh another name of both shell and run.
	"names": {"bash": {"names": {"bash": true, "exec": true}}, "sh": {"names": {"sh": true, "shell": true, "run": true}}},
}

facts_batch := {"errors": 0, "run": null, "duplicates": {"twice"}}

# [note, call, problem or null, the declared tool's name or null]
facts_cases := [
	["well formed", {"id": "a", "name": "READ_FILE"}, null, "read_file"],
	["another name of a declared tool", {"id": "a", "name": "bash"}, null, "exec"],
	["another name of two declared tools", {"id": "a", "name": "sh"}, null, null],
	["not declared", {"id": "a", "name": "nope"}, null, null],
	["not an object", 7, "call 0 is malformed: a call must be an object with a string id and name", null],
	["id not a string", {"id": 1, "name": "read_file"}, "call 0 is malformed: id must be a string", "read_file"],
	["name not a string", {"id": "a", "name": 1}, "call 0 is malformed: name must be a string", null],
	["id used twice", {"id": "twice", "name": "read_file"}, "call 0 is malformed: id \"twice\" is used by more than one call in this batch", "read_file"],
]

tool_name(null) := null

tool_name(tool) := tool.name if tool != null

test_facts if {
	mismatches := {[note, got, [problem, tool]] |
		some [note, call, problem, tool] in facts_cases
		f := verdict.facts(facts_ctx, facts_batch, 0, call)
		got := [f.problem, tool_name(f.tool)]
		got != [problem, tool]
	}
	mismatches == set()
}

test_a_call_of_two_declared_tools_is_not_declared_and_says_why if {
	f := verdict.facts(facts_ctx, facts_batch, 0, {"id": "a", "name": "sh"})
	verdict.call_verdict(f).message == concat("", [
		"tool \"sh\" is refused: more than one declared tool is another name of it under the preset's aliases, ",
		"so which one it reached would depend on order",
	])
}
