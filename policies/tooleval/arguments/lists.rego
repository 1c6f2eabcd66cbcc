# Lists with argument rules: an allow, deny or ask list of an inline
# layer, of config.tools (the global policy) or of config.subagents (the
# sub-agent stage) holds name entries (strings, tooleval.pattern) and
# argument rules (objects, rules.rego). How such a list is checked and
# split into what the name-level checks match and what the argument
# rules decide per call is written once, here, for the layers
# (tooleval.layers) and the configured stages (tooleval.stages) alike.
package tooleval.arguments

import data.tooleval.pattern

# METADATA
# description: |
#   The grammar each list is read with (tooleval.pattern): an ask list is
#   read as a deny list (it narrows, so an entry bites on any of a tool's
#   names).
list_grammar := {"allow": "allow", "deny": "deny", "ask": "deny"}

# METADATA
# description: |
#   The problems of a list (allow, deny or ask) of name entries and
#   argument rules: its name entries' (tooleval.pattern.list_problems),
#   and for each argument rule its problem (rule_problem), else its tool
#   read as an entry of the list and its examples that fail
#   (rule_example_failed), each at its index (index, entry, code).
list_problems(entries, list, groups) := pattern.list_problems(entries, list_grammar[list], groups) if {
	not has_rules(entries)
} else := array.concat(
	[p |
		some p in pattern.list_problems(entries, list_grammar[list], groups)
		not _rule_read_as_name(p)
	],
	[p |
		some j, entry in entries
		is_object(entry)
		some p in _rule_problems(j, entry, list, groups)
	],
)

_rule_problems(j, entry, list, groups) := [{"index": j, "entry": entry, "code": code}] if {
	code := rule_problem(entry, list)
} else := array.flatten([
	[object.union(p, {"index": j, "entry": entry}) |
		some p in pattern.list_problems([entry.tool], list_grammar[list], groups)
	],
	[object.union(failure, {"index": j, "entry": entry, "code": "rule_example_failed"}) |
		some failure in rule_example_failures(entry, list)
	],
	_exception_problems(j, entry, groups),
])

# The problems of a rule's exceptions (unless), located by their index
# among them: their tool entries' (checked as allow entries), and each
# argument rule of another kind than the rule's (exception_kind).
_exception_problems(j, entry, groups) := array.concat(
	[object.union(p, {"index": j, "entry": entry, "unless": p.index}) |
		some p in pattern.list_problems(_exception_names(entry.unless), "allow", groups)
	],
	[{"index": j, "entry": entry, "code": "exception_kind", "unless": k} | some k in exception_kind_problems(entry)],
) if {
	entry.unless
} else := []

# The tool entries of a rule's exceptions, in order: its name entries and
# its argument rules' tools, each checked as an allow entry.
_exception_names(unless) := [_exception_name(e) | some e in unless]

_exception_name(e) := e if is_string(e)

_exception_name(e) := e.tool if is_object(e)

# A pattern problem that only says an argument rule is not a name entry
# (it is checked as a rule instead); any other problem stands, too many
# entries included.
_rule_read_as_name(p) if {
	p.code == "non_string_entry"
	is_object(p.entry)
}

# METADATA
# description: Whether a list has an argument rule (an object entry).
has_rules(entries) if {
	some entry in entries
	is_object(entry)
}

# METADATA
# description: |
#   The argument rules of an allow, a deny and an ask list (arrays)
#   compiled (compile_rules), with names, the allow list's name entries
#   compiled (a tool they match is allowed whatever its arguments), and
#   source, where the lists are (layers[2], config.tools): {source, allow,
#   deny, ask, names}. null when no list has a rule, as for most layers
#   and stages.
compile_lists(allow, deny, ask, source, vocabulary) := {
	"source": source,
	"allow": compile_rules(allow, "allow", vocabulary),
	"deny": compile_rules(deny, "deny", vocabulary),
	"ask": compile_rules(ask, "deny", vocabulary),
	"names": pattern.compile(names(allow), "allow", vocabulary),
} if {
	some list in [allow, deny, ask]
	some entry in list
	is_object(entry)
} else := null

# METADATA
# scope: document
# description: |
#   An ask list's name entries (ask) compiled as a deny list is, for a
#   layer or a stage; an empty one (most) matches nothing without
#   compiling.
ask_matcher([], _) := pattern.nothing

ask_matcher(ask, vocabulary) := pattern.compile(ask, "deny", vocabulary) if ask != []

# METADATA
# scope: document
# description: |
#   Whether a layer or a stage judges calls past their names: its ask
#   list has a name entry (ask_names), it has argument rules (rules, the
#   compile_lists of its lists, not null), or its otherwise is "ask".
judges([], null, "deny") := false

judges(ask_names, _, _) if ask_names != []

judges(_, rules, _) if rules != null

judges(_, _, "ask")

# METADATA
# description: The name entries of a list (its entries but argument rules).
names(list) := [entry | some entry in list; not is_object(entry)]

# METADATA
# scope: document
# description: |
#   An allow list's name entries and the tool entry of each of its
#   argument rules: the tools the list lets through by name (a rule's
#   tool is then decided on its arguments, per call); null stays null.
names_and_rule_tools(null) := null

names_and_rule_tools(list) := [_name_or_tool(entry) | some entry in list] if is_array(list)

_name_or_tool(entry) := entry.tool if is_object(entry)

else := entry
