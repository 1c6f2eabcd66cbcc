# The verdict of one call, and the name-level refusals of declared tools.
package tooleval.verdict

import data.tooleval.canonical.canonical_or_null
import data.tooleval.checks
import data.tooleval.host
import data.tooleval.shape

# METADATA
# description: |
#   The facts a call is decided on: {ctx, call, i, problem, errors, name,
#   canonical, tool, run}, from the compiled context of its request (ctx,
#   tooleval.context), its batch ({errors: how many errors the request
#   and batch have, run: tooleval.budget.run or null, duplicates: the ids
#   that more than one call uses}) and its place i in the batch. problem
#   is why the call is malformed, or null; tool the declared tool it
#   reaches, or null. Whatever else a check needs it computes from these
#   when it is asked (outcome), so that a refused call costs only the
#   checks up to its refusal.
facts(ctx, batch, i, call) := {
	"ctx": ctx,
	"call": call,
	"i": i,
	"problem": _malformed_or_null(batch.duplicates, i, call),
	"errors": batch.errors,
	"name": name,
	"canonical": canonical_name,
	"tool": _declared_tool(ctx, canonical_name),
	"run": batch.run,
} if {
	name := shape.field(call, "name", null)
	canonical_name := canonical_or_null(name)
}

# METADATA
# description: |
#   The verdict of a call from its facts: {allowed: true}, or the refusal
#   {allowed: false, reason, layer, message, rule?} of the first check
#   that refuses it, in the order of the table order (a test holds the
#   two to the same order). Each check is asked only when every check
#   before it let the call through. A call is allowed only on positive
#   evidence that every check passed (pass, exempt or not_applicable); a
#   check whose outcome is missing, or another one, refuses the call.
call_verdict(f) := _refusal("input", f, o) if {
	o := _asked("input", f)
	not _passing[o.outcome]
} else := _refusal("config", f, o) if {
	o := _asked("config", f)
	not _passing[o.outcome]
} else := _refusal("declaration", f, o) if {
	o := _asked("declaration", f)
	not _passing[o.outcome]
} else := _name_refusal_entry(f, refusal) if {
	refusal := _name_refusal(f.ctx, f.canonical, f.tool)
} else := _refusal("action", f, o) if {
	o := _asked("action", f)
	not _passing[o.outcome]
} else := _refusal("paths", f, o) if {
	o := _asked("paths", f)
	not _passing[o.outcome]
} else := _refusal("run", f, o) if {
	o := _asked("run", f)
	not _passing[o.outcome]
} else := {"allowed": true} if {
	f.tool != null
} else := undecided

# The outcomes that let a call through; any other (refused, or one this
# chain does not know) refuses it.
_passing := {"pass", "exempt", "not_applicable"}

# The outcome of a check, or, should it have none (a defect), one that
# refuses the call as undecided.
_asked(check, f) := o if {
	o := outcome(check, null, f)
} else := {"outcome": "refused", "undecided": true}

# The refusal by check of a call with facts f, from the check's outcome o;
# undecided when it cannot be made (o says no reason, or the message
# cannot be written), so that a refusing check is never skipped.
_refusal(check, f, o) := r if {
	r := object.union(refused(o.reason, o.layer, message(check, f, o)), _rule(o))
} else := undecided

_rule(o) := {"rule": o.rule} if {
	o.rule
} else := {}

# The refusal of a call that a name-level check refused, or undecided.
_name_refusal_entry(f, refusal) := r if {
	r := name_refusal(f.name, refusal, object.get(f.ctx, "notes", {}))
} else := undecided

# METADATA
# description: A refusal as a decision entry without id and name.
refused(reason, layer, message) := {"allowed": false, "reason": reason, "layer": layer, "message": message}

# METADATA
# description: The refusal of a call the policy could not decide.
undecided := refused("invalid_config", "config", host.fail_closed_messages.call)

# METADATA
# description: |
#   The refusal of a call of name that a name-level check refused
#   ({reason, layer}); notes are the messages of the checks that carry
#   one, by check name (tooleval.checks.notes).
name_refusal(name, refusal, notes) := refused(refusal.reason, refusal.layer, _name_refusal_message(name, refusal, notes))

# A session's context has every tool's name-level refusal already
# (tooleval.context.session): in refusals for a tool with arguments to
# check, in its entry for any other. A one-shot decision checks the tool.
_name_refusal(ctx, canonical_name, _) := ctx.refusals[canonical_name]

_name_refusal(ctx, _, tool) := {"reason": entry.reason, "layer": entry.layer} if {
	ctx.refusals
	entry := ctx.entries[tool.name]
	entry.allowed == false
}

_name_refusal(ctx, canonical_name, tool) := tool_refusal(ctx.checks, canonical_name, tool) if not ctx.refusals

# METADATA
# description: |
#   The first name-level refusal of the declared tool with canonical name
#   name and record {kind, server, tool}, as {reason, layer}, or undefined
#   when every check lets it through: the first compiled check of
#   tooleval.checks that refuses it, in the order of order's name-level
#   rows.
tool_refusal(compiled, name, record) := refusals[0] if {
	refusals := [{"reason": row.reason, "layer": c.name} |
		some row in name_rows
		some c in compiled[row.checks]
		checks.refuses(row.check, c, name, record)
	]
	count(refusals) > 0
}

# METADATA
# description: |
#   The name-level refusal of every tool of a catalog (tools: canonical
#   name to record, see tooleval.declared), keyed by canonical name:
#   tool_refusal for each tool where it is defined. Each check is matched
#   against the whole catalog once (tooleval.checks.matched), then each
#   tool is a look-up per check. Undefined if any check cannot be
#   matched, so that no check is ever skipped.
tool_refusals(compiled, tools) := {name: refusals[0] |
	some name, record in tools
	refusals := [{"reason": row.reason, "layer": c.name} |
		some row in name_rows
		some k, c in compiled[row.checks]
		checks.refuses_matched(row.check, c, k, matched, name, record)
	]
	count(refusals) > 0
} if {
	matched := checks.matched(compiled, tools)
}
