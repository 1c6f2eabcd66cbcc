package tooleval.forks_test

import data.tooleval

declared := [
	{"name": "read_file"},
	{"name": "grep"},
	{"name": "write_file"},
	{"name": "agent"},
	{"name": "gateway"},
	{"name": "mcp__github__read_issue", "mcp": {"server": "github", "tool": "read_issue"}},
	{"name": "mcp__github__create_issue", "mcp": {"server": "github", "tool": "create_issue"}},
]

launch(doc) := l if {
	l := tooleval.launch with input as object.union({"declared": declared, "agent": {"role": "main", "depth": 0}}, doc)
}

test_fork_tools_come_back_unchanged if {
	l := launch({"subagent_type": "fork", "fork_tools": ["GREP", "read_file", "mcp__github__read_*", "agent", "gateway", "unknown"]})
	l.valid
	l.errors == []
	l.execution_allowed_tools == ["GREP", "read_file", "mcp__github__read_*", "agent", "gateway", "unknown"]
	l.notice == concat("", [
		"Tool restriction: in this fork you may execute only these tools: grep, mcp__github__read_issue, read_file. ",
		"Calls to any other tool are refused before they run.",
	])
}

test_omitted_fork_tools_is_unrestricted if {
	l := launch({"subagent_type": "fork"})
	l.valid
	l.execution_allowed_tools == null
	l.notice == ""
	launch({"subagent_type": "researcher"}).valid
}

test_empty_fork_tools_is_deny_all if {
	l := launch({"subagent_type": "fork", "fork_tools": []})
	l.valid
	l.execution_allowed_tools == []
	l.notice == "Tool restriction: in this fork you may not execute any tool. Every tool call is refused before it runs."
}

test_notice_respects_the_launching_layers if {
	l := launch({"subagent_type": "fork", "fork_tools": ["read_file", "grep"], "layers": [{"name": "caller", "allow": ["grep"]}]})
	l.notice == "Tool restriction: in this fork you may execute only these tools: grep. Calls to any other tool are refused before they run."
}

# [launch members, expected error codes]
invalid_cases := [
	[{"subagent_type": "researcher", "fork_tools": ["read_file"]}, ["fork_tools_requires_fork"]],
	[{"fork_tools": ["read_file"]}, ["fork_tools_requires_fork"]],
	[{"subagent_type": "fork", "teammate": "alice", "fork_tools": ["read_file"]}, ["fork_tools_with_teammate"]],
	[{"subagent_type": "fork", "fork_tools": "read_file"}, ["invalid_list"]],
	[{"subagent_type": "fork", "fork_tools": null}, ["invalid_list"]],
	[{"subagent_type": "fork", "fork_tools": ["*", "read_*", " grep", 3, "group:none"]}, [
		"bare_wildcard", "builtin_wildcard_in_allow", "surrounding_whitespace", "non_string_entry", "unknown_group",
	]],
	[{"subagent_type": 5}, ["invalid_field"]],
	[{"teammate": ["alice"]}, ["invalid_field"]],
	[{"agent": {"role": "fork", "depth": 1}, "subagent_type": "fork"}, ["fork_cannot_spawn"]],
	[{"agent": {"role": "subagent", "depth": 5}, "subagent_type": "researcher"}, ["depth_limit_reached"]],
	[{"declared": [{"name": "a"}, {"name": "A"}], "subagent_type": "fork", "fork_tools": []}, ["duplicate_declaration", "duplicate_declaration"]],
]

test_invalid_launches_are_deny_all if {
	mismatches := {[doc, got, want] |
		some [doc, want] in invalid_cases
		l := launch(doc)
		got := [e.code | some e in l.errors]
		got != want
	}
	mismatches == set()
	every c in invalid_cases {
		l := launch(c[0])
		l.valid == false
		l.execution_allowed_tools == []
		l.notice == ""
	}
}

test_launch_is_defined_for_any_input if {
	every doc in [null, {}, [], "fork", 1] {
		l := tooleval.launch with input as doc
		is_boolean(l.valid)
	}
	l := tooleval.launch
	l.valid == false
}

failing_launch(_, _) := {"valid": true}

test_launch_safety_net if {
	l := tooleval.launch with input as {} with data.tooleval.forks.launch as failing_launch
	l.valid == true
	l2 := tooleval.launch with input as {} with data.tooleval.context.compile as failing_compile
	l2.valid == false
	l2.errors == [{"code": "internal_error", "field": "", "message": "the policy could not validate this launch"}]
	l2.execution_allowed_tools == []
	l2.notice == ""
}

failing_compile(_) := x if {
	x := 1
	x == 2
}
