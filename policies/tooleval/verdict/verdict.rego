# The verdict of one call, and the name-level refusals of declared tools.
package tooleval.verdict

import data.tooleval.arguments
import data.tooleval.arguments.paths
import data.tooleval.canonical.canonical_or_null
import data.tooleval.checks
import data.tooleval.host
import data.tooleval.pattern
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
	"canonical": c,
	"tool": declared_tool(ctx, c),
	"run": batch.run,
} if {
	name := shape.field(call, "name", null)
	c := canonical_or_null(name)
}

# METADATA
# description: |
#   The facts of the i-th call of a well-formed batch (batch_verdict):
#   facts with no problem and no error, which a well-formed batch has by
#   definition, read without asking. (Each is its own literal: a helper
#   of seven arguments costs more than the object it builds.)
well_formed_facts(ctx, run, i, call) := {
	"ctx": ctx,
	"call": call,
	"i": i,
	"problem": null,
	"errors": 0,
	"name": name,
	"canonical": c,
	"tool": declared_tool(ctx, c),
	"run": run,
} if {
	name := call.name
	c := canonical_or_null(name)
}

# METADATA
# description: |
#   The verdict of a call from its facts: {allowed: true}, or the refusal
#   {allowed: false, reason, layer, message, rule?} of the first check
#   that refuses it, in the order of the table order (a test holds the
#   chain to the same order). Each check is asked only when every check
#   before it let the call through. A call is allowed only on positive
#   evidence that every check passed (an outcome of _through); an outcome
#   this chain does not know refuses the call, and outcome is never
#   undefined (its default refuses as undecided).
call_verdict(f) := _refusal("input", f, o) if {
	o := outcome("input", null, f)
	not _through[o]
} else := _refusal("config", f, o) if {
	o := outcome("config", null, f)
	not _through[o]
} else := well_formed_verdict(f)

# METADATA
# description: |
#   call_verdict from the third row of order on: the verdict of a call
#   that the input and config checks let through, which every call of a
#   well-formed batch is (tooleval.batch: each call an object with a
#   string id and name, no id used twice, no error), so that such a
#   batch skips those checks wholesale. A call-level check is asked only
#   of a call it could refuse (a test holds outcome to letting every
#   other call through): declaration of a call that reaches no declared
#   tool, action of a tool of the read-only action policy, paths of a
#   tool with path arguments, run of a batch with a run.
well_formed_verdict(f) := _refusal("declaration", f, o) if {
	f.tool == null
	o := outcome("declaration", null, f)
	not _through[o]
} else := _name_refusal_entry(f, refusal) if {
	# a one-shot decision's context (compile) has no refusals: the tool
	# is checked
	not f.ctx.refusals
	refusal := tool_refusal(f.ctx.checks, f.canonical, f.tool)
} else := _name_refusal_entry(f, refusal) if {
	# a session's has every declared tool's name-level refusal already,
	# by canonical name (refusals, tooleval.context.session)
	refusal := f.ctx.refusals[f.canonical]
} else := _refusal("action", f, o) if {
	f.ctx.actions.tools[f.canonical]
	o := outcome("action", null, f)
	not _through[o]
} else := _refusal("paths", f, o) if {
	f.ctx.path_arguments[f.canonical]
	o := outcome("paths", null, f)
	not _through[o]
} else := _refusal("run", f, o) if {
	f.run != null
	o := outcome("run", null, f)
	not _through[o]
} else := _allowed if {
	f.ctx.checks.judging == [] # most requests have no ask list and no argument rule
	f.tool != null
} else := judged_verdict(f)

# METADATA
# description: |
#   The verdict of a call that no check before the arguments row refuses,
#   in a request with a layer that has an ask list or argument rules:
#   refused by the argument rules, else asked (by a layer's ask list, then
#   by an argument ask rule), else allowed; undecided when that cannot be
#   told.
judged_verdict(f) := _argument_refusal(f, o) if {
	o := outcome("arguments", null, f)
	not _through[o]
} else := ask_verdict(f.name, asking, _notes(f)) if {
	asking := _asking(f)
} else := ask_verdict(f.name, asking, _notes(f)) if {
	asking := _argument_asking(f)
} else := _allowed if {
	f.tool != null
} else := undecided

