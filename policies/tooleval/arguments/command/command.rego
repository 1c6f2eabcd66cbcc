# METADATA
# title: Command rules
# description: |
#   Argument rules over a shell command's words, read by
#   tooleval.arguments.shell (or .argv for an argument vector).
#   command_prefix allows the commands whose words start with its words,
#   command those whose words are its words, command_wildcard those whose
#   words its words match (a word * any words, a * in a word any
#   characters of it), each only on a part that is exact (shell.shell_part). A
#   deny or ask command rule bites as part_bites says: an
#   over-approximation of the parts that may run its program with its
#   other words. One of the condition families joined by
#   tooleval.arguments (rules.rego), with the same rules as the others:
#   problem, compile, example, example_reading, bites, permits and
#   lets_through.
package tooleval.arguments.command

import data.tooleval.arguments.argv
import data.tooleval.arguments.shell

# METADATA
# description: |
#   Why value is not the value of a command rule of condition (in a list
#   of kind "allow", "deny" or "ask"), as a code of
#   tooleval.arguments.rule_problem_messages; undefined when it is one:
#   one simple command a shell reads exactly, a command_wildcard rule's
#   first word without *, and no allow rule starting with a wrapper (the
#   words after it are not the command that runs; a deny or ask rule
#   that starts with one bites).
problem(condition, value, kind) := "invalid_command_rule" if {
	not _one_command(condition, value)
} else := "wildcard_program" if {
	condition == "command_wildcard"
	contains(_rule_command(condition, value).parts[0].words[0], "*")
} else := "wrapper_in_allow" if {
	kind == "allow"
	_rule_command(condition, value).parts[0].wrapper
}

_one_command(condition, value) if count(_rule_command(condition, value).parts) == 1

# METADATA
# description: |
#   A command rule (valid) as matching reads it: its value, its words and,
#   for a command_wildcard rule, what it is matched with
#   (_wildcard_matcher; null for the others).
compile(condition, value) := {
	"value": value,
	"words": _rule_command(condition, value).parts[0].words,
	"matcher": _matcher(condition, value),
}

_matcher("command_wildcard", value) := _wildcard_matcher(_rule_command("command_wildcard", value).parts[0].words)

_matcher(condition, _) := null if condition != "command_wildcard"

# METADATA
# scope: document
# description: Whether x is an example a command rule reads (a command, or an argument vector).
example(x) if is_string(x)

example(x) if argv.string_list(x)

# METADATA
# description: An example command read as a call that carries it (an argument vector as exec reads it).
example_reading(x) := argv.read_argv(x) if {
	is_array(x)
} else := shell.read_shell(x)

# METADATA
# scope: document
# description: |
#   Whether a deny or ask command rule bites on a command reading: it is
#   unreadable, or one of its parts may run the rule's program with the
#   rule's other words (part_bites).
bites(_, reading) if reading.unreadable

bites(rule, reading) if {
	some part in reading.parts
	part_bites(rule, part)
}

# METADATA
# description: |
#   Whether allow command rules (rules) permit a command reading: every
#   part is read exactly and allowed by one of them (allows_words).
permits(rules, reading) if {
	count(rules) > 0
	every part in reading.parts {
		part.exact
		allows_words(rules, part.words)
	}
}

# METADATA
# description: Whether an allow command rule lets some part of a command reading through, a part read exactly.
lets_through(rule, reading) if {
	some part in reading.parts
	part.exact
	allows_words([rule], part.words)
}

# A command rule read as a shell reads it. A command_wildcard rule has
# no quotes; each * of it is read quoted ('*'), as a character of its
# word, so that it stands for what matching makes of it, not a glob.
_rule_command("command_wildcard", value) := shell.read_shell(replace(value, "*", "'*'")) if {
	is_string(value)
	not regex.match(`['"]`, value)
} else := {"parts": []}

_rule_command(condition, value) := shell.read_shell(value) if condition != "command_wildcard"

# METADATA
# scope: document
# description: |
#   Whether a deny or ask command rule of program P bites a part (see
#   shell.shell_part): what the part runs is not read (a wrapper); P is the
#   program key of a token of a later word of a program not known to run
#   nothing else, or matches one of its glob tokens; or the part runs P
#   and either redefines what its words mean (shell.reconfiguring_words) or
#   each later word of the rule (a word * of a command_wildcard rule
#   dropped) is bitten by one of the part's later words, in any order
#   (_bitten).
part_bites(_, part) if part.wrapper

