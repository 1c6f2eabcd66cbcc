package tooleval.arguments_test

import data.tooleval.arguments

# An action policy for a shell tool "process": status and list observe,
# and an observing call may carry only the arguments named here.
action_policy := {
	"tools": {"process": true},
	"observe": {"status": true, "list": true},
	"arguments": {"action": true, "session_id": true},
	"default_action": "status",
}

# A call goes on only when its action observes and it carries no
# argument an observing call has no use for; the action defaults to the
# policy's; a tool the policy does not name, or no policy, is not judged.
test_action_refusal if {
	every tc in [
		{"call": {"args": {"action": "status"}}, "want": null},
		{"call": {"args": {"action": "list", "session_id": "s1"}}, "want": null},
		{"call": {"args": {}}, "want": null},
		{"call": {}, "want": null},
		{"call": {"args": {"action": "kill", "session_id": "s1"}}, "want": {"layer": "read_only", "action": "kill"}},
		{"call": {"args": {"action": "status", "command": "rm -rf /"}}, "want": {"layer": "read_only", "action": "status", "argument": "command"}},
		{"call": {"args": {"command": "x", "input": "y"}}, "want": {"layer": "read_only", "action": "status", "argument": "command"}},
		{"call": {"args": {"action": 1}}, "want": {"layer": "read_only", "action": 1}},
		{"call": {"args": {"action": ["status"]}}, "want": {"layer": "read_only", "action": ["status"]}},
	] {
		refusal_or_null(tc.call) == tc.want
	}
}

refusal_or_null(call) := refusal if {
	refusal := arguments.action_refusal(action_policy, "process", call)
} else := null

test_action_refusal_only_for_the_policys_tools if {
	not arguments.action_refusal(action_policy, "read_file", {"args": {"action": "kill"}})
	not arguments.action_refusal(null, "process", {"args": {"action": "kill"}})
}
