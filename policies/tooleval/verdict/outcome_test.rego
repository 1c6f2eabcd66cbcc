package tooleval.verdict_test

import data.tooleval.checks
import data.tooleval.pattern
import data.tooleval.verdict

call_checks := ["input", "config", "declaration", "action", "paths", "run"]

# Facts of every odd kind: the outcome of each call-level check is
# defined for all of them.
odd_facts := [
	{"ctx": {}, "call": null, "i": 0, "problem": "p", "errors": 0, "name": null, "canonical": null, "tool": null, "run": null},
	{
		"ctx": {"workspace": null, "actions": null, "path_arguments": {}}, "call": {"id": "a", "name": "t"}, "i": 1,
		"problem": null, "errors": 2, "name": "t", "canonical": "t", "tool": {"name": "t", "kind": "builtin"},
		"run": {"max_attempts": 1, "attempts": 5, "refusals": 0, "max_refusals": null},
	},
]

test_call_level_outcomes_are_defined_for_any_facts if {
	every f in odd_facts {
		every check in call_checks {
			verdict.outcome(check, null, f).outcome in {"pass", "refused", "not_applicable"}
		}
	}
}

test_call_level_outcomes if {
	[o.outcome | some check in call_checks; o := verdict.outcome(check, null, odd_facts[0])] == [
		"refused", "pass", "not_applicable", "not_applicable", "not_applicable", "not_applicable",
	]
	[o.outcome | some check in call_checks; o := verdict.outcome(check, null, odd_facts[1])] == [
		"pass", "refused", "pass", "not_applicable", "not_applicable", "refused",
	]
}

name_vocabulary := pattern.vocabulary({}, {})

name_facts(tool) := {
	"ctx": {"checks": checks.checks(
		[{"name": "ex", "deny": pattern.compile(["gateway"], "deny", name_vocabulary)}],
		[
			{"name": "stage", "allow": null, "deny": pattern.compile(["mcp__*"], "deny", name_vocabulary), "exempt": "non_mcp"},
			{"name": "layer", "allow": pattern.compile(["read_file"], "allow", name_vocabulary), "deny": pattern.compile([], "deny", name_vocabulary)},
		],
	)},
	"canonical": tool.name,
	"tool": tool,
}

builtin(name) := {"name": name, "kind": "builtin", "server": null, "tool": null}

mcp_tool := {"name": "mcp__gh__read", "kind": "mcp", "server": "gh", "tool": "read"}

# [check, index, tool or null, outcome]
name_outcome_cases := [
	["exclusion", 0, null, "not_applicable"],
	["exclusion", 0, builtin("gateway"), "refused"],
	["exclusion", 0, builtin("read_file"), "pass"],
	["deny", 0, builtin("read_file"), "exempt"],
	["deny", 0, mcp_tool, "refused"],
	["allow", 0, mcp_tool, "not_applicable"],
	["deny", 1, builtin("read_file"), "pass"],
	["allow", 1, builtin("read_file"), "pass"],
	["allow", 1, builtin("gateway"), "refused"],
]

test_name_level_outcomes if {
	mismatches := {[check, k, tool, got, want] |
		some [check, k, tool, want] in name_outcome_cases
		got := verdict.outcome(check, k, object.union(name_facts(object.union({"name": "none"}, tool)), {"tool": tool})).outcome
		got != want
	}
	mismatches == set()
}

test_refused_name_outcomes_name_their_check if {
	verdict.outcome("allow", 1, name_facts(builtin("gateway"))) == {"outcome": "refused", "reason": "not_allowed", "layer": "layer"}
}
