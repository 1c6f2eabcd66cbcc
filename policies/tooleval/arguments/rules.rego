# Argument rules: entries of an inline layer's allow, deny or ask list
# that match a call's arguments as well as its tool (issue 23). An entry
# that is an object is an argument rule: {"tool": ENTRY, CONDITION:
# VALUE}, ENTRY one entry of the list's own grammar, CONDITION one of
# rule_conditions. The argument a condition reads is named per tool by
# the configuration's rule_arguments; a rule whose argument is missing,
# not a string or unreadable never allows, and every deny and ask rule
# bites on it.
package tooleval.arguments

import data.tooleval.pattern
import data.tooleval.shape

# METADATA
# description: |
#   The conditions an argument rule can state, each with the reading of
#   the call it looks at: command_prefix (the command's words start with
#   these words) and command (the command's words are these words) read
#   the shell command (read_shell), domain (the host, *.NAME below NAME,
#   * any) the URL (read_url).
rule_conditions := {
	"command_prefix": "command",
	"command": "command",
	"domain": "url",
}

# The members an argument rule may have: its tool, one condition, and
# examples (match, not_match).
_rule_members := {"tool", "command_prefix", "command", "domain", "match", "not_match"}

# METADATA
# description: |
#   The problem codes of argument rules, with their messages (the layer
#   errors quote them).
rule_problem_messages := {
	"unknown_rule_member": "an argument rule has only tool and one condition (command_prefix, command or domain)",
	"invalid_rule_tool": "an argument rule's tool must be a string entry",
	"rule_condition_count": "an argument rule states exactly one condition (command_prefix, command or domain)",
	"invalid_command_rule": "a command rule must be one simple command a shell reads exactly (no operator, quoting aside nothing a shell expands)",
	"wrapper_in_allow": "an allow command rule cannot start with a wrapper (sh, bash, env, xargs, sudo ...): the words after it are not the command that runs",
	"invalid_domain_rule": "a domain rule is a lower-case host name or IPv4 address, *.NAME or *",
	"invalid_rule_examples": "an argument rule's match and not_match are lists of strings (commands or URLs)",
	"rule_example_failed": "an argument rule does not match an example of its match list, or matches one of its not_match list (see example and expected)",
}

# METADATA
# description: |
#   Why entry (an object) of a list of kind ("allow", "deny" or "ask")
#   is not an argument rule, as a code of rule_problem_messages; undefined
#   when it is one (its tool is then checked as an entry of that list). A
#   wrapper may start a deny or ask command rule (it bites), never an
#   allow one.
rule_problem(entry, kind) := "unknown_rule_member" if {
	some member, _ in entry
	not _rule_members[member]
} else := "invalid_rule_tool" if {
	not is_string(object.get(entry, "tool", null)) # a missing tool is not a string either
} else := "rule_condition_count" if {
	count(_stated_conditions(entry)) != 1
} else := code if {
	code := _condition_problem(rule_condition(entry), entry[rule_condition(entry)])
} else := "wrapper_in_allow" if {
	kind == "allow"
	rule_conditions[rule_condition(entry)] == "command"
	read_shell(entry[rule_condition(entry)]).parts[0].wrapper
} else := "invalid_rule_examples" if {
	some member in ["match", "not_match"]
	not _strings(object.get(entry, member, []))
}

_strings(x) if {
	is_array(x)
	every s in x {
		is_string(s)
	}
}

# METADATA
# description: |
#   The examples of a valid argument rule (entry, in a list of kind)
#   that fail, as Codex checks a rule's examples when it loads: each
#   {example, expected} with expected "match" for an example of its match
#   list the rule does not match, "not_match" for one of its not_match
#   list it does. An example is the argument's value, a command or a URL;
#   an allow rule matches it when it allows a call that carries it
#   (permits), a deny or ask rule when it bites on one (biting_rule),
#   whatever the tool.
rule_example_failures(entry, kind) := array.concat(
	[{"example": example, "expected": "match"} |
		some example in object.get(entry, "match", [])
		not _example_matches(rule, kind, example)
	],
	[{"example": example, "expected": "not_match"} |
		some example in object.get(entry, "not_match", [])
		_example_matches(rule, kind, example)
	],
) if {
	condition := rule_condition(entry)
	rule := {
		"condition": condition,
		"reads": rule_conditions[condition],
		"value": entry[condition],
		"words": _rule_words(rule_conditions[condition], entry[condition]),
	}
}

