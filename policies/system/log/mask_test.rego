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
}
