# METADATA
# title: Argument checks
# description: |
#   The checks of a call's arguments: argument rules, joined from their
#   condition families, over what the readers read of a call. An entry
#   of an allow, deny or ask list that is an object is an argument rule: {"tool": ENTRY,
#   CONDITION: VALUE}, ENTRY one entry of the list's own grammar,
#   CONDITION one of rule_conditions. A rule whose argument is missing,
#   not what it reads or unreadable never allows, and every deny and ask
#   rule bites on it.
#
#   Each condition belongs to a family, a package of its own with the
#   same rules: problem (why a value is not valid, as a code of
#   rule_problem_messages), compile (the value as matching reads it),
#   example and example_reading (the examples a rule's match and
#   not_match lists hold), bites (a deny or ask rule on a reading),
#   permits (allow rules on a reading) and lets_through (one allow rule,
#   for explain). This package joins them, one clause a family, in
#   rules.rego (adding a condition is adding a family and its clauses):
#
#   | family                        | conditions                          | reads |
#   | tooleval.arguments.command    | command_prefix, command, command_wildcard | command |
#   | tooleval.arguments.domain     | domain                              | url   |
#   | tooleval.arguments.path       | path                                | path  |
#   | tooleval.arguments.args       | args_pattern, args                  | args  |
#
#   What a call's arguments are read as comes from the readers, packages
#   of their own too: tooleval.arguments.shell (a shell command, into
#   parts and words: read_shell), .argv (an argument vector, as exec
#   reads it: read_argv) and .url (a URL's host, or the hosts it could
#   reach: read_url); readings.rego reads a call with them.
#   tooleval.arguments.paths checks a call's paths against the workspace.
#   Here too: the exceptions of deny and ask rules (exceptions.rego), the
#   lists that carry rules (lists.rego) and the read-only shell actions
#   (actions.rego).
package tooleval.arguments

import data.tooleval.arguments.args
import data.tooleval.arguments.command
import data.tooleval.arguments.domain
import data.tooleval.arguments.path
import data.tooleval.pattern

# METADATA
# description: |
#   The conditions an argument rule can state, each with the reading of
#   the call it looks at: command_prefix (the command's words start with
#   these words), command (the command's words are these words) and
#   command_wildcard (these words, a word * standing for any words and a
#   * in a word for any characters of it) read the shell command
#   (shell.read_shell); domain (the host, *.NAME below NAME, * any) the URL
#   (url.read_url); path (a glob, see path.valid_glob) the resolved paths
#   (path.reading); args_pattern (a regular expression) the arguments as
#   canonical JSON, args (an object) the arguments' values
#   (args.reading).
rule_conditions := {
	"command_prefix": "command",
	"command": "command",
	"command_wildcard": "command",
	"domain": "url",
	"path": "path",
	"args_pattern": "args",
	"args": "args",
}

# The members an argument rule may have: its tool, one condition,
# examples (match, not_match), and for a deny or ask rule its exceptions
# (unless).
_rule_members := {
	"tool", "match", "not_match", "unless",
	"command_prefix", "command", "command_wildcard", "domain", "path", "args_pattern", "args",
}

_conditions_text := "command_prefix, command, command_wildcard, domain, path, args_pattern or args"

