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
#   | 6     | not_allowed    | the layer's name            |
#   | 7     | path           | workspace (with rule)       |
#   | 8     | run_exhausted  | run                         |
package tooleval.batch

import data.tooleval.budget
import data.tooleval.canonical.canonical_or_null
import data.tooleval.paths
import data.tooleval.shape

# METADATA
# title: decide
# description: The decision document for a batch, given the compiled context of its request.
decide(ctx, batch_doc) := object.union(
	{
		"decisions": decisions,
		"errors": errors,
		"effective": effective(ctx, errors),
	},
	run_member(run, count(calls), count([d | some d in decisions; d.allowed == false])),
) if {
	doc := shape.document(batch_doc)
	calls := shape.list_field(doc, "calls")
	run := budget.run(doc)
	errors := array.concat(ctx.errors, array.concat(shape.list_errors(doc, "calls"), budget.errors(doc)))
	duplicates := duplicate_ids(calls)
	decisions := [call_decision(ctx, errors, run, duplicates, i, call) | some i, call in calls]
}

# The effective names of the context, or none when the batch adds errors.
effective(ctx, errors) := ctx.effective if count(errors) == 0

else := []

run_member(null, _, _) := {}

run_member(run, calls, refused) := {"run": budget.totals(run, calls, refused)} if run != null

# METADATA
# title: duplicate_ids
# description: The call ids that more than one call of the batch uses.
duplicate_ids(calls) := {id |
	ids := sort([c.id | some c in calls; is_string(c.id)])
	some i, id in ids
	i > 0
	id == ids[i - 1]
}

# METADATA
# title: call_decision
# description: The decision for call i of the batch.
call_decision(ctx, errors, run, duplicates, i, call) := entry(call, verdict) if {
	canonical_name := canonical_or_null(shape.field(call, "name", null))
	verdict := call_verdict(ctx, errors, run, duplicates, i, call, canonical_name)
}

entry(call, verdict) := {
	"id": call.id,
	"name": call.name,
	"allowed": true,
} if {
	verdict.allowed == true
} else := object.union(
	{
		"id": shape.field(call, "id", null),
		"name": shape.field(call, "name", null),
		"allowed": false,
	},
	verdict,
)

# A call is allowed only on positive evidence that every check passed; a
# call that is neither refused nor shown to pass is refused all the same.
call_verdict(ctx, errors, run, duplicates, i, call, canonical_name) := verdict if {
	verdict := first_refusal(ctx, errors, run, duplicates, i, call, canonical_name)
} else := {"allowed": true} if {
	passes_every_check(ctx, errors, run, duplicates, i, call, canonical_name)
} else := refused("invalid_config", "config", "the call is refused: the policy could not decide it")

# first_refusal is the first failing check, in the order of the table above.
first_refusal(ctx, errors, run, duplicates, i, call, canonical_name) := refused("invalid_input", "input", message) if {
	message := malformed(duplicates, i, call)
} else := refused(
	"invalid_config",
	"config",
	sprintf("tool %q is refused: the request or policy configuration has %d error(s), listed under errors", [call.name, count(errors)]),
) if {
	count(errors) > 0
} else := refused("not_declared", "declaration", not_declared_message(call.name, canonical_name)) if {
	not ctx.tools[canonical_name]
} else := refused(refusal.reason, refusal.layer, name_refusal_message(call.name, refusal)) if {
	refusal := ctx.tools[canonical_name].refusal
} else := object.union(
	refused("path", "workspace", path_message(call.name, refusal)),
	{"rule": refusal.rule},
) if {
	ctx.workspace != null
	refusal := paths.refusal(ctx.workspace, object.get(ctx.path_arguments, canonical_name, {}), shape.field(call, "args", {}))
} else := refused(
	"run_exhausted",
	"run",
	sprintf("tool %q is not permitted: the run has used all %d of its attempts", [call.name, run.max_attempts]),
) if {
	budget.exhausted_at(run, i)
}

passes_every_check(ctx, errors, run, duplicates, i, call, canonical_name) if {
	is_string(call.id)
	is_string(call.name)
	not duplicates[call.id]
	count(errors) == 0
	tool := ctx.tools[canonical_name]
	not tool.refusal
	not path_refused(ctx, canonical_name, call)
	not budget.exhausted_at(run, i)
}

path_refused(ctx, canonical_name, call) if {
	ctx.workspace != null
	paths.refusal(ctx.workspace, object.get(ctx.path_arguments, canonical_name, {}), shape.field(call, "args", {}))
}

refused(reason, layer, message) := {"allowed": false, "reason": reason, "layer": layer, "message": message}

# malformed is the problem of a call that is not {id: string, name: string, ...}.
malformed(duplicates, i, call) := sprintf("call %d is malformed: a call must be an object with a string id and name", [i]) if {
	not is_object(call)
} else := sprintf("call %d is malformed: id must be a string", [i]) if {
	not is_string(shape.field(call, "id", null))
} else := sprintf("call %d is malformed: name must be a string", [i]) if {
	not is_string(shape.field(call, "name", null))
} else := sprintf("call %d is malformed: id %q is used by more than one call in this batch", [i, call.id]) if {
	duplicates[call.id]
}
