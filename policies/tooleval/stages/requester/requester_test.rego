package tooleval.stages.requester_test

import data.tooleval.stages.requester as requester_stage
import data.tooleval.stages_test

captured := {"allow": ["read_file", "mcp__github__*"], "deny": ["bash"]}

# sha256 of {"allow":null}, computed the same way.
no_allowlist_digest := "94de7b83aa3fe51d45391215e0cba51ba270b236ce3bfcc71614a63fb9d97097"

# sha256 of {"allow":["read_file","mcp__github__*"],"deny":["bash"]},
# computed outside OPA (python3 hashlib over json.dumps with sorted keys
# and no spaces).
captured_digest := "4d1e77e6f49d136862e751e52ca1818551e9182ca12804152ccf68d500e78bab"

other := {"allow": ["read_file"]}

requester := {"session": "s1", "batch": "b7", "policy_digest": captured_digest}

handoff(children) := {"session": "s1", "batch": "b7", "children": children}

child(policy) := {"id": "c", "policy": policy}

resumed(h) := {"requester": requester, "handoff": h}

continuation_config := {"continuation": {"restricted": ["message"]}}

# [note, request, call name, expected stages_test.verdict]
requester_cases := [
	["a verified handoff keeps the captured policy", resumed(handoff([child(captured), child(captured)])), "mcp__github__read_issue", "allowed"],
	["the captured deny still wins", resumed(handoff([child(captured)])), "bash", ["denied", "requester_policy"]],
	["the captured allow narrows", resumed(handoff([child(captured)])), "message", ["not_allowed", "requester_policy"]],
	["conflicting child policies: restricted", resumed(handoff([child(captured), child(other)])), "read_file", ["not_allowed", "continuation_restricted"]],
	["a missing child policy: restricted", resumed(handoff([child(captured), {"id": "d"}])), "read_file", ["not_allowed", "continuation_restricted"]],
	["a child that is not an object: restricted", resumed(handoff([child(captured), "x"])), "read_file", ["not_allowed", "continuation_restricted"]],
	["no children: restricted", resumed(handoff([])), "read_file", ["not_allowed", "continuation_restricted"]],
	["an unverified policy: restricted", resumed(handoff([child(other)])), "read_file", ["not_allowed", "continuation_restricted"]],
	[
		"another session's handoff: restricted",
		resumed({"session": "s2", "batch": "b7", "children": [child(captured)]}), "read_file", ["not_allowed", "continuation_restricted"],
	],
	[
		"another batch's handoff: restricted",
		resumed({"session": "s1", "batch": "b6", "children": [child(captured)]}), "read_file", ["not_allowed", "continuation_restricted"],
	],
	["no requester: restricted", {"handoff": handoff([child(captured)])}, "read_file", ["not_allowed", "continuation_restricted"]],
	["a malformed handoff: restricted", {"requester": requester, "handoff": "yes"}, "read_file", ["not_allowed", "continuation_restricted"]],
	["the restricted policy admits its tools", resumed(handoff([])), "message", "allowed"],
	["no handoff: no stage", {}, "refund", "allowed"],
	[
		"the handoff grants nothing another layer refuses",
		object.union(resumed(handoff([child(captured)])), {"layers": [{"name": "tenant", "allow": ["glob"]}]}),
		"read_file", ["not_allowed", "tenant"],
	],
	[
		"nor what an exclusion removes",
		object.union(
			resumed(handoff([child({"allow": null})])),
			{"agent": {"role": "subagent", "depth": 1}, "requester": {"policy_digest": "94de7b83aa3fe51d45391215e0cba51ba270b236ce3bfcc71614a63fb9d97097"}},
		),
		"gateway", ["excluded", "subagent_hard_deny"],
	],
	[
		"a verified policy that states no allowlist narrows nothing",
		object.union(resumed(handoff([child({"allow": null})])), {"requester": {"policy_digest": no_allowlist_digest}}),
		"refund", "allowed",
	],
]

test_captured_requester_policy if {
	verdicts := stages_test.verdicts([[continuation_config, req, name] | some [_, req, name, _] in requester_cases])
	got := [[note, verdicts[i], want] | some i, [note, _, _, want] in requester_cases]
	count(got) == count(requester_cases)
	[[note, g, want] | some [note, g, want] in got; g != want] == []
}

test_digest_matches_an_outside_computation if {
	requester_stage.policy_digest(captured) == captured_digest
}

test_restricted_policy_is_validated if {
	stages_test.codes({"continuation": {"restricted": ["read*"]}}, {}) == [["builtin_wildcard_in_allow", "config.continuation.restricted"]]
}
