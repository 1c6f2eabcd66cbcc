# METADATA
# title: Deciding a dispatch batch
# description: |
#   One decision per call, in order, from a compiled context
#   (tooleval.context) and the batch ({calls, run}): each call's verdict
#   is tooleval.verdict's, the first check that refuses it in the order
#   of the one table tooleval.verdict.order.
#
#   A call costs what its own checks cost: its tool's name-level checks
#   (tooleval.checks), its arguments, the budget, each asked only when
#   the checks before it let the call through; with a session's context,
#   a call of a declared name whose arguments need no check is one
#   look-up.
package tooleval.batch

import data.tooleval.budget
import data.tooleval.shape
import data.tooleval.verdict

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
	errors := _errors(ctx, doc)
	batch := {
		"clean": count(errors) == 0,
		"allowed_attempts": budget.allowed_attempts(run, count(calls)),
		"entries": object.get(ctx, "entries", {}),
		"errors": count(errors),
		"run": run,
		"duplicates": _duplicate_ids(calls),
	}
	decisions := [_call_decision(ctx, batch, i, call) | some i, call in calls]
}

# METADATA
# description: |
#   The facts each call of a batch is decided on, in call order
#   (tooleval.verdict.facts): what tooleval.explain traces every check
#   of. decide gives each call the first check that refuses it.
facts(ctx, batch_doc) := [verdict.facts(ctx, batch, i, call) | some i, call in calls] if {
	doc := shape.document(batch_doc)
	calls := shape.list_field(doc, "calls")
	batch := {
		"errors": count(_errors(ctx, doc)),
		"run": budget.run(doc),
		"duplicates": _duplicate_ids(calls),
	}
}

# The errors of the request and of the batch.
_errors(ctx, doc) := array.flatten([ctx.errors, shape.list_errors(doc, "calls"), shape.length_errors(doc, "calls", shape.max_calls), budget.errors(doc)])

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
_call_decision(ctx, batch, i, call) := _entry(call, batch.entries[call.name]) if {
	batch.entries[call.name]
	batch.clean == true
	i < batch.allowed_attempts
	is_string(call.id)
	not batch.duplicates[call.id]
} else := _entry(call, verdict.call_verdict(verdict.facts(ctx, batch, i, call)))

_entry(call, v) := {"id": call.id, "name": call.name, "allowed": true} if {
	v.allowed == true
} else := object.union(
	{
		"id": shape.field(call, "id", null),
		"name": shape.field(call, "name", null),
		"allowed": false,
	},
	v,
)
