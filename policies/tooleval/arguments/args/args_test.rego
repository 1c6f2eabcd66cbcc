# Argument rules over a call's arguments as a whole: args_pattern, a
# regular expression over their canonical JSON (Gemini CLI's
# argsPattern, https://geminicli.com/docs/reference/policy-engine/
# ("policy engine")), and args, exact member conditions.
package tooleval.arguments.args_test

import data.tooleval
import data.tooleval.arguments.args
import data.tooleval.arguments_test

args_request(layers, calls) := object.union(arguments_test.rule_request(layers, calls), {"declared": [{"name": "deploy"}]})

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
	["policy engine: a pattern over the JSON", {"env": "staging"}, arguments_test.allowed],
	["members in order of their names", {"env": "staging", "tag": "v1"}, arguments_test.allowed],
	["members in order of their names", {"app": "x", "env": "staging"}, arguments_test.not_allowed("ops")],
	["anchored by its author", {"env": "staging2"}, arguments_test.not_allowed("ops")],
	["exact member", {"env": "dev"}, arguments_test.allowed],
	["exact member, other members free", {"env": "dev", "tag": "v1"}, arguments_test.allowed],
	["an allow compares exactly", {"env": "DEV"}, arguments_test.not_allowed("ops")],
	["an allow compares JSON values", {"env": ["dev"]}, arguments_test.not_allowed("ops")],
	["deny wins", {"env": "dev", "mode": "force"}, arguments_test.denied("ops")],
	["a deny compares by canonical form", {"env": "dev", "mode": "FORCE"}, arguments_test.denied("ops")],
	["a deny compares by canonical form: full width", {"env": "dev", "mode": "ｆｏｒｃｅ"}, arguments_test.denied("ops")],
	["a deny needs the member", {"env": "dev", "mode": "forced"}, arguments_test.allowed],
	["ask", {"env": "dev", "region": "eu-west-1"}, arguments_test.asked("ops")],
	["ask, deny wins", {"env": "dev", "mode": "force", "region": "eu-west-1"}, arguments_test.denied("ops")],
]