_notes(f) := object.get(f.ctx, "notes", {})

# The layer that asks for the call with facts f, as {layer}: a session's
# context has every declared tool's already (asks), a one-shot decision's
# (without asks) asks its checks.
_asking(f) := f.ctx.asks[f.canonical]

_asking(f) := {"layer": layer} if {
	not f.ctx.asks
	layer := tool_ask(f.ctx.checks, f.canonical, f.tool)
}

# The first inline layer with an argument ask rule that bites on the
# call with facts f, as {layer, argument}: argument is the first in
# alphabetical order of the readings its biting ask rules look at
# (command, url, path or args).
_argument_asking(f) := asking[0] if {
	asking := [{"layer": c.name, "argument": reads} |
		some c in f.ctx.checks.arguing
		not checks.exempt(c, f.tool)
		reads := _asking_reads(c, f)
	]
	count(asking) > 0
}

# The reading an argument ask of check c looks at for the call with
# facts f: the first in alphabetical order of those its biting ask rules
# read, else (it asks otherwise) of those its allow rules the call does
# not meet read.
_asking_reads(c, f) := min(arguments.biting_reads(c.arguments.ask, f.canonical, f.tool, _readings(f), _required(f))) if {
	argument_ask(c, f)
} else := min({rule.reads | some rule in rules}) if {
	c.otherwise == "ask" # most layers do not: one expression
	rules := otherwise_asked_rules(c, f)
}

# METADATA
# description: |
#   The verdict of a call that nothing refuses and that a layer's ask
#   list matches (asking: {layer}, or {layer, argument} for an argument
#   rule, whose decision then says which argument it read): not allowed,
#   outcome ask, reason ask, with a message for the person who will
#   answer.
ask_verdict(name, asking, notes) := object.union(
	{
		"allowed": false,
		"outcome": "ask",
		"reason": rows.ask.reason,
		"layer": asking.layer,
		"message": sprintf("tool %q needs a person's approval: asked by layer %q%s", [name, asking.layer, _note(notes, asking.layer)]),
	},
	object.filter(asking, {"argument"}),
)

# METADATA
# description: |
#   The verdict of a well-formed call within its budget whose only check
#   left is its paths (a session's path_entries): allowed, or refused by
#   its first path refusal. It is what well_formed_verdict gives such a
#   call; undefined when the paths cannot be read, for the caller to
#   take the general way.
path_verdict(workspace, path_arguments, call) := _allowed if {
	paths.call_refusals(workspace, path_arguments, call) == []
} else := _refusal("paths", {"name": call.name}, _paths_refused(refusal)) if {
	refusal := paths.call_refusals(workspace, path_arguments, call)[0]
}

_allowed := {"allowed": true, "outcome": "allow"}

# The outcomes that let a call through, exactly as outcome writes them;
# any other (refused, one this chain does not know, or one with members
# it does not expect) refuses the call.
_through := {{"outcome": "pass"}, {"outcome": "exempt"}, {"outcome": "not_applicable"}}

# The refusal by check of a call with facts f, from the check's outcome o,
# with o's rule when it has one (paths); undecided when it cannot be made
# (o says no reason, or the message cannot be written), so that a
# refusing check is never skipped.
_refusal(check, f, o) := {
	"allowed": false,
	"outcome": "deny",
	"reason": o.reason,
	"layer": o.layer,
	"message": message(check, f, o),
	"rule": o.rule,
} if {
	o.rule
} else := r if {
	r := refused(o.reason, o.layer, message(check, f, o))
} else := undecided

# The refusal of a call by argument rules (outcome o of the arguments
# row), with the reading they looked at, or undecided.
_argument_refusal(f, o) := {
	"allowed": false,
	"outcome": "deny",
	"reason": o.reason,
	"layer": o.layer,
	"message": message("arguments", f, o),
	"argument": o.argument,
} if {
	o.outcome == "refused"
} else := undecided

