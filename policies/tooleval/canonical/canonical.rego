# METADATA
# title: Canonical names
# description: |
#   Every name the policy compares (declared names, call names, pattern
#   entries, MCP server and tool names) is compared in one canonical form:
#   the Unicode NFKC_Casefold of the name (NFKC, full case folding,
#   default-ignorable code points removed) with leading and trailing white
#   space trimmed.
#
#   ASCII names take a fast path (lower case, trimmed) that never reads the
#   Unicode table. Other names are mapped one character at a time through
#   data.tooleval.unicode.map, generated from golang.org/x/text by
#   internal/nfkccf. Per-character mapping is exact unless the result would
#   still change under NFC (a combining mark out of canonical order, or a
#   character that would compose with the starter before it); such names,
#   and names longer than max_name_length, have no canonical form here:
#   canonical is undefined for them and every caller refuses them.
package tooleval.canonical

import data.tooleval.unicode

# METADATA
# title: max_name_length
# description: Names longer than this many characters are not canonicalized.
max_name_length := 256

# METADATA
# title: canonical
# description: |
#   The canonical form of s, or undefined when s is not a string or has no
#   exact canonical form in Rego (see the package description).
canonical(s) := lower(s) if {
	plain_name(s)
} else := lower(trim_space(s)) if {
	measurable(s)
	is_ascii(s)
} else := trim_space(mapped) if {
	measurable(s)
	mapped := concat("", [mapped_char(c) | some c in split(s, "")])
	is_nfc(split(mapped, ""))
}

# METADATA
# title: plain_name
# description: |
#   s is a name of 1 to 256 ASCII letters, digits, _, . and - only. Its
#   canonical form is its lower case, and as a pattern entry it is a valid
#   exact entry. Most names are plain; checking that first spares them the
#   general path.
plain_name(s) if regex.match(`^[A-Za-z0-9_.-]{1,256}$`, s)

# METADATA
# title: canonical_or_null
# description: canonical(s), or null where it is undefined.
canonical_or_null(s) := c if {
	c := canonical(s)
} else := null

measurable(s) if {
	is_string(s)
	count(s) <= max_name_length
}

is_ascii(s) if regex.match(`^[\x00-\x7f]*$`, s)

# is_nfc holds when the characters are already in Unicode NFC: no
# combining mark follows a mark of a higher class (counting the marks
# inside a precomposed letter), and no composable character would compose
# with the starter before it.
is_nfc(chars) if {
	every i, c in chars {
		in_canonical_order(chars, i, c)
		not composes_with_starter(chars, i, c)
	}
}

# Every table look-up is a ground reference, so that a store read fetches
# one entry instead of converting the whole table.
mapped_char(c) := mapped if {
	mapped := unicode.map[c]
} else := c

combining_class(c) := class if {
	class := unicode.ccc[c]
} else := 0

# The class of the last mark in c's canonical decomposition: a precomposed
# letter followed by a mark of a lower class would be reordered by NFC.
trailing_class(c) := class if {
	class := unicode.trail_ccc[c]
} else := combining_class(c)

in_canonical_order(_, 0, _) := true

in_canonical_order(_, i, c) if {
	i > 0
	combining_class(c) == 0
}

in_canonical_order(chars, i, c) if {
	i > 0
	trailing_class(chars[i - 1]) <= combining_class(c)
}

# The character right before c is a starter.
composes_with_starter(chars, i, c) if {
	unicode.composable[c]
	i > 0
	previous := chars[i - 1]
	combining_class(previous) == 0
	unicode.compositions[concat("", [previous, c])]
}

# Combining marks of a lower class stand between c and the last starter;
# they do not block it (the order check guarantees the mark right before c
# has the highest class among them).
composes_with_starter(chars, i, c) if {
	unicode.composable[c]
	i > 0
	class := combining_class(c)
	blocker := combining_class(chars[i - 1])
	blocker > 0
	blocker < class
	starters := [j | some j in numbers.range(0, i - 1); combining_class(chars[j]) == 0]
	count(starters) > 0
	unicode.compositions[concat("", [chars[max(starters)], c])]
}
