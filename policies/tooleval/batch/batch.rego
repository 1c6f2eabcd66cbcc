# METADATA
# title: Deciding a dispatch batch
# description: |
#   One decision per call, in order, from a compiled context
#   (tooleval.context) and the batch ({calls, run}). The first failing
#   check gives the reason and the layer:
#
#   | order | reason         | layer                       |
#   | 1     | invalid_input  | input                       |
#   | 2     | invalid_config | config                      |
#   | 3     | not_declared   | declaration                 |
#   | 4     | excluded       | the exclusion's name        |
#   | 5     | denied         | the layer's name            |
#   | 6     | not_allowed    | the layer's name (also a    |
#   |       |                | shell action in read-only   |
#   |       |                | mode: layer read_only)      |
#   | 7     | path           | workspace (with rule)       |
#   | 8     | run_exhausted  | run                         |
#
#   A call costs what its own checks cost: its tool's name-level checks
#   (tooleval.checks), its arguments, the budget; with a session's
#   context, a call of a declared name whose arguments need no check is
#   one look-up.
package tooleval.batch

import data.tooleval.arguments
import data.tooleval.budget
import data.tooleval.canonical.canonical_or_null
import data.tooleval.checks
import data.tooleval.host
import data.tooleval.shape

# METADATA
# description: The decision document for a batch, given the compiled context of its request.
decide(ctx, batch_doc) := object.union(
	{
		"decisions": decisions,
		"errors": errors,
	},
	_run_member(run, count(calls), count([d | some d in decisions; d.allowed == false])),
) if {
	doc := shape.document(batch_doc)
	calls := shape.list_field(doc, "calls")
	run := budget.run(doc)
	errors := array.flatten([ctx.errors, shape.list_errors(doc, "calls"), shape.length_errors(doc, "calls", shape.max_calls), budget.errors(doc)])
	duplicates := _duplicate_ids(calls)
	batch := {
		"clean": count(errors) == 0,
		"allowed_attempts": budget.allowed_attempts(run, count(calls)),
		"entries": object.get(ctx, "entries", {}),
	}
	decisions := [_call_decision(ctx, batch, errors, run, duplicates, i, call) | some i, call in calls]
}

# METADATA
# description: |
#   The facts each call of a batch is decided on, in call order, as
#   {problem, errors, name, canonical, tool, ambiguous, refusal, action,
#   path, exhausted, run} (problem, tool, refusal, action and path null
#   where there is none; ambiguous true when the call's name is not
#   declared and several declared tools are other names of its tool): what tooleval.explain traces. decide gives each call
#   the first failing check among them.
facts(ctx, batch_doc) := [_facts(ctx, errors, run, duplicates, i, call) | some i, call in calls] if {
	doc := shape.document(batch_doc)
	calls := shape.list_field(doc, "calls")
	run := budget.run(doc)
	errors := array.flatten([ctx.errors, shape.list_errors(doc, "calls"), shape.length_errors(doc, "calls", shape.max_calls), budget.errors(doc)])
	duplicates := _duplicate_ids(calls)
}

_run_member(null, _, _) := {}

_run_member(run, calls, _refused) := {"run": budget.totals(run, calls, _refused)} if run != null

# METADATA
# description: The call ids that more than one call of the batch uses.
_duplicate_ids(calls) := {id |
	ids := sort([c.id | some c in calls; is_string(c.id)])
	some i, id in ids
	i > 0
	id == ids[i - 1]
}

# Most calls take the first clause: a well-formed call, under no error,
# within the budget, of a name the session's context has a finished
# verdict for. Every other call gets the full verdict. Both give the same
# document for the calls the first one accepts.
_call_decision(ctx, batch, errors, run, duplicates, i, call) := _entry(call, verdict) if {
	batch.clean == true
	i < batch.allowed_attempts
	is_string(call.id)
	not duplicates[call.id]
	verdict := batch.entries[call.name]
} else := _entry(call, _call_verdict(_facts(ctx, errors, run, duplicates, i, call)))

_entry(call, verdict) := {"id": call.id, "name": call.name, "allowed": true} if {
	verdict.allowed == true
} else := object.union(
	{
		"id": shape.field(call, "id", null),
		"name": shape.field(call, "name", null),
		"allowed": false,
	},
	verdict,
)

# _facts gathers, once each, the facts the verdict is made of.
_facts(ctx, errors, run, duplicates, i, call) := {
	"problem": _malformed_or_null(duplicates, i, call),
	"errors": count(errors),
	"name": name,
	"canonical": canonical_name,
	"tool": tool,
	"ambiguous": _ambiguous(ctx, canonical_name),
	"refusal": _name_refusal_or_null(ctx, canonical_name, tool),
	"action": _action_refusal_or_null(ctx, tool, canonical_name, call),
	"path": _path_refusal_or_null(ctx, tool, canonical_name, call),
	"exhausted": _exhausted(run, i),
	"run": run,
	"notes": object.get(ctx, "notes", {}),
} if {
	name := shape.field(call, "name", null)
	canonical_name := canonical_or_null(name)
	tool := _declared_tool(ctx, canonical_name)
}

