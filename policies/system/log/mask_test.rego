package system.log_test

import data.system.log

test_every_call_args_is_masked if {
	event := {"input": {"calls": [
		{"id": "a", "name": "write_file", "args": {"path": "/ws/x", "content": "secret"}},
		{"id": "b", "name": "read_file"},
		"not a call",
		{"id": "c", "name": "bash", "args": {"command": "cat ~/.aws/credentials"}},
	]}}
	log.mask == {"/input/calls/0/args", "/input/calls/3/args"} with input as event
}

test_events_without_calls_mask_nothing if {
	log.mask == set() with input as {"input": {"subagent_type": "fork"}}
	log.mask == set() with input as {"input": null}
	log.mask == set() with input as {"input": [], "result": "x"}
	log.mask == set() with input as {}
}

test_who_is_asking_is_masked if {
	event := {"input": {
		"caller": {"user": "alice@example.com", "scopes": ["repo:read"]},
		"requester": {"session": "s1", "batch": "b1", "policy_digest": "d"},
		"handoff": {"session": "s1", "batch": "b1", "children": []},
		"workspace": {"root": "/home/alice/ws"},
		"agent": {"name": "researcher"},
		"tenant": "acme",
	}}
	log.mask == {"/input/caller/user", "/input/requester", "/input/handoff", "/input/workspace"} with input as event
}

test_caller_without_user_keeps_scopes if {
	log.mask == set() with input as {"input": {"caller": {"scopes": ["repo:read"]}}}
	log.mask == set() with input as {"input": {"caller": null}}
}

test_path_refusal_messages_are_masked if {
	event := {"input": {}, "result": {
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

test_launch_and_check_results_mask_nothing if {
	launch := {"valid": true, "errors": [], "execution_allowed_tools": null, "notice": ""}
	log.mask == set() with input as {"input": {"subagent_type": "fork"}, "result": launch}
	check := {"errors": [], "warnings": [{"code": "x"}], "agent_tools": null}
	log.mask == set() with input as {"input": {}, "result": check}
}