_example_matches(rule, "allow", example) if permits([rule], _example_readings(rule.reads, example))

_example_matches(rule, kind, example) if {
	kind != "allow"
	_bites(rule, _example_readings(rule.reads, example))
}

_example_readings("command", example) := {"command": read_shell(example), "url": _not_read("an example of a command")}

_example_readings("url", example) := {"command": _not_read("an example of a URL"), "url": read_url(example)}

_stated_conditions(entry) := object.keys(entry) & object.keys(rule_conditions)

# METADATA
# description: The condition an argument rule states (one of rule_conditions); undefined unless it states exactly one.
rule_condition(entry) := c if {
	conditions := _stated_conditions(entry)
	count(conditions) == 1
	some c in conditions
}

_condition_problem("domain", value) := "invalid_domain_rule" if not _domain_entry(value)

_condition_problem(condition, value) := "invalid_command_rule" if {
	rule_conditions[condition] == "command"
	not _one_command(value)
}

_one_command(value) if count(read_shell(value).parts) == 1

_domain_entry("*")

_domain_entry(value) if {
	is_string(value)
	regex.match(`^(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$`, value)
}

# METADATA
# description: |
#   The argument rules of a list of kind ("allow", "deny" or "ask"), in
#   order: {index, entry, tool, condition, reads, value, words}, tool the
#   rule's tool entry compiled in the list's grammar (grammar: "allow" or
#   "deny"), reads the reading it looks at (rule_conditions), words the
#   words of a command rule (null for a domain rule). Entries that are
#   not objects are the list's name entries (tooleval.pattern).
compile_rules(list, grammar, vocabulary) := [{
	"index": j,
	"entry": entry,
	"tool": pattern.compile([entry.tool], grammar, vocabulary),
	"condition": condition,
	"reads": rule_conditions[condition],
	"value": entry[condition],
	"words": _rule_words(rule_conditions[condition], entry[condition]),
} |
	some j, entry in list
	is_object(entry)
	condition := rule_condition(entry)
]

_rule_words("command", value) := read_shell(value).parts[0].words

_rule_words("url", _) := null

# METADATA
# description: |
#   The readings of a call that argument rules look at, {command, url}:
#   read_shell and read_url of the argument that sources ({command?,
#   url?, inert?}: the tool's entry of the configuration's rule_arguments,
#   {} for a tool without one) names. Unreadable when the tool has no
#   such argument, when the call does not carry it as a string (as the
#   readers say), and when the call carries an argument that is neither
#   read nor inert (sources.inert: arguments that do not change what the
#   command runs or which host the URL reaches): a prefix rule over the
#   command's words cannot say what an environment, a host or an
#   elevation argument does to it.
call_readings(sources, call) := {
	"command": read_shell(_argument(sources, "command", args)),
	"url": read_url(_argument(sources, "url", args)),
} if {
	args := shape.field(call, "args", {})
	is_object(args)
	not _other_argument(sources, args)
} else := {
	"command": _not_read(why),
	"url": _not_read(why),
} if {
	why := _other_argument_why(sources, shape.field(call, "args", {}))
}

# The argument of args that sources name for reads; null (unreadable)
# when there is none.
_argument(sources, reads, args) := shape.field(args, sources[reads], null) if {
	is_string(sources[reads])
} else := null

_other_argument(sources, args) if {
	some name, _ in args
	not _read_or_inert(sources, name)
}

_read_or_inert(sources, name) if sources.inert[name]

_read_or_inert(sources, name) if {
	some reads in ["command", "url"]
	sources[reads] == name
}

_other_argument_why(sources, args) := "the call's arguments are not an object" if {
	not is_object(args)
} else := sprintf("the call carries argument %q, which can change what runs or where it connects", [name]) if {
	name := sort([n | some n, _ in args; not _read_or_inert(sources, n)])[0]
}

_not_read(why) := {"unreadable": why, "hosts": [], "numeric": false}

