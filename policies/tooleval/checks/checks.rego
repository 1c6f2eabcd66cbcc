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
#   | order | reason      | when                                                  |
#   | 1     | excluded    | an exclusion's deny list matches (the first names it) |
#   | 2     | denied      | a stage's or layer's deny list matches               |
#   | 3     | not_allowed | a stage's or layer's allow list is a list and does not match |
package tooleval.checks

import data.tooleval.pattern

# METADATA
# description: |
#   The checks of a request: {exclusions, layers}, each an ordered list
#   of {name, deny, allow, exempt} with compiled matchers (allow null:
#   the check states no allowlist; exempt "mcp" or "non_mcp": tools of
#   that kind pass the check untouched, only configured stages have it).
checks(exclusions, layers) := {"exclusions": exclusions, "layers": layers}

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
# description: |
#   The first name-level refusal of the declared tool with canonical name
#   name and record {kind, server, tool}, as {reason, layer}, or undefined
#   when every check lets it through.
refusal(checks, name, record) := {"reason": "excluded", "layer": hits[0]} if {
	hits := [c.name | some c in checks.exclusions; pattern.matches(c.deny, name, record)]
	count(hits) > 0
} else := {"reason": "denied", "layer": hits[0]} if {
	hits := [c.name | some c in checks.layers; _denies(c, name, record)]
	count(hits) > 0
} else := {"reason": "not_allowed", "layer": hits[0]} if {
	hits := [c.name | some c in checks.layers; _outside_allow(c, name, record)]
	count(hits) > 0
}

# METADATA
# description: |
#   The name-level refusal of every tool of a catalog (tools: canonical
#   name to record, see tooleval.declared), keyed by canonical name:
#   refusal(checks, name, record) for each tool where it is defined. Each
#   check is matched against the whole catalog once
#   (tooleval.pattern.matched), then each tool is a look-up per check.
#   Undefined if any check cannot be matched, so that no check is ever
#   skipped.
refusals(checks, tools) := _refusals(checks, excluded, denied, allowed, tools) if {
	excluded := [pattern.matched(c.deny, tools) | some c in checks.exclusions]
	count(excluded) == count(checks.exclusions)
	denied := [pattern.matched(c.deny, tools) | some c in checks.layers]
	count(denied) == count(checks.layers)
	allowed := [_allowed_or_null(c, tools) | some c in checks.layers]
	count(allowed) == count(checks.layers)
}

_allowed_or_null(check, _) := null if check.allow == null

_allowed_or_null(check, tools) := pattern.matched(check.allow, tools) if check.allow != null

_refusals(checks, excluded, denied, allowed, tools) := {name: refusal |
	some name, record in tools
	refusal := _refusal_of(checks, excluded, denied, allowed, name, record)
}

_refusal_of(checks, excluded, denied, allowed, name, record) := {"reason": "excluded", "layer": hits[0]} if {
	hits := [c.name | some i, c in checks.exclusions; excluded[i][name]]
	count(hits) > 0
} else := {"reason": "denied", "layer": hits[0]} if {
	hits := [c.name | some i, c in checks.layers; denied[i][name]; not exempt(c, record)]
	count(hits) > 0
} else := {"reason": "not_allowed", "layer": hits[0]} if {
	hits := [c.name |
		some i, c in checks.layers
		allowed[i] != null
		not allowed[i][name]
		not exempt(c, record)
	]
	count(hits) > 0
}

_denies(check, name, record) if {
	not exempt(check, record)
	pattern.matches(check.deny, name, record)
}

_outside_allow(check, name, record) if {
	check.allow != null
	not exempt(check, record)
	not pattern.matches(check.allow, name, record)
}

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
