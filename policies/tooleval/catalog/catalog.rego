# METADATA
# title: The declared catalog
# description: |
#   What the name-level rules (exclusions, configured stages, inline
#   layers) make of every declared tool: the entry point
#   data.tooleval.tools, asked once per session or catalog change, never
#   per dispatch batch. It matches each check against the whole catalog
#   once and takes each tool's first refusal in the order of
#   tooleval.verdict.order (tooleval.verdict.tool_refusals).
package tooleval.catalog

import data.tooleval.canonical.canonical_or_null
import data.tooleval.host
import data.tooleval.shape
import data.tooleval.verdict

# METADATA
# description: |
#   The catalog of a request, given its compiled context:
#   {errors, effective, tools}. tools has one entry per declaration, in
#   order: {name, allowed, outcome}, {name, allowed, outcome, rules} or
#   {name, allowed, outcome, reason, layer}, outcome "allow" (every call
#   of it is let through by name), "conditional" (let through by name,
#   and argument rules decide each call: rules lists them, see
#   tooleval.verdict.tool_argument_rules), "ask" (a layer asks for it by
#   name: reason ask) or "deny"; effective is the sorted names (as
#   declared) that are allowed, outright or conditionally. Under an error
#   every tool is refused (invalid_config) and effective is empty.
catalog(ctx, request) := {
	"errors": ctx.errors,
	"effective": sort([t.name | some t in tools; t.allowed == true]),
	"tools": tools,
} if {
	# a tool a layer asks for is not allowed by name either (reason ask);
	# a refusal wins over an ask
	refusals := object.union(verdict.tool_asks(ctx.checks, ctx.tools), verdict.tool_refusals(ctx.checks, ctx.tools))
	rules := verdict.tool_argument_rules(ctx.checks, ctx.tools)
	tools := [_tool(ctx, refusals, rules, d) | some d in shape.list_field(shape.document(request), "declared")]
}

# A tool is allowed only when it was found among the declared tools and
# no check refused it (conditionally when argument rules are asked of
# it); anything else is refused.
_tool(ctx, refusals, rules, d) := _verdict(d.name, refusals[c]) if {
	count(ctx.errors) == 0
	c := canonical_or_null(d.name)
	ctx.tools[c]
} else := {"name": d.name, "allowed": true, "outcome": "conditional", "rules": rules[c]} if {
	count(ctx.errors) == 0
	c := canonical_or_null(d.name)
	ctx.tools[c]
} else := {"name": d.name, "allowed": true, "outcome": "allow"} if {
	count(ctx.errors) == 0
	ctx.tools[canonical_or_null(d.name)]
} else := _invalid_config(d)

_invalid_config(d) := {"name": shape.field(d, "name", null), "allowed": false, "outcome": "deny", "reason": "invalid_config", "layer": "config"}

# METADATA
# description: |
#   The catalog entry of the declared tool named name (as declared),
#   refused by refusal ({reason, layer}) or asked for ({layer}: reason ask).
_verdict(name, refusal) := {
	"name": name,
	"allowed": false,
	"outcome": _outcome(object.get(refusal, "reason", verdict.rows.ask.reason)),
	"reason": object.get(refusal, "reason", verdict.rows.ask.reason),
	"layer": refusal.layer,
}

_outcome(reason) := "ask" if {
	reason == verdict.rows.ask.reason
} else := "deny"

# METADATA
# description: |
#   The safety net under the catalog: should it ever be undefined (a
#   defect, not an input), every declared tool of the request is refused,
#   with an internal_error.
fail_closed(request) := {
	"errors": [shape.problem("internal_error", host.fail_closed_messages.catalog, {"field": ""})],
	"effective": [],
	"tools": [_invalid_config(d) | some d in shape.list_field(shape.document(request), "declared")],
}
