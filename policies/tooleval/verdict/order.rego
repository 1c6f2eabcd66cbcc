# METADATA
# title: The verdict of a tool call
# description: |
#   Which check refuses a call, with what reason, layer and message: the
#   order of the checks (order, the one table of it), the outcome of each
#   check for a call's facts (outcome), the verdict of a call (the first
#   refused outcome in that order), the name-level refusals of declared
#   tools (for the catalog and a session's context), and the messages.
#   tooleval.batch decides batches with it, tooleval.catalog and
#   tooleval.context list the name-level verdicts of a catalog with it,
#   and tooleval.tracing formats every outcome of a call.
package tooleval.verdict

# METADATA
# description: |
#   The checks of a call, in the order they are asked: the first one that
#   refuses the call gives its reason and layer, and every later one is
#   not asked (tooleval.tracing still shows what each said).
#
#   | order | check       | reason         | layer                          |
#   | 1     | input       | invalid_input  | input                          |
#   | 2     | config      | invalid_config | config                         |
#   | 3     | declaration | not_declared   | declaration                    |
#   | 4     | exclusion   | excluded       | the exclusion's name           |
#   | 5     | deny        | denied         | the stage's or layer's name    |
#   | 6     | allow       | not_allowed    | the stage's or layer's name    |
#   | 7     | action      | not_allowed    | read_only                      |
#   | 8     | paths       | path           | workspace (with rule)          |
#   | 9     | run         | run_exhausted  | run                            |
#   | 10    | arguments   | denied or      | the stage's or layer's name    |
#   |       |             | not_allowed    |                                |
#   | 11    | ask         | ask            | the stage's or layer's name    |
#
#   The arguments row is the argument rules of every stage (global_policy,
#   subagent_policy) and inline layer that has some
#   (tooleval.arguments): a deny rule that bites refuses as denied, an
#   allow list that lets the tool through only on arguments the call
#   does not meet as not_allowed. It and the ask row are asked only in a
#   request with a layer that judges calls (tooleval.checks: judging).
#   The last row is not a refusal: a call that no check refuses and that
#   a stage's or an inline layer's ask list matches (by name, or by an
#   argument rule that bites) has outcome ask (deny, then ask, then
#   allow), with that stage or layer; every ask list is asked after every
#   refusing check.
#   The name-level checks (exclusion, deny, allow; checks names the list
#   of tooleval.checks they run over) are asked once per compiled check,
#   in the order of its list: every exclusion, then every stage's and
#   inline layer's deny list, then their allow lists (a deny anywhere wins
#   over any allow). Adding a check is its row (rows) and its place
#   here, its clause of outcome and of call_verdict, and its message
#   (messages.rego).
order := [
	rows.input,
	rows.config,
	rows.declaration,
	rows.exclusion,
	rows.deny,
	rows.allow,
	rows.action,
	rows.paths,
	rows.run,
	rows.arguments,
	rows.ask,
]

# METADATA
# description: |
#   The rows of order by check: {check, reason, layer, checks?}, the
#   layer null where the compiled check that refuses names it, checks the
#   list of tooleval.checks a name-level check is asked once per element
#   of. A literal, so that reading one row costs one look-up (the order
#   of the checks is order's alone).
rows := {
	"input": {"check": "input", "reason": "invalid_input", "layer": "input"},
	"config": {"check": "config", "reason": "invalid_config", "layer": "config"},
	"declaration": {"check": "declaration", "reason": "not_declared", "layer": "declaration"},
	"exclusion": {"check": "exclusion", "reason": "excluded", "layer": null, "checks": "exclusions"},
	"deny": {"check": "deny", "reason": "denied", "layer": null, "checks": "layers"},
	"allow": {"check": "allow", "reason": "not_allowed", "layer": null, "checks": "layers"},
	"action": {"check": "action", "reason": "not_allowed", "layer": "read_only"},
	"paths": {"check": "paths", "reason": "path", "layer": "workspace"},
	"arguments": {"check": "arguments", "reason": null, "layer": null},
	"run": {"check": "run", "reason": "run_exhausted", "layer": "run"},
	"ask": {"check": "ask", "reason": "ask", "layer": null, "checks": "asking", "asks": true},
}

# METADATA
# description: |
#   The name-level rows of order that refuse (asked once per compiled
#   check), in order: the ask row, asked per check too, refuses nothing.
name_rows := [row | some row in order; row.checks; not row.asks]
