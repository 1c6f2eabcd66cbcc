# Exceptions of deny and ask argument rules (unless): allow entries
# (names and argument rules) whose calls, or command parts, the rule
# does not bite. They carry an ordered list of rules, such as Gemini
# CLI's by priority, into deny, ask and allow lists: a rule with the
# rules before it that decide otherwise as its exceptions.
package tooleval.arguments

import data.tooleval.pattern
import data.tooleval.shape

# A deny or ask rule's exceptions (unless): a non-empty list of at most
# shape.max_entries allow entries, each a string (checked as an allow
# entry with the list's) or an argument rule that is a valid allow rule
# whose examples hold (it has no unless itself).
_exceptions(kind, unless) if {
	kind != "allow"
	is_array(unless)
	count(unless) > 0
	count(unless) <= shape.max_entries
	every exception in unless {
		_exception(exception)
	}
}

_exception(exception) if is_string(exception)

_exception(exception) if {
	is_object(exception)
	not "unless" in object.keys(exception)
	not _rule_problem(exception, "allow")
	count(rule_example_failures(exception, "allow")) == 0
}

# A rule's exceptions (unless) compiled: {names, rules}, the names
# compiled as an allow list's name entries, the argument rules as allow
# rules; null for a rule without exceptions (most).
_compile_exceptions(null, _) := null

_compile_exceptions(unless, vocabulary) := {
	"names": _compile_names([e | some e in unless; is_string(e)], vocabulary),
	"rules": _compile_conditions(unless, "allow", vocabulary),
} if {
	unless != null
}

_compile_names([], _) := pattern.nothing

_compile_names(names, vocabulary) := pattern.compile(names, "allow", vocabulary) if names != []

# Whether rule (compiled, of a deny or an ask list) bites on a call of
# the tool with canonical name name and record, read as readings. A rule
# without exceptions bites as _bites says. A rule with exceptions
# (unless: allow entries, as Gemini CLI's rules of higher priority) is
# judged per part of a command read exactly, or on the whole call: it
# bites when, on one such unit, it bites and no exception allows that
# unit exactly (_excepted). So a deny of git with the exception
# git status bites git status && git push (on its second part), not git
# status -s; an exception never spares what cannot be read exactly.
_bites_call(rule, _, _, readings) if {
	rule.unless == null
	_bites(rule, readings)
}

_bites_call(rule, name, record, readings) if {
	rule.unless != null
	some unit in _units(readings)
	_unit_bites(rule, unit, readings)
	not _excepted(rule.unless, name, record, unit, readings)
}

# The units a rule with exceptions is judged on: the parts of a command
# read exactly, else the whole call (null).
_units(readings) := readings.command.parts if {
	not readings.command.unreadable
	count(readings.command.parts) > 0
} else := [null]

_unit_bites(rule, null, readings) if _bites(rule, readings)

_unit_bites(rule, part, _) if {
	part != null
	rule.reads == "command"
	_part_bites(rule, part)
}

_unit_bites(rule, part, readings) if {
	part != null
	rule.reads != "command"
	_bites(rule, readings)
}

# Whether exceptions (compiled, {names, rules}) allow a unit of a call
# exactly: a name entry matches the tool, or an argument rule for the tool
# allows the unit (a part of a command read exactly and exact,
# for a command rule; the whole call, as an allow rule alone would, for
# the others).
_excepted(exceptions, name, record, _, _) if pattern.matches(exceptions.names, name, record)

_excepted(exceptions, name, record, part, _) if {
	part != null
	part.exact
	some rule in exceptions.rules
	rule.reads == "command"
	pattern.matches(rule.tool, name, record)
	_allows_words([rule], part.words)
}

_excepted(exceptions, name, record, _, readings) if {
	some rule in exceptions.rules
	rule.reads != "command"
	pattern.matches(rule.tool, name, record)
	_kind_permits(rule.reads, [rule], readings)
}