# The refusal of a call that a name-level check refused, or undecided.
_name_refusal_entry(f, refusal) := r if {
	r := name_refusal(f.name, refusal, object.get(f.ctx, "notes", {}))
} else := undecided

# METADATA
# description: |
#   The refusal of every call of a batch of n calls, more than the call
#   cap (tooleval.shape.max_calls): the config check's, for the request's
#   too_many_entries error, with one message for all of them, so that the
#   batch is refused without reading its calls.
over_cap_refusal(n) := refused(rows.config.reason, rows.config.layer, sprintf(
	"tool call refused: the batch has %d calls, more than the %d a batch may have (too_many_entries, listed under errors)",
	[n, shape.max_calls],
))

# METADATA
# description: A refusal as a decision entry without id and name.
refused(reason, layer, message) := {"allowed": false, "outcome": "deny", "reason": reason, "layer": layer, "message": message}

# METADATA
# description: The refusal of a call the policy could not decide.
undecided := refused("invalid_config", "config", host.fail_closed_messages.call)

# METADATA
# description: |
#   The refusal of a call of name that a name-level check refused
#   ({reason, layer}); notes are the messages of the checks that carry
#   one, by check name (tooleval.checks.notes).
name_refusal(name, refusal, notes) := refused(refusal.reason, refusal.layer, _name_refusal_message(name, refusal, notes))

# METADATA
# description: |
#   The first name-level refusal of the declared tool with canonical name
#   name and record {kind, server, tool}, as {reason, layer}, or undefined
#   when every check lets it through: the first compiled check of
#   tooleval.checks that refuses it, in the order of order's name-level
#   rows (a test holds the two to the same order), each row asked only
#   when every check of the rows before it let the tool through.
tool_refusal(compiled, name, record) := _name_row_refusal(rows.exclusion, layer) if {
	refusing := [c.name | some c in compiled.exclusions; checks.refuses("exclusion", c, name, record)]
	layer := refusing[0]
} else := _name_row_refusal(rows.deny, layer) if {
	refusing := [c.name | some c in _denying(compiled); checks.refuses("deny", c, name, record)]
	layer := refusing[0]
} else := _name_row_refusal(rows.allow, layer) if {
	refusing := [c.name | some c in compiled.layers; checks.refuses("allow", c, name, record)]
	layer := refusing[0]
}

# The checks of compiled that a deny check can refuse with: its denying
# layers (tooleval.checks.checks), or every layer of checks built
# otherwise.
_denying(compiled) := object.get(compiled, "denying", compiled.layers)

_name_row_refusal(row, layer) := {"reason": row.reason, "layer": layer}

# METADATA
# description: |
#   The name of the first check of compiled that asks a person before a
#   call of the tool record (canonical name name), or undefined: the
#   ask row of the order table, for one tool.
tool_ask(compiled, name, record) := asking[0] if {
	asking := [c.name | some c in object.get(compiled, "asking", []); checks.asks(c, name, record)]
	count(asking) > 0
}

# METADATA
# description: |
#   tool_ask of every tool of tools (canonical name to record) that a
#   check asks for, as {"layer": name}: what a session's context keeps,
#   one look-up a call. Undefined if any ask list cannot be matched, so
#   that none is ever skipped.
tool_asks(compiled, tools) := {name: {"layer": asking[0]} |
	some name, record in tools
	asking := [c.name |
		some k, c in checks_asking
		_asks_matched(matched[k], name)
		not checks.exempt(c, record)
	]
	count(asking) > 0
} if {
	checks_asking := object.get(compiled, "asking", [])
	matched := [_ask_matched(c, tools) | some c in checks_asking]
	count(matched) == count(checks_asking)
}

# A check's ask list matched against a catalog, and the tools its allow
# list matches when it asks otherwise (null when it does not).
_ask_matched(c, tools) := {"ask": pattern.matched(c.ask, tools), "allow": _otherwise_matched(c, tools)}

_otherwise_matched(c, tools) := pattern.matched(c.allow, tools) if {
	checks.asks_otherwise(c)
} else := null

_asks_matched(matched, name) if matched.ask[name]

_asks_matched(matched, name) if {
	matched.allow != null
	not matched.allow[name]
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