# METADATA
# description: |
#   The declared tool a call of canonical name c reaches, or null: the
#   tool declared under that name, else the one declared under another
#   name of the same tool (a preset's aliases: a call of bash reaches a
#   declared exec, and is judged as exec). When more than one other name
#   of the tool is declared (an error, tooleval.declared), it reaches
#   none: which one would depend on order.
_declared_tool(ctx, c) := tool if {
	tool := ctx.tools[c]
} else := tool if {
	tools := [t | some name, _ in ctx.names[c].names; t := ctx.tools[name]]
	count(tools) == 1
	tool := tools[0]
} else := null

# A call of canonical name c is not declared itself, and more than one
# declared tool is another name of its tool.
_ambiguous(ctx, c) if {
	not ctx.tools[c]
	count([name | some name, _ in ctx.names[c].names; ctx.tools[name]]) > 1
} else := false

# METADATA
# description: |
#   The first failing check of a call, as {allowed: true} or the refusal
#   {allowed: false, reason, layer, message, rule?}, in the order of the
#   table above. A call is allowed only on positive evidence that every
#   check passed; a call that is neither refused nor shown to pass is
#   refused all the same.
_call_verdict(f) := _refused("invalid_input", "input", f.problem) if {
	f.problem != null
} else := _refused(
	"invalid_config",
	"config",
	sprintf("tool %q is refused: the request or policy configuration has %d error(s), listed under errors", [f.name, f.errors]),
) if {
	f.errors > 0
} else := _refused("not_declared", "declaration", _not_declared_message(f.name, f.canonical, f.ambiguous)) if {
	f.tool == null
} else := name_refusal(f.name, f.refusal, f.notes) if {
	f.refusal != null
} else := _refused("not_allowed", f.action.layer, _action_message(f.name, f.action)) if {
	f.action != null
} else := object.union(
	_refused("path", "workspace", _path_message(f.name, f.path)),
	{"rule": f.path.rule},
) if {
	f.path != null
} else := _refused("run_exhausted", "run", _run_exhausted_message(f.name, f.run)) if {
	f.exhausted == true
} else := {"allowed": true} if {
	f.problem == null
	f.errors == 0
	f.tool != null
	f.refusal == null
	f.action == null
	f.path == null
	f.exhausted == false
} else := _refused("invalid_config", "config", host.fail_closed_messages.call)

# METADATA
# description: |
#   The refusal of a call of name that a name-level check refused
#   ({reason, layer}); notes are the messages of the checks that carry
#   one, by check name (tooleval.checks.notes).
name_refusal(name, refusal, notes) := _refused(refusal.reason, refusal.layer, _name_refusal_message(name, refusal, notes))

_name_refusal_or_null(ctx, canonical_name, tool) := refusal if {
	tool != null
	refusal := _name_refusal(ctx, canonical_name, tool)
} else := null

# A session's context has every tool's name-level refusal already
# (tooleval.context.session): in refusals for a tool with arguments to
# check, in its entry for any other. A one-shot decision checks the tool.
_name_refusal(ctx, canonical_name, _) := ctx.refusals[canonical_name]

_name_refusal(ctx, _, tool) := {"reason": entry.reason, "layer": entry.layer} if {
	ctx.refusals
	entry := ctx.entries[tool.name]
	entry.allowed == false
}

_name_refusal(ctx, canonical_name, tool) := checks.refusal(ctx.checks, canonical_name, tool) if not ctx.refusals

# The refusal of a declared shell call whose action changes state in
# read-only mode (tooleval.arguments.action_refusal), or null.
_action_refusal_or_null(ctx, tool, canonical_name, call) := refusal if {
	tool != null
	refusal := arguments.action_refusal(object.get(ctx, "actions", null), canonical_name, call)
} else := null

# The first path refusal of a declared tool's call, or null (no
# workspace, or every path argument passes).
_path_refusal_or_null(ctx, tool, canonical_name, call) := refusal if {
	ctx.workspace != null
	tool != null
	refusal := arguments.refusal(ctx.workspace, object.get(ctx.path_arguments, canonical_name, {}), shape.field(call, "args", {}))
} else := null

_exhausted(run, i) if {
	budget.exhausted_at(run, i)
} else := false

# METADATA
# description: A refusal as a decision entry without id and name.
_refused(reason, layer, message) := {"allowed": false, "reason": reason, "layer": layer, "message": message}

# The problem of a call that is not {id: string, name: string, ...} or
# whose id another call uses, or null.
_malformed_or_null(duplicates, i, call) := sprintf("call %d is malformed: a call must be an object with a string id and name", [i]) if {
	not is_object(call)
} else := sprintf("call %d is malformed: id must be a string", [i]) if {
	not is_string(shape.field(call, "id", null))
} else := sprintf("call %d is malformed: name must be a string", [i]) if {
	not is_string(shape.field(call, "name", null))
} else := sprintf("call %d is malformed: id %q is used by more than one call in this batch", [i, call.id]) if {
	duplicates[call.id]
} else := null