# METADATA
# description: |
#   The problem codes of argument rules, with their messages (the layer
#   errors quote them).
rule_problem_messages := {
	"unknown_rule_member": sprintf("an argument rule has only tool, one condition (%s), match and not_match", [_conditions_text]),
	"invalid_rule_tool": "an argument rule's tool must be a string entry",
	"rule_condition_count": sprintf("an argument rule states exactly one condition (%s)", [_conditions_text]),
	"invalid_command_rule": "a command rule must be one simple command a shell reads exactly (no operator, quoting aside nothing a shell expands)",
	"wildcard_program": "a command_wildcard rule names its program exactly: its first word has no *",
	"wrapper_in_allow": "an allow command rule cannot start with a wrapper (sh, bash, env, xargs, sudo ...): the words after it are not the command that runs",
	"invalid_domain_rule": "a domain rule is a lower-case host name or IPv4 address, *.NAME or *",
	"invalid_path_rule": concat("", [
		"a path rule is a glob of / separated segments (* and ? within a segment, ** a whole segment), ",
		"absolute or relative to the workspace root, in NFC, with no empty, . or .. segment, ",
		"no [ ] { } \\ or NUL, and no leading ~ or $",
	]),
	"invalid_args_pattern": "an args_pattern rule is a regular expression (RE2 syntax)",
	"invalid_args_rule": "an args rule is a non-empty object of argument names to the values they must have",
	"invalid_rule_examples": concat("", [
		"an argument rule's match and not_match are lists of examples: strings (commands, URLs or paths), ",
		"lists of words (argument vectors) for command rules, or objects (arguments) for args_pattern and args rules",
	]),
	"rule_example_failed": "an argument rule does not match an example of its match list, or matches one of its not_match list (see example and expected)",
	"invalid_unless": concat("", [
		"unless belongs to deny and ask rules only, and is a non-empty list of allow entries ",
		"(tool names and argument rules, without unless): a call one of them allows exactly is not bitten",
	]),
	"exception_kind": concat("", [
		"an exception (unless) is a name or an argument rule of its rule's kind: command rules for a command rule, ",
		"domain rules for a domain rule, path rules for a path rule, args_pattern and args rules for an args rule ",
		"(a rule of a whole tool, args_pattern \"\", takes every kind, judged as an allow list judges a call)",
	]),
}

# METADATA
# description: |
#   Why entry (an object) of a list of kind ("allow", "deny" or "ask")
#   is not an argument rule, as a code of rule_problem_messages; undefined
#   when it is one (its tool is then checked as an entry of that list). A
#   wrapper may start a deny or ask command rule (it bites), never an
#   allow one. A deny or ask rule may carry exceptions (unless, see
#   _exceptions); their tools are checked as allow entries.
rule_problem(entry, kind) := code if {
	code := _rule_problem(entry, kind)
} else := "invalid_unless" if {
	"unless" in object.keys(entry)
	not _exceptions(kind, entry.unless)
}

_rule_problem(entry, kind) := "unknown_rule_member" if {
	some member, _ in entry
	not _rule_members[member]
} else := "invalid_rule_tool" if {
	not is_string(object.get(entry, "tool", null)) # a missing tool is not a string either
} else := "rule_condition_count" if {
	count(_stated_conditions(entry)) != 1
} else := code if {
	condition := rule_condition(entry)
	code := _problem(rule_conditions[condition], condition, entry[condition], kind)
} else := "invalid_rule_examples" if {
	some member in ["match", "not_match"]
	not _examples(rule_conditions[rule_condition(entry)], object.get(entry, member, []))
}

# Examples are the values a rule reads (see each family's example): the
# arguments for an args rule, a command, a URL or a path for the others,
# and for a command rule also an argument vector.
_examples(reads, x) if {
	is_array(x)
	every example in x {
		_example(reads, example)
	}
}

# METADATA
# description: |
#   The examples of a valid argument rule (entry, in a list of kind)
#   that fail, as Codex checks a rule's examples when it loads: each
#   {example, expected} with expected "match" for an example of its match
#   list the rule does not match, "not_match" for one of its not_match
#   list it does. An example is the value the rule reads: a command, a
#   URL, a path (relative to the workspace root, which examples take to
#   be /, or absolute), or the arguments (an object);
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
	rule := _rule(condition, entry[condition])
}

_example_matches(rule, "allow", example) if permits([rule], _example_readings(rule.reads, example), set())

_example_matches(rule, kind, example) if {
	kind != "allow"
	_bites(rule.reads, rule, _example_readings(rule.reads, example))
}

# An example read as a call that carries it: the reading the rule looks
# at, the others unreadable. A path example is a path relative to the
# workspace root, which examples take to be /, or an absolute one.
_example_readings(reads, example) := {r: _example_reading_of(r, reads, example) | some r in ["command", "url", "path", "args"]}

