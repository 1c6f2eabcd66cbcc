# Exceptions of deny and ask argument rules (unless): allow entries
# (names and argument rules) whose calls, or command parts, the rule
# does not bite. They carry an ordered list of rules, such as Gemini
# CLI's by priority, into deny, ask and allow lists: a rule with the
# rules before it that decide otherwise as its exceptions. An exception
# spares a call only through the reading of its rule: a command rule's
# argument rules are command rules (on the same part), a domain rule's
# domain rules, a path rule's path rules, an args rule's args rules; a
# rule of a whole tool (args_pattern "") takes exceptions of every kind,
# judged together as an allow list judges a call (permits).
package tooleval.arguments

import data.tooleval.arguments.command
import data.tooleval.pattern
import data.tooleval.shape

# A deny or ask rule's exceptions (unless): a non-empty list of at most
# shape.max_entries allow entries, each a string (checked as an allow
# entry with the list's) or an argument rule that is a valid allow rule
# whose examples hold (it has no unless itself). Whether each is of its
# rule's kind is exception_kind_problems'.
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

# METADATA
# description: |
#   Whether a rule (an argument rule's entry, valid) is the rule of a
#   whole tool: args_pattern "", which bites every call of its tool, and
#   whose exceptions are judged as an allow list judges a call.
whole_tool(entry) if entry.args_pattern == ""

# whole_tool as a boolean, for a compiled rule.
_whole(entry) if whole_tool(entry)

else := false

# METADATA
# description: |
#   The indexes (in unless) of a deny or ask rule's exceptions that are
#   argument rules of another kind than the rule (entry, valid): they
#   would spare a call through a reading the rule does not look at (a
#   path or the arguments sparing a command). Names are of every kind;
#   so is every exception of a whole tool's rule (whole_tool).
exception_kind_problems(entry) := [k |
	not whole_tool(entry)
	reads := rule_conditions[rule_condition(entry)]
	some k, exception in entry.unless
	is_object(exception)
	rule_conditions[rule_condition(exception)] != reads
]

# Whether rule (compiled, of a deny or an ask list) bites on a call of
# the tool with canonical name name and record, read as readings, with
# required the readings the tool's allow rules must permit
# (required_readings). A rule without exceptions bites as _bites says.
# A rule of a whole tool (whole_tool) with exceptions bites unless they
# allow the call as an allow list of them would: a name entry matches
# the tool, or its argument rules for the tool permit the call (permits:
# every kind they look at, and the command and URL the tool has, read
# exactly and matched; so a path or args exception alone never spares a
# shell call). Any other rule with exceptions (unless: allow entries, as
# Gemini CLI's rules of higher priority) is judged per part of a command
# read exactly, or on the whole call: it bites when, on one such unit,
# it bites and no exception of its own kind allows that unit exactly
# (_excepted). So a deny of git with the exception git status bites
# git status && git push (on its second part), not git status -s; an
# exception never spares what cannot be read exactly.
_bites_call(rule, _, _, readings, _) if {
	rule.unless == null
	_bites(rule.reads, rule, readings)
}

_bites_call(rule, name, record, readings, required) if {
	rule.unless != null
	rule.whole
	_bites(rule.reads, rule, readings)
	not pattern.matches(rule.unless.names, name, record)
	not permits([r | some r in rule.unless.rules; pattern.matches(r.tool, name, record)], readings, required)
}

_bites_call(rule, name, record, readings, _) if {
	rule.unless != null
	not rule.whole
	some unit in _units(readings)
	_unit_bites(rule, unit, readings)
	not _excepted(rule, name, record, unit, readings)
}

# The units a rule with exceptions is judged on: the parts of a command
# read exactly, else the whole call (null).
_units(readings) := readings.command.parts if {
	not readings.command.unreadable
	count(readings.command.parts) > 0
} else := [null]

_unit_bites(rule, null, readings) if _bites(rule.reads, rule, readings)

_unit_bites(rule, part, _) if {
	part != null
	rule.reads == "command"
	command.part_bites(rule, part)
}

_unit_bites(rule, part, readings) if {
	part != null
	rule.reads != "command"
	_bites(rule.reads, rule, readings)
}

# Whether the exceptions of rule (compiled, {names, rules}) allow a unit
# of a call exactly: a name entry matches the tool, or an argument rule
# of the rule's own kind for the tool allows the unit (a part of a
# command read exactly and exact, for a command rule; the whole call, as
# an allow rule alone would, for the others).
_excepted(rule, name, record, _, _) if pattern.matches(rule.unless.names, name, record)

_excepted(rule, name, record, part, _) if {
	part != null
	part.exact
	rule.reads == "command"
	some exception in rule.unless.rules
	exception.reads == "command"
	pattern.matches(exception.tool, name, record)
	command.allows_words([exception], part.words)
}

_excepted(rule, name, record, _, readings) if {
	rule.reads != "command"
	some exception in rule.unless.rules
	exception.reads == rule.reads
	pattern.matches(exception.tool, name, record)
	_permits(rule.reads, [exception], readings)
}
