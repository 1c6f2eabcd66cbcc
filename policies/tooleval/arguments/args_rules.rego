# Argument rules over a call's arguments as a whole (issue 23): a
# regular expression over their canonical JSON (args_pattern, as Gemini
# CLI's argsPattern) and exact member conditions (args). A pattern over
# JSON text is brittle: the same arguments can be written in ways a
# pattern does not foresee (an escape, another member order in the
# caller's text, a number spelled 1.0), so an allow pattern should be
# anchored and narrow, and a deny pattern is a tripwire, not a fence.
package tooleval.arguments

import data.tooleval.canonical.canonical
import data.tooleval.shape

# METADATA
# description: |
#   The arguments of call as args rules read them: {args, json}, args
#   the call's args object (an absent or null args is {}) and json its
#   canonical JSON (canonical_json); or {unreadable} when args is not an
#   object.
args_reading(call) := {"args": args, "json": canonical_json(args)} if {
	args := shape.field(call, "args", {})
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
#   left begins an escape). Numbers are as the caller wrote them.
canonical_json(value) := replace(unescaped, "\u0001", `\\`) if {
	escaped := replace(json.marshal(value), `\\`, "\u0001")
	unescaped := replace(
		replace(replace(replace(replace(escaped, `\u003c`, "<"), `\u003e`, ">"), `\u0026`, "&"), `\u2028`, "\u2028"),
		`\u2029`, "\u2029",
	)
}

# METADATA
# description: |
#   Whether arguments (an object) carry each member of an allow args
#   rule's value with that very value (JSON equality).
args_permits(value, arguments) if {
	every name, expected in value {
		arguments[name] == expected
	}
}

# METADATA
# description: |
#   Whether arguments (an object) may carry each member of a deny or ask
#   args rule's value: strings are compared by their canonical form
#   (NFKC_Casefold), so that case and compatibility spellings do not slip
#   past (a string with no canonical form here, one over 256 characters,
#   may be any); other values by JSON equality.
args_bites(value, arguments) if {
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