_example_reading_of(r, reads, example) := _example_reading(reads, example) if {
	r == reads
} else := _not_read("an example of another argument")

_stated_conditions(entry) := object.keys(entry) & object.keys(rule_conditions)

# METADATA
# description: The condition an argument rule states (one of rule_conditions); undefined unless it states exactly one.
rule_condition(entry) := c if {
	conditions := _stated_conditions(entry)
	count(conditions) == 1
	some c in conditions
}

# METADATA
# description: |
#   The argument rules of a list of kind ("allow", "deny" or "ask"), in
#   order: {index, entry, tool, condition, reads, value, words, matcher,
#   unless, whole}, tool the rule's tool entry compiled in the list's
#   grammar (grammar: "allow" or "deny"), reads the reading it looks at
#   (rule_conditions), value, words and matcher what its family compiles
#   (words a command rule's, null for the others), unless its exceptions
#   compiled (null when it has none) and whole whether it is a whole
#   tool's rule (whole_tool). Entries that are not objects are the
#   list's name entries (tooleval.pattern).
compile_rules(list, grammar, vocabulary) := [object.union(_rule(condition, entry[condition]), {
	"index": j,
	"entry": entry,
	"tool": pattern.compile([entry.tool], grammar, vocabulary),
	"unless": _compile_exceptions(object.get(entry, "unless", null), vocabulary),
	"whole": _whole(entry),
}) |
	some j, entry in list
	is_object(entry)
	condition := rule_condition(entry)
]

# The argument rules of an exceptions list compiled (they have no
# exceptions of their own).
_compile_conditions(list, grammar, vocabulary) := [object.union(_rule(condition, entry[condition]), {
	"index": j,
	"entry": entry,
	"tool": pattern.compile([entry.tool], grammar, vocabulary),
}) |
	some j, entry in list
	is_object(entry)
	condition := rule_condition(entry)
]

# A rule as matching reads it: its condition, the reading it looks at,
# and what its family compiles of its value (value, words and matcher).
_rule(condition, value) := object.union(
	{"condition": condition, "reads": rule_conditions[condition]},
	_compile(rule_conditions[condition], condition, value),
)

# METADATA
# description: |
#   The first rule of rules (compiled, of a deny or an ask list) that
#   bites on a call of the declared tool with canonical name name and
#   record {kind, server, tool}, read as readings (see readings): its
#   tool entry matches the tool, and its condition could hold. For a
#   command rule, the command is unreadable, or one of its parts runs a
#   wrapper (what it runs is not read) or runs the rule's program (by any
#   path, in any case) with the rule's other words among its own, in
#   order (options between them do not hide it; a * in a wildcard rule's
#   word stands for any characters, a word * is dropped). For a domain
#   rule, the URL could reach a host the rule names, or reaches none that
#   can be read. For a path rule, the paths are unreadable or one of them
#   matches the glob compared segment by segment by key (path.bites). For
#   an args_pattern rule, the arguments are unreadable or their canonical
#   JSON matches; for an args rule, they are unreadable or carry each of
#   its members with a value that may be the same (args.bites). A rule
#   with exceptions (unless) does not bite on what one of its own kind
#   allows exactly, or, for a whole tool's rule, on what they allow as an
#   allow list would, given required, the readings the tool's allow rules
#   must permit (required_readings; _bites_call). Undefined when none
#   bites.
biting_rule(rules, name, record, readings, required) := biting[0] if {
	biting := [rule |
		some rule in rules
		pattern.matches(rule.tool, name, record)
		_bites_call(rule, name, record, readings, required)
	]
	count(biting) > 0
}

# METADATA
# description: |
#   The readings the rules of rules (compiled, of a deny or an ask list)
#   that bite on the call look at (see biting_rule), as a set: the
#   argument a decision names does not depend on the order of a list.
biting_reads(rules, name, record, readings, required) := {rule.reads |
	some rule in rules
	pattern.matches(rule.tool, name, record)
	_bites_call(rule, name, record, readings, required)
}

