# METADATA
# title: Name-level checks
# description: |
#   The checks a call's tool name goes through, in order, once its
#   declaration is found: the runtime exclusions that apply to the agent,
#   then the configured stages, then the inline layers. Each is compiled
#   once per request (tooleval.pattern.compile); deciding one tool is then
#   a few look-ups per check, whatever the number of declared tools or of
#   entries.
#
#   What each check refuses is here (refuses); the order in which they
#   are asked, and so which one names a refusal, is the one table
#   tooleval.verdict.order (exclusions, then every deny list, then every
#   allow list).
package tooleval.checks

import data.tooleval.pattern

# METADATA
# description: |
#   The checks of a request: {exclusions, layers, denying, asking,
#   arguing, judging}, the first two each an ordered list of {name, deny,
#   allow, ask, arguments, judges, exempt} with compiled
#   matchers (allow null: the check states no allowlist; exempt "mcp" or
#   "non_mcp": tools of that kind pass the check untouched, only
#   configured stages have it); denying is the layers whose deny list
#   can match a tool, in order: the only ones a deny check can refuse
#   with, so that a tool's deny checks skip the others; asking is the
#   layers with an ask list that can match a tool (an inline layer's or
#   a policy stage's ask), in order; arguing the layers and stages with
#   argument rules (tooleval.arguments.compile_lists), in order; judging
#   both (empty
#   when no call can be judged past its name, its paths and its run).
checks(exclusions, layers) := {
	"exclusions": exclusions,
	"layers": layers,
	"denying": [c | some c in layers; c.deny != pattern.nothing],
	"asking": [c | some c in judging; can_ask(c)],
	"arguing": [c | some c in judging; c.arguments != null],
	"judging": judging,
} if {
	# most requests have no layer that judges a call past its name
	judging := [c | some c in layers; c.judges == true]
}

# METADATA
# scope: document
# description: |
#   Whether check c may ask by name: it has an ask list that can match a
#   tool, or asks about what its allow list does not let through
#   (asks_otherwise).
can_ask(c) if {
	c.ask != pattern.nothing
}

can_ask(c) if asks_otherwise(c)

# METADATA
# description: |
#   Whether check c asks a person about a call its allow list does not
#   let through, instead of refusing it (a layer's or a policy stage's
#   otherwise "ask"); a check that states no allow list lets everything
#   through and never does.
asks_otherwise(c) if {
	c.otherwise == "ask"
	c.allow != null
}

# METADATA
# scope: document
# description: |
#   Whether check c asks a person before a call of the tool record
#   (canonical name name): its ask list matches the tool, read as a deny
#   list is (an entry bites on any of the tool's names), or it asks
#   otherwise and its allow list does not match the tool; and the tool is
#   not exempt from c.
asks(c, name, record) if {
	pattern.matches(c.ask, name, record)
	not exempt(c, record)
}

asks(c, name, record) if {
	asks_otherwise(c)
	not pattern.matches(c.allow, name, record)
	not exempt(c, record)
}

# METADATA
# description: |
#   The message each check that carries one gives (a layer's or a
#   configured stage's message), by check name. A name that more than
#   one check has gets none: a refusal names its check by name only, so a
#   request's layer named like a configured stage must not put its words
#   in that stage's refusals (nor the other way round).
notes(checks) := {c.name: c.message |
	some c in checks.layers
	is_string(c.message)
	count([other | some other in checks.layers; other.name == c.name]) == 1
}

# METADATA
# scope: document
# description: |
#   The compiled check c refuses the declared tool with canonical name
#   name and record {kind, server, tool} as the name-level check named
#   check (a row of tooleval.verdict.order): "exclusion" (its deny list
#   matches), "deny" (its deny list matches and it does not exempt the
#   tool) or "allow" (it states an allow list, does not exempt the tool,
#   does not ask otherwise, and the list does not match).
refuses("exclusion", c, name, record) if pattern.matches(c.deny, name, record)

refuses("deny", c, name, record) if {
	c.deny != pattern.nothing
	pattern.matches(c.deny, name, record)
	not exempt(c, record)
}

refuses("allow", c, name, record) if {
	not _permits(c.allow, name, record)
	not exempt(c, record)
	not asks_otherwise(c)
}

# A check's allow list lets the tool through: a check that states none
# (null) lets every tool through, a compiled list the tools it matches.
# Undefined for anything else, so that a check whose allow list is
# missing refuses.
_permits(null, _, _) := true

_permits(allow, name, record) if pattern.matches(allow, name, record)

# METADATA
# scope: document
# description: |
#   refuses, answered from a catalog's matches (matched) instead of
#   matching the lists: c is the k-th check of its list, name a tool of
#   that catalog. A test holds the two to the same answers.
refuses_matched("exclusion", _, k, matched, name, _) if matched.exclusion[k][name]

refuses_matched("deny", c, k, matched, name, record) if {
	not exempt(c, record)
	matched.deny[k][name]
}

refuses_matched("allow", c, k, matched, name, record) if {
	c.allow != null
	not exempt(c, record)
	not matched.allow[k][name]
	not asks_otherwise(c)
}

# METADATA
# description: |
#   Every check matched against a whole catalog (tools: canonical name to
#   record, see tooleval.declared) once (tooleval.pattern.matched):
#   {exclusion, deny, allow}, each a list in the order of its checks of
#   the sets of canonical names its list matches (allow: null where the
#   check states no allow list), for refuses to look tools up in.
#   Undefined if any check cannot be matched, so that no check is ever
#   skipped.
matched(checks, tools) := {"exclusion": excluded, "deny": denied, "allow": allowed} if {
	excluded := [pattern.matched(c.deny, tools) | some c in checks.exclusions]
	count(excluded) == count(checks.exclusions)
	denied := [pattern.matched(c.deny, tools) | some c in checks.layers]
	count(denied) == count(checks.layers)
	allowed := [_allowed_or_null(c, tools) | some c in checks.layers]
	count(allowed) == count(checks.layers)
}

_allowed_or_null(check, _) := null if check.allow == null

_allowed_or_null(check, tools) := pattern.matched(check.allow, tools) if check.allow != null

# METADATA
# scope: document
# description: |
#   The check lets the declared tool with record {kind, ...} through
#   untouched: a configured stage exempts that kind of tool ("mcp" or
#   "non_mcp").
exempt(check, record) if {
	check.exempt == "mcp"
	record.kind == "mcp"
}

exempt(check, record) if {
	check.exempt == "non_mcp"
	record.kind != "mcp"
}
