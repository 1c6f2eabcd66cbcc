# METADATA
# title: Args rules
# description: |
#   Argument rules over a call's arguments as a whole: a
#   regular expression over their canonical JSON (args_pattern, as Gemini
#   CLI's argsPattern) and exact member conditions (args). A pattern over
#   JSON text is brittle: the same arguments can be written in ways a
#   pattern does not foresee (an escape, another member order in the
#   caller's text, a number spelled 1.0), so an allow pattern should be
#   anchored and narrow, and a deny pattern is a tripwire, not a fence.
#
#   One of the condition families joined by tooleval.arguments
#   (rules.rego), with the same rules as the others: problem, compile,
#   example, example_reading, bites, permits and lets_through.
package tooleval.arguments.args

import data.tooleval.canonical.canonical
import data.tooleval.shape

# METADATA
# scope: document
# description: |
#   Why value is not the value of an args_pattern or args rule, as a code
#   of tooleval.arguments.rule_problem_messages; undefined when it is
#   one: a regular expression (RE2 syntax), or a non-empty object whose
#   numbers are within float64's range.
problem("args_pattern", value, _) := "invalid_args_pattern" if not _regex(value) # regal ignore:argument-always-wildcard

problem("args", value, _) := "invalid_args_rule" if not _non_empty_object(value)

problem("args", value, _) := "invalid_args_rule" if not es_value(value) # a number beyond float64's range

_regex(value) if {
	is_string(value)
	regex.is_valid(value)
}

_non_empty_object(value) if {
	is_object(value)
	count(value) > 0
}

# METADATA
# scope: document
# description: |
#   An args_pattern or args rule (valid) as matching reads it: its value
#   (an args rule's with its numbers as the arguments are read, es_value:
#   a float64 each, as JSON.parse reads them), no words, no matcher.
compile("args_pattern", value) := {"value": value, "words": null, "matcher": null}

compile("args", value) := {"value": es_value(value), "words": null, "matcher": null}

# METADATA
# description: Whether x is an example an args_pattern or args rule reads (the arguments, an object).
example(x) if is_object(x)

# METADATA
# description: Example arguments read as a call that carries them.
example_reading(x) := reading({"args": x})

# METADATA
# scope: document
# description: |
#   Whether a deny or ask args_pattern or args rule bites on an
#   arguments reading: it is unreadable, or the pattern matches the
#   arguments' canonical JSON, or they may carry each member of the args
#   rule's value (_may_carry).
bites(_, reading) if reading.unreadable

bites(rule, reading) if _bites(rule.condition, rule.value, reading)

_bites("args_pattern", value, reading) if regex.match(value, reading.json)

_bites("args", value, reading) if _may_carry(value, reading.args)

# METADATA
# description: Whether allow args_pattern and args rules (rules) permit an arguments reading, one of them letting it through.
permits(rules, reading) if {
	some rule in rules
	lets_through(rule, reading)
}

# METADATA
# scope: document
# description: |
#   Whether an allow args_pattern or args rule lets an arguments reading
#   through: the pattern matches their canonical JSON, or they carry each
#   member of the args rule's value with that very value (_carries).
lets_through(rule, reading) if _lets_through(rule.condition, rule.value, reading)

_lets_through("args_pattern", value, reading) if regex.match(value, reading.json)

_lets_through("args", value, reading) if _carries(value, reading.args)

# METADATA
# description: |
#   The arguments of call as args rules read them: {args, json}, args
#   the call's args object (an absent or null args is {}; its numbers
#   spelled as es_value spells them) and json its
#   canonical JSON (canonical_json); or {unreadable} when args is not an
#   object or holds a number beyond float64's range (JSON.parse reads it
#   as Infinity, JSON.stringify writes it null, another reader otherwise:
#   it cannot be read exactly).
reading(call) := _object_reading(shape.field(call, "args", {}))

_object_reading(args) := {"args": es_value(args), "json": text} if {
	is_object(args)
	text := canonical_json(args)
} else := {"unreadable": "a number of the call's arguments is beyond the range of a float64"} if {
	is_object(args)
} else := {"unreadable": "the call's arguments are not an object"}

# METADATA
# description: |
#   The canonical JSON of a value, as JSON.stringify writes it once
#   object members are sorted by name: no white space, members in order
#   of their names, strings with only ", \ and control characters
#   escaped (json.marshal also writes <, >, &, U+2028 and U+2029 as \u
#   escapes; they are given back: first every \\ is set aside as a
#   control character json.marshal never leaves raw, so each \u that is
#   left begins an escape), and every number in one spelling, ECMAScript's
#   (es_number): 1e7, 1.0e7 and 10000000 are all 10000000. Undefined
#   when a number is beyond float64's range.
canonical_json(value) := replace(unescaped, "\u0001", `\\`) if {
	escaped := replace(_es_json(json.marshal(value)), `\\`, "\u0001")
	unescaped := replace(
		replace(replace(replace(replace(escaped, `\u003c`, "<"), `\u003e`, ">"), `\u0026`, "&"), `\u2028`, "\u2028"),
		`\u2029`, "\u2029",
	)
}

# METADATA
# description: |
#   value with each number spelled as ECMAScript writes it (es_number):
#   a number whose text is its es_number, which json.marshal writes as it
#   is. What a decision quotes of a call's values is spelled so, as the
#   value, not its spelling, decides (OPA's function cache equates
#   numbers by value: a spelling could come from another call of the
#   batch). Undefined when a number has no es_number.
es_value(value) := json.unmarshal(_es_json(json.marshal(value)))

