package tooleval.canonical_test

import data.tooleval.canonical.canonical
import data.tooleval.canonical.canonical_or_null

# Names and their canonical forms. The contract's examples (docs/contract.md)
# come first.
canonical_cases := {
	"Search": "search",
	"\uff33\uff25\uff21\uff32\uff23\uff28": "search",
	" search ": "search",
	"se\u200barch": "search",
	"straße": "strasse",
	"STRASSE": "strasse",
	"\u212aelvin": "kelvin",
	"read_file": "read_file",
	"\tREAD_FILE\n": "read_file",
	"": "",
	"\u3000search\u00a0": "search",
	"\ufb01le": "file",
	"\u00e9": "\u00e9",
	"\u00c9": "\u00e9",
	"\u03a3\u0391\u03a3": "\u03c3\u03b1\u03c3",
	"\u0130": "i\u0307",
	"x\u0316": "x\u0316",
	"x\u0317\u0316": "x\u0317\u0316",
	"\u0301x": "\u0301x",
	"\u03b1\u0345": "\u03b1\u03b9",
	"\u0410\u0411": "\u0430\u0431",
	"\u1e9e": "ss",
	"a\u00ad\ufe0fb": "ab",
	"\uac00": "\uac00",
	# Cherokee folds to upper case (CaseFolding.txt), lower case included.
	"\uabb3\uab83\uab79": "\u13e3\u13b3\u13a9",
	"\u13e3\u13b3\u13a9": "\u13e3\u13b3\u13a9",
	"\u13f8": "\u13f0",
}

test_canonical_forms if {
	mismatches := {[name, got, want] |
		some name, want in canonical_cases
		got := canonical_or_null(name)
		got != want
	}
	mismatches == set()
}

# Names whose canonical form would need NFC composition or reordering,
# names that are too long and non-strings have none.
refused_cases := [
	"e\u0301",
	"a\u0323",
	"a\u0316\u0301",
	"a\u0301\u0316",
	"\u1100\u1161",
	"\uac00\u11a8",
	"A\u030a",
	"a\u200b\u0301",
	"\u00ea\u0327",
	# Marks out of canonical order: NFD would reorder them.
	"a\u0345\u0323",
	"x\u0301\u0316",
	# In order, but the result would compose (a with dot below).
	"a\u0323\u0345",
	repeat("x", 257),
	5,
	null,
	["a"],
	{"a": 1},
]

test_canonical_refuses if {
	every name in refused_cases {
		not canonical(name)
		canonical_or_null(name) == null
	}
}

test_canonical_length_limit if {
	canonical(repeat("A", 256)) == repeat("a", 256)
	not canonical(repeat("A", 257))
	canonical(repeat("\u00c9", 256)) == repeat("\u00e9", 256)
}

test_canonical_is_idempotent if {
	every name, want in canonical_cases {
		canonical(want) == want
		canonical(name) == canonical(canonical(name))
	}
}

repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# The regular expression of a plain name, written out where it is used,
# is plain_name_chars anchored.
test_plain_name_regex_is_plain_name_chars if {
	concat("", ["^", data.tooleval.canonical.plain_name_chars, "$"]) == `^[A-Za-z0-9_.-]{1,256}$`
	data.tooleval.canonical.plain_name("Read_File.v2-x")
	not data.tooleval.canonical.plain_name(" read")
	data.tooleval.canonical.plain_name(concat("", ["a" | some _ in numbers.range(1, 256)]))
	not data.tooleval.canonical.plain_name(concat("", ["a" | some _ in numbers.range(1, 257)]))
}
