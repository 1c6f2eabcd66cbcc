package system.log_test

import data.system.log

decision(request) := {"path": "tooleval/decision", "input": request}

test_every_call_args_is_masked if {
	event := decision({"calls": [
		{"id": "a", "name": "write_file", "args": {"path": "/ws/x", "content": "secret"}},
		{"id": "b", "name": "read_file"},
		{"id": "c", "name": "bash", "args": {"command": "cat ~/.aws/credentials"}},
	]})
	log.mask == {"/input/calls/0/args", "/input/calls/2/args"} with input as event
}

test_events_without_calls_mask_nothing if {
	log.mask == set() with input as decision({"subagent_type": "fork"})
	log.mask == set() with input as decision(null)
	log.mask == set() with input as {"path": "tooleval/decision"}
	log.mask == set() with input as {}
}

test_who_is_asking_is_masked if {
	event := decision({
		"caller": {"user": "alice@example.com", "scopes": ["repo:read"]},
		"requester": {"session": "s1", "batch": "b1", "policy_digest": "d"},
		"handoff": {"session": "s1", "batch": "b1", "children": []},
		"workspace": {"root": "/home/alice/ws"},
		"agent": {"name": "researcher"},
		"tenant": "acme",
	})
	log.mask == {"/input/caller/user", "/input/requester", "/input/handoff", "/input/workspace"} with input as event
}

test_caller_without_user_keeps_scopes if {
	log.mask == set() with input as decision({"caller": {"scopes": ["repo:read"]}})
	log.mask == set() with input as decision({"caller": null})
}

# Malformed shapes: every member of the wrong shape is erased whole, an
# array with an element of the wrong shape is erased whole (OPA would
# shift the elements after an erased one), and a member whose name a
# pointer cannot carry takes its object with it.
malformed_cases := [
	[{"caller": "alice@example.com"}, {"/input/caller"}],
	[{"caller": ["alice@example.com"]}, {"/input/caller"}],
	[{"caller": {"scopes": "alice@example.com"}}, {"/input/caller/scopes"}],
	[{"caller": {"scopes": ["a", {"user": "alice@example.com"}]}}, {"/input/caller/scopes"}],
	[{"calls": [{"id": "a", "name": "x"}, ["read_file", "/home/alice/x"]]}, {"/input/calls"}],
	[{"calls": [{"id": "a", "name": "x"}, "/home/alice/x"]}, {"/input/calls"}],
	[{"calls": {"a": {"id": "a", "name": "x", "args": {"path": "/home/alice/x"}}}}, {"/input/calls"}],
	[{"calls": [{"id": {"user": "alice"}, "name": 3}]}, {"/input/calls/0/id", "/input/calls/0/name"}],
	[{"calls": [null, {"id": "a", "name": "x", "extra": "alice"}]}, {"/input/calls/1/extra"}],
	[{"calls": [{"id": "a", "name": "x", "/home/alice": 1}]}, {"/input/calls"}],
	[{"calls": [{"id": "a", "name": "x", "a%zz": 1}]}, {"/input/calls"}],
	[{"agent": {"name": "a", "email": "alice@example.com", "depth": "1"}}, {"/input/agent/email", "/input/agent/depth"}],
	[{"declared": [{"name": "x", "mcp": {"server": "s", "tool": "t", "url": "https://alice"}}]}, {"/input/declared/0/mcp/url"}],
	[{"declared": [{"name": "x", "mcp": "alice"}]}, {"/input/declared/0/mcp"}],
	[{"layers": [{"name": "l", "allow": ["a", ["alice"]], "deny": ["b"], "note": "alice"}]}, {"/input/layers/0/allow", "/input/layers/0/note"}],
	[{"run": {"attempts": 1, "who": "alice"}, "tenant": {"name": "alice"}}, {"/input/run/who", "/input/tenant"}],
	[{"fork_tools": "alice", "teammate": ["alice"], "mcp_services": ["s", 1]}, {"/input/fork_tools", "/input/teammate", "/input/mcp_services"}],
	[{"alice@example.com": 1, "x": {"y": "alice"}}, {"/input"}],
	[{"extra": 1, "x": {"y": "alice"}}, {"/input/extra", "/input/x"}],
	[{"/home/alice": 1, "tenant": "acme"}, {"/input"}],
	[{"": 1}, {"/input"}],
	[["read_file", "/home/alice/x"], {"/input"}],
	["alice@example.com", {"/input"}],
	[42, {"/input"}],
]

