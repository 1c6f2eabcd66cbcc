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
#   look-up, and one whose only check left is its paths is that check
#   alone.
package tooleval.batch

import data.tooleval.budget
import data.tooleval.shape
import data.tooleval.verdict

# METADATA
# description: |
#   The decision document for a batch, given the compiled context of its
#   request. The common case, a well-formed batch (well_formed) of at
#   most max_calls calls, without a run, of a request without errors,
#   has no error and no run member to write; any other batch is read
#   member by member.
decide(ctx, batch_doc) := {"decisions": decisions, "errors": []} if {
	ctx.errors == []
	calls := batch_doc.calls
	is_array(calls)
	count(calls) <= shape.max_calls
	object.get(batch_doc, "run", null) == null
	well_formed(calls)
	decisions := [_unbudgeted_decision(ctx, call) | some call in calls]
} else := object.union(refused.document, {"decisions": decisions}) if {
	# A batch over the call cap is refused whole at once (over_cap).
	calls := batch_doc.calls
	is_array(calls)
	count(calls) > shape.max_calls
	refused := over_cap(ctx, batch_doc, count(calls))
	decisions := [object.union(refused.refusal, {"id": shape.field(call, "id", null), "name": shape.field(call, "name", null)}) |
		some call in calls
	]
} else := object.union(
	{
		"decisions": decisions,
		"errors": errors,
	},
	_run_member(run, decisions),
) if {
	doc := shape.document(batch_doc)
	calls := shape.list_field(doc, "calls")
	run := budget.run(doc)
	errors := _errors(ctx, doc, calls)
	decisions := _decisions(ctx, calls, run, errors)
}

# METADATA
# description: |
#   The decision of a batch of n calls, more than max_calls, of a request
#   with compiled context ctx, read without its calls (batch_doc need not
#   hold them: its calls are not read): {document, refusal}. document is
#   the decision document but its decisions (errors, and run when
#   batch_doc has one); refusal is the decision of every call but its id
#   and name. Such a batch is refused whole at once: each call for the
#   request's errors (too_many_entries among them), none read any
#   further, so that the cap bounds what a decision costs. decide gives
#   each call refusal with its id and name (tooleval.shape.field, null
#   where it has none). Undefined when n is within the cap.
over_cap(ctx, batch_doc, n) := {
	"document": object.union({"errors": errors}, _over_cap_run(budget.run(doc), n)),
	"refusal": verdict.over_cap_refusal(n),
} if {
	n > shape.max_calls
	doc := shape.document(batch_doc)
	errors := array.flatten([ctx.errors, shape.count_errors("calls", n, shape.max_calls), budget.errors(doc)])
}

# The run member of the decision of a batch of n calls over the cap,
# every call refused (_run_member).
_over_cap_run(null, _) := {}

_over_cap_run(run, n) := {"run": budget.totals(run, n, n)} if run != null

# METADATA
# description: |
#   The facts each call of a batch is decided on, in call order
#   (tooleval.verdict.facts): what tooleval.explain traces every check
#   of. decide gives each call the first check that refuses it.
facts(ctx, batch_doc) := [verdict.facts(ctx, batch, i, call) | some i, call in calls] if {
	doc := shape.document(batch_doc)
	calls := shape.list_field(doc, "calls")
	batch := _batch(calls, budget.run(doc), _errors(ctx, doc, calls))
}

# The decisions of a batch's calls. A well-formed batch (well_formed)
# under no error passes the input and config checks call by call by
# definition, so its calls start at the third check of the order
# (tooleval.verdict.well_formed_verdict); any other batch gets the whole
# verdict of each call.
_decisions(ctx, calls, run, errors) := [_well_formed_decision(ctx, run, limit, i, call) |
	some i, call in calls
] if {
	count(errors) == 0
	well_formed(calls)
	limit := budget.allowed_attempts(run, count(calls))
} else := [_any_entry(call, verdict.call_verdict(verdict.facts(ctx, batch, i, call))) |
	some i, call in calls
] if {
	batch := _batch(calls, run, errors)
}

_batch(calls, run, errors) := {
	"errors": count(errors),
	"run": run,
	"duplicates": _duplicate_ids(calls),
}

# METADATA
# description: |
#   Every call of calls is an object with a string id and a string name,
#   and no two calls use the same id.
well_formed(calls) if {
	# call.id read once: cheaper than as the term
	ids := {id | some call in calls; id := call.id; is_string(id); is_string(call.name)} # regal ignore:comprehension-term-assignment
	count(ids) == count(calls)
}

# The errors of the request and of the batch: the request's alone when
# calls is a list of at most max_calls calls and there is no run (the
# common case, where the batch can have no error of its own).
_errors(ctx, doc, calls) := ctx.errors if {
	is_array(doc.calls)
	count(calls) <= shape.max_calls
	object.get(doc, "run", null) == null
} else := array.flatten([ctx.errors, shape.list_errors(doc, "calls"), shape.length_errors(doc, "calls", shape.max_calls), budget.errors(doc)])

_run_member(null, _) := {}

_run_member(run, decisions) := {"run": budget.totals(run, count(decisions), count([d | some d in decisions; d.allowed == false]))} if run != null

# METADATA
# description: The call ids that more than one call of the batch uses.
_duplicate_ids(calls) := {id |
	ids := sort([c.id | some c in calls; is_string(c.id)])
	some i, id in ids
	i > 0
	id == ids[i - 1]
}

# A call of a well-formed batch under no error. Most calls of a
# session's batch take the first clause: a call within the budget (the
# first limit calls) of a name the session's context has a finished
# verdict for (entries, keyed by the names as declared), then a call whose
# only check left is its paths (path_entries, keyed the same way). Every
# other call gets its verdict. All give the same document for the calls
# the first ones accept.
_well_formed_decision(ctx, run, limit, i, call) := _entry(call, entry) if {
	# regal ignore:defer-assignment
	entry := ctx.entries[call.name] # first: most calls it decides have no entry
	i < limit
} else := _entry(call, entry) if {
	i < limit
	entry := verdict.path_verdict(ctx.workspace, ctx.path_entries[call.name], call)
} else := _entry(call, verdict.well_formed_verdict(verdict.well_formed_facts(ctx, run, i, call)))

# _well_formed_decision of a call of a batch without a run (so every
# call is within the budget).
_unbudgeted_decision(ctx, call) := _entry(call, entry) if {
	# regal ignore:defer-assignment
	entry := ctx.entries[call.name] # first: most calls it decides have no entry
} else := _entry(call, entry) if {
	entry := verdict.path_verdict(ctx.workspace, ctx.path_entries[call.name], call)
} else := _entry(call, verdict.well_formed_verdict(verdict.well_formed_facts(ctx, null, null, call)))

# The decision of a call of a well-formed batch with verdict v: refused
# (outcome deny) unless v says otherwise.
_entry(call, v) := object.union({"id": call.id, "name": call.name, "allowed": false, "outcome": "deny"}, v)

# The decision of any call with verdict v: its id and name, or null where
# it has none.
_any_entry(call, v) := object.union(
	{
		"id": shape.field(call, "id", null),
		"name": shape.field(call, "name", null),
		"allowed": false,
		"outcome": "deny",
	},
	v,
)