part_bites(rule, part) if shell.program_key(rule.words[0]) in part.runs

part_bites(rule, part) if {
	some pattern in part.patterns
	regex.match(pattern, shell.program_key(rule.words[0]))
}

part_bites(rule, part) if {
	part.reconfigured
	shell.program_key(part.words[0]) == shell.program_key(rule.words[0])
}

part_bites(rule, part) if {
	key := shell.program_key(part.words[0])
	key == shell.program_key(rule.words[0])
	later := array.slice(part.words, 1, count(part.words))
	every word in array.slice(rule.words, 1, count(rule.words)) {
		_bitten(rule.condition, key, word, later)
	}
}

# A rule's later word is bitten by a part's later words (of program
# key): a word * of a command_wildcard rule always; one of them is the
# word or one of its spellings (shell.command_aliases), abbreviates one (a
# non-empty prefix of it, compared without case, - and _, a word
# starting with - only for one starting with -), or holds one as a token
# (shell.word_tokens: git -c alias.p=push); a short option cluster (-rf) has
# each of its letters in the part's short option clusters (-r -f, -fr).
_bitten("command_wildcard", _, "*", _)

_bitten(condition, key, word, later) if {
	not _wild_star(condition, word)
	some name in shell.spellings(key, word)
	matcher := _word_matcher(condition, name)
	some candidate in later
	_spells(matcher, name, candidate)
}

_bitten(_, _, word, later) if {
	regex.match(`^-[A-Za-z0-9]+$`, word)
	letters := {letter |
		some candidate in later
		regex.match(`^-[A-Za-z0-9]+$`, candidate)
		some letter in split(substring(candidate, 1, -1), "")
	}
	every letter in split(substring(word, 1, -1), "") {
		letter in letters
	}
}

_wild_star("command_wildcard", "*")

# The regular expression a part's word (or token) matches a rule's word
# name with: exactly, or with each * of a command_wildcard rule's word
# any characters.
_word_matcher("command_wildcard", name) := concat("", ["^", _wild_quoted(name), "$"])

_word_matcher(condition, name) := concat("", ["^", _quoted(name), "$"]) if condition != "command_wildcard"

_spells(matcher, _, candidate) if regex.match(matcher, candidate)

_spells(matcher, _, candidate) if {
	some token in shell.word_tokens(candidate)
	regex.match(matcher, token)
}

_spells(_, name, candidate) if {
	folded := _folded(candidate)
	folded != ""
	startswith(candidate, "-") == startswith(name, "-")
	startswith(_folded(split(name, "*")[0]), folded)
}

_folded(word) := lower(regex.replace(word, `[-_]`, ""))

_quoted(word) := regex.replace(word, `[\\.+*?()|\[\]{}^$]`, `\${0}`)

# What a command_wildcard rule (its words, * kept) is matched with:
# allows, the regular expression its words match exactly (_joined: a
# word * any words, none included; a * in a word any characters of it).
# A deny or ask wildcard rule bites as part_bites says.
_wildcard_matcher(words) := {"allows": concat("", ["^\\x00", concat("", [_wildcard_word(w) | some w in words]), "$"])}

_wildcard_word("*") := `(?:[^\x00]*\x00)*`

_wildcard_word(word) := concat("", [_wild_quoted(word), `\x00`]) if word != "*"

_wild_quoted(word) := replace(_quoted(word), `\*`, `[^\x00]*`)

# Words joined with NUL around each (a word a shell reads has none).
_joined(words) := concat("", ["\u0000", concat("\u0000", words), "\u0000"])

# METADATA
# scope: document
# description: |
#   Whether one of rules (compiled allow command rules) allows a part's
#   words: a command rule names them, a command_prefix rule's words start
#   them, a command_wildcard rule's matcher matches them.
allows_words(rules, words) if {
	some rule in rules
	rule.condition == "command"
	words == rule.words
}

allows_words(rules, words) if {
	some rule in rules
	rule.condition == "command_prefix"
	count(words) >= count(rule.words)
	array.slice(words, 0, count(rule.words)) == rule.words
}

allows_words(rules, words) if {
	some rule in rules
	rule.condition == "command_wildcard"
	regex.match(rule.matcher.allows, _joined(words))
}
