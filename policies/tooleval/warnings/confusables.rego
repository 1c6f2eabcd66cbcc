# Confusable declared names (Unicode TS #39): two declared tools whose
# canonical names differ but share a skeleton look alike to a person
# reading a transcript or a policy (read_file and re\u0430d_file with a
# Cyrillic a). They are different tools to the policy, so this is a
# warning, not an error.
#
# data.tooleval.unicode.skeleton maps each character that can appear in
# a canonical name to its skeleton; it is generated from the Unicode
# confusables data (go generate ./internal/unicodegen).
package tooleval.warnings

import data.tooleval.canonical.canonical_or_null
import data.tooleval.shape

# METADATA
# description: The skeleton of a canonical name, character by character.
_skeleton(c) := concat("", [object.get(data.tooleval.unicode.skeleton, ch, ch) | some ch in split(c, "")])

_declared_names(doc) := {name |
	some d in shape.list_field(doc, "declared")
	name := shape.field(d, "name", null)
	is_string(name)
	canonical_or_null(name) != null
}

_names_by_skeleton(doc) := {s: sort([n | some n in names; _skeleton(canonical_or_null(n)) == s]) |
	names := _declared_names(doc)
	some name in names
	s := _skeleton(canonical_or_null(name))
}

_confusable_warnings(doc) := [_warning(
	"confusable_names",
	sprintf("declared names %v look alike (one Unicode TS #39 skeleton) but are different tools", [names]),
	{"field": "declared", "names": names},
) |
	some names in _names_by_skeleton(doc)
	count({canonical_or_null(n) | some n in names}) > 1
]
