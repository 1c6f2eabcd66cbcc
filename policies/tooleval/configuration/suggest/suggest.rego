# METADATA
# title: Suggestions
# description: |
#   What an error about an unknown name suggests to the author: the valid
#   names closest to it.
package tooleval.configuration.suggest

# METADATA
# description: |
#   What an error about an unknown name adds for the author, given the
#   names that are valid there (known, a set of strings): the valid ones
#   closest to it, as " (did you mean X? valid: a, b, c)", or the valid
#   ones alone. A valid name is close when it is the name in another
#   case, starts with it or it with it, or is one edit away (a character
#   added, left out, replaced, or two neighbours swapped).
suggestion(name, known) := sprintf(" (did you mean %s? valid: %s)", [concat(" or ", close), concat(", ", sort(known))]) if {
	close := sort([k | some k in known; _close(name, k)])
	count(close) > 0
} else := sprintf(" (valid: %s)", [concat(", ", sort(known))])

_close(name, k) if {
	is_string(name)
	lower(name) == lower(k)
}

_close(name, k) if {
	is_string(name)
	name != ""
	startswith(k, name)
}

_close(name, k) if {
	is_string(name)
	k != ""
	startswith(name, k)
}

_close(name, k) if {
	is_string(name)
	_one_edit(name, k)
}

# a and b differ by one character added or left out.
_one_edit(a, b) if {
	count(a) == count(b) + 1
	_drops_to(a, b)
}

_one_edit(a, b) if {
	count(b) == count(a) + 1
	_drops_to(b, a)
}

# a and b differ in one character, or in two neighbours swapped.
_one_edit(a, b) if {
	count(a) == count(b)
	some i in numbers.range(0, count(a) - 1)
	substring(a, 0, i) == substring(b, 0, i)
	substring(a, i + 1, -1) == substring(b, i + 1, -1)
}

_one_edit(a, b) if {
	count(a) == count(b)
	some i in numbers.range(0, count(a) - 2)
	substring(a, 0, i) == substring(b, 0, i)
	substring(a, i, 1) == substring(b, i + 1, 1)
	substring(a, i + 1, 1) == substring(b, i, 1)
	substring(a, i + 2, -1) == substring(b, i + 2, -1)
}

# Leaving one character out of long gives short.
_drops_to(long, short) if {
	some i in numbers.range(0, count(long) - 1)
	concat("", [substring(long, 0, i), substring(long, i + 1, -1)]) == short
}
