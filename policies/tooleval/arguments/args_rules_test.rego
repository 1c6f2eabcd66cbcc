# Argument rules over a call's arguments as a whole: args_pattern, a
# regular expression over their canonical JSON (Gemini CLI's
# argsPattern, https://geminicli.com/docs/reference/policy-engine/
# ("policy engine")), and args, exact member conditions.
package tooleval.arguments_test

import data.tooleval
import data.tooleval.arguments

args_request(layers, calls) := object.union(rule_request(layers, calls), {"declared": [{"name": "deploy"}]})

args_outcomes(layers, calls) := [[d.outcome, object.get(d, "reason", null), object.get(d, "layer", null)] |
	some d in decisions
] if {
	decisions := tooleval.decision.decisions with input as args_request(layers, calls)
}

deploy(args) := ["deploy", args]

args_layer := {
	"name": "ops",
	"allow": [
		{"tool": "deploy", "args_pattern": `^\{"env":"staging"[,}]`},
		{"tool": "deploy", "args": {"env": "dev"}},
	],
	"deny": [{"tool": "deploy", "args": {"mode": "force"}}],
	"ask": [{"tool": "deploy", "args_pattern": `"region":"eu-`}],
}

# [source, arguments, expected outcome under args_layer]
args_rows := [
	["policy engine: a pattern over the JSON", {"env": "staging"}, allowed],
	["members in order of their names", {"env": "staging", "tag": "v1"}, allowed],
	["members in order of their names", {"app": "x", "env": "staging"}, not_allowed("ops")],
	["anchored by its author", {"env": "staging2"}, not_allowed("ops")],
	["exact member", {"env": "dev"}, allowed],
	["exact member, other members free", {"env": "dev", "tag": "v1"}, allowed],
	["an allow compares exactly", {"env": "DEV"}, not_allowed("ops")],
	["an allow compares JSON values", {"env": ["dev"]}, not_allowed("ops")],
	["deny wins", {"env": "dev", "mode": "force"}, denied("ops")],
	["a deny compares by canonical form", {"env": "dev", "mode": "FORCE"}, denied("ops")],
	["a deny compares by canonical form: full width", {"env": "dev", "mode": "ｆｏｒｃｅ"}, denied("ops")],
	["a deny needs the member", {"env": "dev", "mode": "forced"}, allowed],
	["ask", {"env": "dev", "region": "eu-west-1"}, asked("ops")],
	["ask, deny wins", {"env": "dev", "mode": "force", "region": "eu-west-1"}, denied("ops")],
]

test_args_rules if {
	got := args_outcomes([args_layer], [deploy(row[1]) | some row in args_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in args_rows; got[i] != row[2]] == []
}

# Arguments that are not an object are never allowed by an args rule,
# and every deny args rule bites on them.
test_args_rules_never_allow_what_they_cannot_read if {
	args_outcomes([args_layer], [deploy("env=staging"), deploy(["dev"])]) == [denied("ops"), denied("ops")]
	allow_only := object.remove(args_layer, ["deny", "ask"])
	args_outcomes([allow_only], [deploy("env=staging"), deploy(7)]) == [not_allowed("ops"), not_allowed("ops")]
}

# No arguments read as {}.
test_absent_arguments_are_an_empty_object if {
	layer := {"name": "ops", "allow": [{"tool": "deploy", "args_pattern": `^\{\}$`}]}
	[d.outcome | some d in tooleval.decision.decisions] == ["allow", "allow"] with input as object.union(
		args_request([layer], []),
		{"calls": [{"id": "a", "name": "deploy"}, {"id": "b", "name": "deploy", "args": null}]},
	)
}

# [value, canonical JSON]: JSON.stringify's escapes once members are
# sorted, not json.marshal's.
canonical_json_rows := [
	[{"b": 1, "a": "x"}, `{"a":"x","b":1}`],
	[{"s": "<a&b>"}, `{"s":"<a&b>"}`],
	[{"s": `\u003c`}, `{"s":"\\u003c"}`],
	[{"s": `\\u003c`}, `{"s":"\\\\u003c"}`],
	[{"s": "\u2028\u2029"}, "{\"s\":\"\u2028\u2029\"}"],
	[{"s": "\"\n\u0001"}, `{"s":"\"\n\u0001"}`],
	[["<"], `["<"]`],
]

test_canonical_json if {
	[[row, got] | some row in canonical_json_rows; got := arguments.canonical_json(row[0]); got != row[1]] == []
}

args_problem_rows := [
	[{"tool": "deploy", "args_pattern": "("}, "invalid_args_pattern"],
	[{"tool": "deploy", "args_pattern": 7}, "invalid_args_pattern"],
	[{"tool": "deploy", "args": {}}, "invalid_args_rule"],
	[{"tool": "deploy", "args": "env=dev"}, "invalid_args_rule"],
	[{"tool": "deploy", "args": {"env": "dev"}, "match": ["env=dev"]}, "invalid_rule_examples"],
]

test_args_rule_errors if {
	got := [[e.code | some e in d.errors] |
		some row in args_problem_rows
		d := tooleval.decision with input as args_request([{"name": "l", "deny": [row[0]]}], [deploy({})])
	]
	[[row, got[i]] | some i, row in args_problem_rows; got[i] != [row[1]]] == []
}

# An args rule's examples are arguments objects.
test_args_rule_examples if {
	layer := {"name": "l", "allow": [{
		"tool": "deploy", "args": {"env": "dev"},
		"match": [{"env": "dev"}, {"env": "dev", "x": 1}], "not_match": [{"env": "DEV"}, {}],
	}]}
	tooleval.decision.errors == [] with input as args_request([layer], [deploy({})])
	failing := {"name": "l", "deny": [{"tool": "deploy", "args_pattern": "force", "match": [{"mode": "FORCE"}]}]}
	d := tooleval.decision with input as args_request([failing], [deploy({})])
	[[e.code, e.example] | some e in d.errors] == [["rule_example_failed", {"mode": "FORCE"}]]
}