# METADATA
# description: |
#   Whether the allow rules of a layer that match a call's tool (rules,
#   compiled, not empty) permit the call read as readings. Every kind of
#   reading the rules look at, and every kind in required (the readings
#   the configuration names an argument for, see required_readings), must
#   be permitted by rules of its own kind: all are met, not one. So a
#   path or args rule never allows a shell tool's call by itself: what
#   the command runs is not judged by it. Within a kind one rule
#   suffices: every part of a command read exactly is allowed by one of
#   the command rules, and none runs a wrapper; a domain rule names the
#   host of a URL read exactly; every path of the call is matched exactly
#   by one of the path rules (path.permits); an args_pattern rule's
#   expression matches the arguments' canonical JSON, or the arguments
#   carry each member of an args rule with that very value. Nothing
#   unreadable is ever permitted.
permits(rules, readings, required) if {
	count(rules) > 0
	every kind in required | {rule.reads | some rule in rules} {
		_permits(kind, [rule | some rule in rules; rule.reads == kind], readings)
	}
}

# METADATA
# description: |
#   The readings a tool's allow rules must permit whatever the rules say,
#   given its entry of the configuration's rule_arguments (sources): the
#   command (a command or an argv argument) and the URL it names an
#   argument for.
required_readings(sources) := {_reads[member] | some member in ["command", "argv", "url"]; is_string(sources[member])}

# The reading a rule_arguments member is read as.
_reads := {"command": "command", "argv": "command", "url": "url"}

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
#   The rules of rules (compiled allow rules of one tool, see permits)
#   that let through some of a call read as readings: a command rule a
#   part of the command read exactly meets, a domain rule the URL's host
#   meets, a path rule the call's paths meet, an args_pattern or args
#   rule its arguments meet. What an explanation names as the rules a
#   call was let through on; permits alone decides.
permitting_rules(rules, readings) := [rule | some rule in rules; _lets_through(rule.reads, rule, readings)]

# The condition families, by the reading their rules look at
# (rule_conditions): each package has the same rules, joined here one
# clause a family (a function cannot be called through a reference
# built at evaluation).
_problem("command", condition, value, kind) := command.problem(condition, value, kind)

_problem("url", condition, value, kind) := domain.problem(condition, value, kind)

_problem("path", condition, value, kind) := path.problem(condition, value, kind)

_problem("args", condition, value, kind) := args.problem(condition, value, kind)

_compile("command", condition, value) := command.compile(condition, value)

_compile("url", condition, value) := domain.compile(condition, value)

_compile("path", condition, value) := path.compile(condition, value)

_compile("args", condition, value) := args.compile(condition, value)

_example("command", x) if command.example(x)

_example("url", x) if domain.example(x)

_example("path", x) if path.example(x)

_example("args", x) if args.example(x)

_example_reading("command", x) := command.example_reading(x)

_example_reading("url", x) := domain.example_reading(x)

_example_reading("path", x) := path.example_reading(x)

_example_reading("args", x) := args.example_reading(x)

_bites("command", rule, readings) if command.bites(rule, readings.command)

_bites("url", rule, readings) if domain.bites(rule, readings.url)

_bites("path", rule, readings) if path.bites(rule, readings.path)

_bites("args", rule, readings) if args.bites(rule, readings.args)

_permits("command", rules, readings) if command.permits(rules, readings.command)

_permits("url", rules, readings) if domain.permits(rules, readings.url)

_permits("path", rules, readings) if path.permits(rules, readings.path)

_permits("args", rules, readings) if args.permits(rules, readings.args)

_lets_through("command", rule, readings) if command.lets_through(rule, readings.command)

_lets_through("url", rule, readings) if domain.lets_through(rule, readings.url)

_lets_through("path", rule, readings) if path.lets_through(rule, readings.path)

_lets_through("args", rule, readings) if args.lets_through(rule, readings.args)