test_malformed_shapes_are_erased_whole if {
	every case in malformed_cases {
		log.mask == case[1] with input as decision(case[0])
	}
}

test_path_refusal_messages_are_masked if {
	event := {"path": "tooleval/decision", "input": {}, "result": {
		"decisions": [
			{
				"id": "a", "allowed": false, "reason": "path", "layer": "workspace", "rule": "outside_workspace",
				"message": "path \"/home/alice/.ssh/x\" is outside the workspace",
			},
			{"id": "b", "allowed": false, "reason": "not_allowed", "layer": "tenant", "message": "tool \"x\" is not permitted"},
			{"id": "c", "allowed": true},
			{"id": "d", "allowed": false, "rule": "unresolved"},
		],
		"errors": [
			{"code": "invalid_mcp_service", "field": "config.mcp_user_services.alice@example.com", "index": 0},
			{"code": "invalid_field", "field": "caller.user"},
			{"code": "odd", "field": 3},
		],
	}}
	log.mask == {"/result/decisions/0/message", "/result/errors/0/field"} with input as event
}

test_echoes_of_malformed_input_are_masked if {
	event := {"path": "tooleval/explain", "input": {}, "result": {
		"decisions": [
			{"id": {"user": "alice"}, "name": ["/home/alice"], "allowed": false, "reason": "invalid_input"},
			{"id": null, "name": null, "allowed": false},
		],
		"errors": [{"code": "invalid_field", "field": "mcp_services", "index": 0, "entry": {"url": "https://alice"}}],
		"warnings": [{"code": "w", "entry": ["alice"]}],
	}}
	log.mask == {
		"/result/decisions/0/id", "/result/decisions/0/name",
		"/result/errors/0/entry", "/result/warnings/0/entry",
	} with input as event
	traced := {"path": "tooleval/explain", "input": {}, "result": {"decisions": [{"id": "a", "trace": [
		{"check": "layer", "name": ["alice@example.com"], "outcome": "not_applicable"},
		{"check": "layer", "name": "tenant", "outcome": "pass"},
	]}]}}
	log.mask == {"/result/decisions/0/trace/0/name"} with input as traced
	tools := {"path": "tooleval/tools", "input": {}, "result": {"tools": [{"name": {"a": 1}, "allowed": false}]}}
	log.mask == {"/result/tools/0/name"} with input as tools
}

test_results_of_other_queries_are_erased if {
	log.mask == {"/result"} with input as {"path": "tooleval", "input": {}, "result": {"decision": {}}}
	log.mask == {"/result"} with input as {"path": "tooleval/decision/decisions", "input": {}, "result": []}
	log.mask == {"/result"} with input as {"input": {}, "result": "x"}
	log.mask == {"/input", "/result"} with input as {"input": [], "result": "x"}
}

test_launch_and_check_results_mask_nothing if {
	launch := {"valid": true, "errors": [], "execution_allowed_tools": null, "notice": ""}
	log.mask == set() with input as {"path": "tooleval/launch", "input": {"subagent_type": "fork"}, "result": launch}
	check := {"errors": [], "warnings": [{"code": "x"}], "agent_tools": null}
	log.mask == set() with input as {"path": "tooleval/check", "input": {}, "result": check}
}

# An error's or a warning's message may quote any member of the input
# (an agent.depth of any shape, for one): it never reaches the log.
test_error_and_warning_messages_are_masked if {
	launch := {"valid": false, "execution_allowed_tools": [], "notice": "", "errors": [{
		"code": "depth_limit_reached", "field": "agent.depth",
		"message": "an agent at depth {\"alice@example.com\": 1} cannot launch a sub-agent",
	}]}
	log.mask == {"/result/errors/0/message"} with input as {"path": "tooleval/launch", "input": {}, "result": launch}
	check := {"errors": [], "warnings": [{"code": "x", "message": "m"}], "agent_tools": null}
	log.mask == {"/result/warnings/0/message"} with input as {"path": "tooleval/check", "input": {}, "result": check}
}