# JSON text (json.marshal's) with each number spelled as es_number
# spells it: the text is read as a run of tokens, each a string, a number
# or anything else (punctuation, true, false, null: outside strings only
# a number has a digit or a -), and each number token is written again.
# Undefined when the tokens are not the whole text or a number has no
# es_number. One pass over the text: a value with many numbers costs
# what its text does.
_es_json(text) := concat("", spelled) if {
	tokens := regex.find_n(`"(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|[^"0-9-]+`, text, -1)
	concat("", tokens) == text
	spelled := [_es_token(token) | some token in tokens]
	count(spelled) == count(tokens)
}

_es_token(token) := es_number(token) if regex.match(`^-?[0-9]`, token)

_es_token(token) := token if not regex.match(`^-?[0-9]`, token)

# METADATA
# description: |
#   The text ECMAScript's Number::toString writes for the number a JSON
#   number text (text) holds, as JSON.stringify and Gemini CLI's stable
#   stringify write a number
#   (https://tc39.es/ecma262/#sec-numeric-types-number-tostring): the
#   number is first rounded to a float64; then the shortest digits that
#   read back as it (the closest of those), in plain digits when its
#   decimal exponent is within [-7, 21) and in exponent form (1e+21,
#   1.5e-7) otherwise; -0 is 0. The float64 and its shortest digits are
#   Go's (sprintf of a number whose text is a float's: strconv's shortest
#   formatting), so the result depends on the number, never on its
#   spelling. Undefined for a number beyond float64's range. It takes the
#   text, not a number: OPA's function cache hashes every number below 1
#   in magnitude (and every huge one) alike, so a function of many
#   numbers would cost their square.
es_number(text) := _es_text(sign, trimmed, point) if {
	# sprintf writes a number whose text has ., e or E as a float64
	# (shortest digits); an integer's text gets an exponent of 0
	g := sprintf("%v", [to_number(_float_text(text))])
	parts := regex.find_all_string_submatch_n(`^(-?)([0-9]+)(?:\.([0-9]+))?(?:e([-+])([0-9]+))?$`, g, 1)[0]
	sign := _sign(parts[1])
	digits := concat("", [parts[2], parts[3]])
	lead := trim_left(digits, "0")
	trimmed := trim_right(lead, "0")

	# the decimal point's place: after the integer digits, moved by the
	# exponent, less the leading zeros dropped
	point := ((count(parts[2]) + _exponent(parts[4], parts[5])) - count(digits)) + count(lead)
}

_float_text(text) := text if regex.match(`[.eE]`, text)

else := concat("", [text, "e0"])

_sign("-") := "-"

_sign("") := ""

_exponent("", "") := 0

_exponent("+", digits) := to_number(_decimal(digits))

_exponent("-", digits) := 0 - to_number(_decimal(digits))

_decimal(digits) := "0" if trim_left(digits, "0") == ""

else := trim_left(digits, "0")

# ECMAScript's Number::toString of sign, digits (k of them, no zero at
# either end) and point n (the value is 0.digits times ten to the n):
# with k <= n <= 21 the digits and n - k zeros; with 0 < n <= 21 the
# digits with a point after the n-th; with -6 < n <= 0 "0.", -n zeros
# and the digits; otherwise one digit, "." and the others when k > 1,
# "e", the exponent's sign and n - 1 without it.
_es_text(_, "", _) := "0"

_es_text(sign, digits, n) := concat("", [sign, digits, _zeros(n - count(digits))]) if {
	digits != ""
	count(digits) <= n
	n <= 21
} else := concat("", [sign, substring(digits, 0, n), ".", substring(digits, n, -1)]) if {
	digits != ""
	n > 0
	n <= 21
} else := concat("", [sign, "0.", _zeros(0 - n), digits]) if {
	digits != ""
	n > -6
	n <= 0
} else := concat("", [sign, _mantissa(digits), "e", _exponent_text(n - 1)]) if {
	digits != ""
}

_zeros(m) := substring("000000000000000000000", 0, m)

_mantissa(digits) := digits if count(digits) == 1

else := concat("", [substring(digits, 0, 1), ".", substring(digits, 1, -1)])

_exponent_text(e) := sprintf("+%d", [e]) if e >= 0

else := sprintf("%d", [e])

# Whether arguments (an object) carry each member of an allow args
# rule's value with that very value (JSON equality, numbers by value).
_carries(value, arguments) if {
	every name, expected in value {
		arguments[name] == expected
	}
}

# Whether arguments (an object) may carry each member of a deny or ask
# args rule's value: strings are compared by their canonical form
# (NFKC_Casefold), so that case and compatibility spellings do not slip
# past (a string with no canonical form here, one over 256 characters,
# may be any); other values by JSON equality.
_may_carry(value, arguments) if {
	every name, expected in value {
		_may_be(arguments[name], expected)
	}
}

_may_be(actual, expected) if actual == expected

_may_be(actual, expected) if {
	is_string(actual)
	is_string(expected)
	canonical(actual) == canonical(expected)
}

_may_be(actual, expected) if {
	is_string(actual)
	is_string(expected)
	not canonical(actual)
}
