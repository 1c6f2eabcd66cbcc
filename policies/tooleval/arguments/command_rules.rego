# Command rules (issue 23): argument rules over a shell command's words,
# read by read_shell. command_prefix allows the commands whose words
# start with its words, command those whose words are its words,
# command_wildcard those whose words its words match (a word * any
# words, a * in a word any characters of it). A deny or ask command rule
# bites on a part that runs its program (by any path, in any case) with
# its other words among the part's own, in order, and on every part that
# runs a wrapper (see biting_rule).
package tooleval.arguments

# A command rule read as a shell reads it. A command_wildcard rule has
# no quotes; each * of it is read quoted ('*'), as a character of its
# word, so that it stands for what matching makes of it, not a glob.
_rule_command("command_wildcard", value) := read_shell(replace(value, "*", "'*'")) if {
	is_string(value)
	not regex.match(`['"]`, value)
} else := {"parts": []}

_rule_command(condition, value) := read_shell(value) if condition != "command_wildcard"

_part_bites(_, part) if part.wrapper

_part_bites(rule, part) if {
	rule.condition != "command_wildcard"
	_program(part.words[0]) == _program(rule.words[0])
	regex.match(_in_order(array.slice(rule.words, 1, count(rule.words))), _joined(array.slice(part.words, 1, count(part.words))))
}

_part_bites(rule, part) if {
	rule.condition == "command_wildcard"
	_program(part.words[0]) == _program(rule.words[0])
	regex.match(rule.matcher.bites, _joined(array.slice(part.words, 1, count(part.words))))
}

# A program as a deny rule compares it: program_key (the last segment of
# its path, lower case, without .exe).
_program(word) := program_key(word)

# Words joined with NUL around each (a word a shell reads has none).
_joined(words) := concat("", ["\u0000", concat("\u0000", words), "\u0000"])

# The regular expression that finds words, in order, among _joined words.
_in_order(words) := concat("", [`\x00`, concat(`\x00(?:[^\x00]*\x00)*?`, [_quoted(w) | some w in words]), `\x00`]) if {
	count(words) > 0
} else := ""

_quoted(word) := regex.replace(word, `[\\.+*?()|\[\]{}^$]`, `\${0}`)

# METADATA
# description: |
#   What a command_wildcard rule (its words, * kept) is matched with:
#   allows, the regular expression its words match exactly (_joined: a
#   word * any words, none included; a * in a word any characters of
#   it); bites, the one that finds its words but the program, in order
#   among others, a word * dropped (see biting_rule).
wildcard_matcher(words) := {
	"allows": concat("", ["^\\x00", concat("", [_wildcard_word(w) | some w in words]), "$"]),
	"bites": _in_order_wild([w | some w in array.slice(words, 1, count(words)); w != "*"]),
}

_wildcard_word("*") := `(?:[^\x00]*\x00)*`

_wildcard_word(word) := concat("", [_wild_quoted(word), `\x00`]) if word != "*"

_wild_quoted(word) := replace(_quoted(word), `\*`, `[^\x00]*`)

_in_order_wild(words) := concat("", [`\x00`, concat(`\x00(?:[^\x00]*\x00)*?`, [_wild_quoted(w) | some w in words]), `\x00`]) if {
	count(words) > 0
} else := ""

_allows_words(rules, words) if {
	some rule in rules
	rule.condition == "command"
	words == rule.words
}

_allows_words(rules, words) if {
	some rule in rules
	rule.condition == "command_prefix"
	count(words) >= count(rule.words)
	array.slice(words, 0, count(rule.words)) == rule.words
}

_allows_words(rules, words) if {
	some rule in rules
	rule.condition == "command_wildcard"
	regex.match(rule.matcher.allows, _joined(words))
}