# Every pointer the mask yields names a member by plain characters (no
# array element, no escape OPA would reject), whatever the event.
test_pointers_are_plain if {
	event := decision({
		"calls": {"%!d": 1}, "a b": 1, "agent": [1],
		"layers": [{"name": "l", "x~1": 1}],
	})
	pointers := log.mask with input as event
	count(pointers) > 0
	every pointer in pointers {
		regex.match(`^/(input|result)(/[A-Za-z0-9_]+)*$`, pointer)
	}
}

# Every object kept names is looked into: the steps from the input reach
# them all (an input with one of each).
test_kept_objects_are_reached if {
	one_of_each := {
		"agent": {}, "declared": [{"mcp": {}}], "layers": [{}],
		"calls": [{}], "run": {}, "caller": {},
	}
	reached := {pattern | some [_, pattern] in log._objects} with input as decision(one_of_each)
	reached == {path | some path, types in log.kept; "object" in types}
}

# Argument rules quote commands and URLs: the message of a decision by
# one, and what an explain step read, are masked; the reason, layer and
# argument, and a name entry, stay.
test_argument_readings_are_masked if {
	event := {"path": "tooleval/explain", "input": {}, "result": {"decisions": [
		{
			"id": "a", "allowed": false, "outcome": "deny", "reason": "denied", "layer": "guard", "argument": "command",
			"message": "tool \"bash\" is not permitted: denied by layer \"guard\"'s rule ... (read as [\"curl\",\"https://alice:pw@x\"])",
			"trace": [
				{"check": "layer", "name": "guard", "list": "deny", "outcome": "pass", "entry": "read_file", "source": "layers[0].deny[0]"},
				{
					"check": "arguments", "outcome": "refused", "list": "deny", "source": "layers[0].deny[1]",
					"entry": {"tool": "bash", "command_prefix": "curl"},
					"reading": {"parts": [{"words": ["curl", "https://alice:pw@x"], "wrapper": false}], "separators": []},
				},
				{
					"check": "arguments", "outcome": "refused", "list": "allow", "sources": ["layers[0].allow[0]"],
					"entries": [{"tool": "bash", "command": "ls"}], "readings": {"command": {"unreadable": "x"}},
				},
			],
		},
		{"id": "b", "allowed": false, "outcome": "ask", "reason": "ask", "layer": "team", "argument": "url", "message": "needs approval"},
		{"id": "c", "allowed": false, "outcome": "ask", "reason": "ask", "layer": "team", "message": "tool \"x\" needs a person's approval"},
	]}}
	log.mask == {
		"/result/decisions/0/message",
		"/result/decisions/0/trace/1/entry", "/result/decisions/0/trace/1/reading",
		"/result/decisions/0/trace/2/entries", "/result/decisions/0/trace/2/readings",
		"/result/decisions/1/message",
	} with input as event
}

# A conditional tool's catalog entry quotes the argument rules that
# decide its calls: each rule is masked, as in the input's layers and in
# explain traces; where it is and what it reads stay.
test_argument_rules_quoted_by_the_catalog_are_masked if {
	event := {"path": "tooleval/tools", "input": {}, "result": {"errors": [], "effective": ["read_file", "deploy"], "tools": [
		{"name": "read_file", "allowed": true, "outcome": "allow"},
		{"name": "deploy", "allowed": true, "outcome": "conditional", "rules": [
			{"layer": "team", "list": "allow", "source": "layers[0].allow[1]", "reads": "args", "rule": {"tool": "deploy", "args": {"token": "s3cret"}}},
			{"layer": "team", "list": "deny", "source": "layers[0].deny[0]", "reads": "url", "rule": {"tool": "deploy", "domain": "evil.example"}},
		]},
	]}}
	log.mask == {"/result/tools/1/rules/0/rule", "/result/tools/1/rules/1/rule"} with input as event
}