# METADATA
# description: |
#   The first rule of rules (compiled, of a deny or an ask list) that
#   bites on a call of the declared tool with canonical name name and
#   record {kind, server, tool}, read as readings (call_readings): its
#   tool entry matches the tool, and its condition could hold: for a
#   command rule, the command is unreadable, or one of its parts runs a
#   wrapper (what it runs is not read) or runs the rule's program (by any
#   path, in any case) with the rule's other words among its own, in
#   order (options between them do not hide it); for a domain rule, the
#   URL could reach a host the rule names, or reaches none that can be
#   read. Undefined when none bites.
biting_rule(rules, name, record, readings) := biting[0] if {
	biting := [rule |
		some rule in rules
		pattern.matches(rule.tool, name, record)
		_bites(rule, readings)
	]
	count(biting) > 0
}

_bites(rule, readings) if {
	rule.reads == "command"
	readings.command.unreadable
}

_bites(rule, readings) if {
	rule.reads == "command"
	some part in readings.command.parts
	_part_bites(rule.words, part)
}

_bites(rule, readings) if {
	rule.reads == "url"
	url_matches(readings.url, rule.value, "deny")
}

_bites(rule, readings) if {
	rule.reads == "url"
	readings.url.unreadable
	count(readings.url.hosts) == 0
}

_part_bites(_, part) if part.wrapper

_part_bites(words, part) if {
	_program(part.words[0]) == _program(words[0])
	regex.match(_in_order(array.slice(words, 1, count(words))), _joined(array.slice(part.words, 1, count(part.words))))
}

# A program as a deny rule compares it: the last segment of its path,
# lower case.
_program(word) := lower(regex.replace(word, `^.*/`, ""))

# Words joined with NUL around each (a word a shell reads has none).
_joined(words) := concat("", ["\u0000", concat("\u0000", words), "\u0000"])

# The regular expression that finds words, in order, among _joined words.
_in_order(words) := concat("", [`\x00`, concat(`\x00(?:[^\x00]*\x00)*?`, [_quoted(w) | some w in words]), `\x00`]) if {
	count(words) > 0
} else := ""

_quoted(word) := regex.replace(word, `[\\.+*?()|\[\]{}^$]`, `\${0}`)

# METADATA
# scope: document
# description: |
#   Whether the allow rules of a layer that match a call's tool (rules,
#   compiled) permit the call read as readings: every part of a command
#   read exactly is allowed by one of the command rules, and none runs a
#   wrapper; or a domain rule names the host of a URL read exactly.
#   Nothing unreadable is ever permitted.
permits(rules, readings) if {
	command_rules := [rule | some rule in rules; rule.reads == "command"]
	count(command_rules) > 0
	parts := readings.command.parts
	every part in parts {
		not part.wrapper
		_allows_words(command_rules, part.words)
	}
}

permits(rules, readings) if {
	some rule in rules
	rule.reads == "url"
	url_matches(readings.url, rule.value, "allow")
}

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

# METADATA
# description: |
#   The allow rules of compiled layer arguments ({allow, names, ...})
#   that a call of the tool decides on: the allow rules whose tool entry
#   matches it, when the layer's allow list does not also name it
#   outright (then the list allows it whatever its arguments). Undefined
#   when the layer's allow list says nothing of the tool's arguments.
conditional_allow(compiled, name, record) := matching if {
	matching := [rule | some rule in compiled.allow; pattern.matches(rule.tool, name, record)]
	count(matching) > 0
	not pattern.matches(compiled.names, name, record)
}

# METADATA
# description: |
#   How a reading (read_shell's or read_url's) is quoted in a message:
#   why it is unreadable, or the command's parts (wrappers marked) or the
#   URL's host.
reading_summary(reading) := sprintf("the argument is unreadable: %s", [reading.unreadable]) if {
	reading.unreadable
} else := sprintf("read as %s", [concat(" | ", [_part_summary(p) | some p in reading.parts])]) if {
	reading.parts
} else := sprintf("read as host %q", [reading.host])

_part_summary(part) := sprintf("%s (runs another command)", [json.marshal(part.words)]) if {
	part.wrapper
} else := json.marshal(part.words)