test_args_rules if {
	got := args_outcomes([args_layer], [deploy(row[1]) | some row in args_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in args_rows; got[i] != row[2]] == []
}

# Arguments that are not an object are never allowed by an args rule,
# and every deny args rule bites on them.
test_args_rules_never_allow_what_they_cannot_read if {
	args_outcomes([args_layer], [deploy("env=staging"), deploy(["dev"])]) == [arguments_test.denied("ops"), arguments_test.denied("ops")]
	allow_only := object.remove(args_layer, ["deny", "ask"])
	args_outcomes([allow_only], [deploy("env=staging"), deploy(7)]) == [arguments_test.not_allowed("ops"), arguments_test.not_allowed("ops")]
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
	[[row, got] | some row in canonical_json_rows; got := args.canonical_json(row[0]); got != row[1]] == []
}

args_problem_rows := [
	[{"tool": "deploy", "args_pattern": "("}, "invalid_args_pattern"],
	[{"tool": "deploy", "args_pattern": 7}, "invalid_args_pattern"],
	[{"tool": "deploy", "args": {}}, "invalid_args_rule"],
	[{"tool": "deploy", "args": "env=dev"}, "invalid_args_rule"],
	[{"tool": "deploy", "args": {"n": json.unmarshal("1e400")}}, "invalid_args_rule"],
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

# [number as written, as ECMAScript writes it] (node -e
# 'JSON.stringify(x)' wrote each): one spelling per float64 value. Not a
# number text: undefined.
es_number_rows := [
	["10000000", "10000000"],
	["1e7", "10000000"],
	["1.0e7", "10000000"],
	["1E7", "10000000"],
	["10000000.0", "10000000"],
	["1e+7", "10000000"],
	["-1e7", "-10000000"],
	["0", "0"],
	["-0", "0"],
	["-0.0", "0"],
	["0e5", "0"],
	["1.5", "1.5"],
	["0.1", "0.1"],
	["100", "100"],
	["1e20", "100000000000000000000"],
	["123456789012345678901", "123456789012345680000"],
	["1e21", "1e+21"],
	["-1e21", "-1e+21"],
	["1.5e300", "1.5e+300"],
	["123456789012345678901234", "1.2345678901234569e+23"],
	["9007199254740993", "9007199254740992"],
	["0.000001", "0.000001"],
	["1e-6", "0.000001"],
	["1.5e-6", "0.0000015"],
	["1e-7", "1e-7"],
	["-1.25e-7", "-1.25e-7"],
	["123e-20", "1.23e-18"],
	["5e-324", "5e-324"],
	["1e-400", "0"],
	["0.30000000000000004", "0.30000000000000004"],
	["0.3000000000000000444", "0.30000000000000004"],
	["1.7976931348623157e308", "1.7976931348623157e+308"],
	["12.50", "12.5"],
	["0.000123", "0.000123"],
]

test_es_number_of_what_is_not_a_number if {
	not args.es_number("x")
	not args.es_number("1e400")
	not args.es_number("Infinity")
}

test_es_number if {
	[[row, got] |
		some row in es_number_rows
		got := args.es_number(row[0])
		got != row[1]
	] == []
}

# Beyond float64's range a number has no ECMAScript spelling: the
# arguments are unreadable (every deny args rule bites, no allow).
test_a_number_beyond_float64_is_unreadable if {
	not args.es_number("1e400")
	args.reading({"args": {"n": json.unmarshal("1e400")}}).unreadable
	layer := {"name": "ops", "allow": [{"tool": "deploy", "args_pattern": ""}], "deny": [{"tool": "deploy", "args": {"x": 1}}]}
	args_outcomes([layer], [deploy({"n": json.unmarshal("-1e400")})]) == [arguments_test.denied("ops")]
	allow_only := object.remove(layer, ["deny"])
	args_outcomes([allow_only], [deploy({"n": json.unmarshal("1e400")}), deploy({"n": 1})]) == [arguments_test.not_allowed("ops"), arguments_test.allowed]
}

# The canonical JSON writes every number, nested or in a list, in its
# ECMAScript spelling.
test_canonical_json_numbers if {
	value := {"a": [to_number("1.0e7"), {"b": to_number("-0")}], "c": to_number("1E-7"), "d": to_number("2.50")}
	args.canonical_json(value) == `{"a":[10000000,{"b":0}],"c":1e-7,"d":2.5}`
}

# A call is decided on its own: a deny pattern over a number bites
# however the number is spelled, whichever spelling an earlier call of
# the batch used (OPA's function cache equates numbers by value).
test_a_number_is_read_alike_in_any_spelling if {
	layer := {"name": "ops", "allow": ["deploy"], "deny": [{"tool": "deploy", "args_pattern": `"replicas":10000000[,}]`}]}
	spellings := ["1e7", "10000000", "1.0e7", "1E7", "10000000.0"]
	calls := [deploy({"replicas": to_number(s)}) | some s in spellings]
	args_outcomes([layer], calls) == [arguments_test.denied("ops") | some _ in spellings]
	args_outcomes([layer], array.reverse(calls)) == [arguments_test.denied("ops") | some _ in spellings]
	args_outcomes([layer], [deploy({"replicas": 9999999})]) == [arguments_test.allowed]
}

# An args rule's numbers are read as the call's are, each a float64:
# 9007199254740993 is 9007199254740992, in the rule as in the call.
test_args_rule_numbers_are_float64 if {
	layer := {"name": "ops", "allow": ["deploy"], "deny": [{"tool": "deploy", "args": {"n": 9007199254740993}}]}
	args_outcomes([layer], [deploy({"n": 9007199254740992}), deploy({"n": 9.007199254740993e15}), deploy({"n": 1})]) == [
		arguments_test.denied("ops"), arguments_test.denied("ops"), arguments_test.allowed,
	]
}
