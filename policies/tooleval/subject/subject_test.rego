package tooleval.subject_test

import data.tooleval.subject

subject_config := {
	"tools": {"profile": "coding"},
	"agents": {
		"Auditor": {"builtin": true, "read_only": true, "profile": "minimal"},
		"verifier": {"background": true},
		"helper": {"async": "yes", "builtin": 1},
		"broken": [],
	},
}

# [note, request, expected subject members (a subset)]
subject_cases := [
	[
		"no agent is a main agent with no definition",
		{},
		{
			"name": "", "subagent": false, "definition_key": null, "definition": null, "builtin": false,
			"async": false, "teammate": false, "coordinator": false, "read_only": false, "profile": "coding",
		},
	],
	[
		"a definition is looked up by canonical name",
		{"agent": {"name": "AUDITOR", "role": "subagent", "depth": 1}},
		{"name": "AUDITOR", "subagent": true, "definition_key": "Auditor", "builtin": true, "read_only": true, "profile": "minimal"},
	],
	["a fork is a sub-agent", {"agent": {"name": "x", "role": "fork", "depth": 1}}, {"subagent": true, "definition_key": null}],
	["background makes an agent async", {"agent": {"name": "verifier"}}, {"async": true, "builtin": false}],
	["only true counts", {"agent": {"name": "helper"}}, {"async": false, "builtin": false}],
	["a definition that is not an object is none", {"agent": {"name": "broken"}}, {"definition_key": "broken", "definition": null}],
	[
		"the request states the modes",
		{"agent": {"async": true, "teammate": true, "coordinator": true, "read_only": true}},
		{"async": true, "teammate": true, "coordinator": true, "read_only": true},
	],
	["modes that are not true are off", {"agent": {"teammate": "yes", "coordinator": 1}}, {"teammate": false, "coordinator": false}],
	["an agent that is not an object has no modes", {"agent": "x"}, {"async": false, "read_only": false}],
]

test_subject_of_a_request if {
	mismatches := [[note, got] |
		some [note, req, want] in subject_cases
		got := subject.of(req, subject_config)
		[k | some k, v in want; got[k] != v] != []
	]
	mismatches == []
	count([1 | some [_, req, _] in subject_cases; subject.of(req, subject_config)]) == count(subject_cases)
}

test_profile_without_a_global_one if {
	subject.of({}, {}).profile == null
	subject.of({"agent": {"name": "a"}}, {"agents": {"a": {"profile": "full"}}}).profile == "full"
}

test_caller if {
	subject.caller({}) == {}
	subject.caller({"caller": null}) == {}
	subject.caller({"caller": {"scopes": ["repo:read"]}}) == {"scopes": ["repo:read"]}
	subject.caller({"caller": "alice"}) == "alice"
}
