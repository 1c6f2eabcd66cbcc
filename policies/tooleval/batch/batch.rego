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
package tooleval.batch

import data.tooleval.budget
import data.tooleval.canonical.canonical_or_null
import data.tooleval.canonical.plain_name
import data.tooleval.paths
import data.tooleval.shape
import data.tooleval.stages

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
	errors := array.flatten([ctx.errors, shape.list_errors(doc, "calls"), shape.length_errors(doc, "calls", shape.max_calls), budget.errors(doc)])
	duplicates := duplicate_ids(calls)
	batch := {
		"clean": count(errors) == 0,
		"allowed_attempts": budget.allowed_attempts(run, count(calls)),
	}
	decisions := [call_decision(ctx, batch, errors, run, duplicates, i, call) | some i, call in calls]
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
# description: |
#   The decision for call i of the batch. Most calls take the first
#   clause: a well-formed call, under no error, of a declared tool that no
#   exclusion or layer refuses, with no path argument to check, within the
#   budget. Every other call gets the full verdict. Both give the same
#   document for the calls the first one accepts.
call_decision(ctx, batch, errors, run, duplicates, i, call) := {"id": call.id, "name": call.name, "allowed": true} if {
	batch.clean == true
	i < batch.allowed_attempts
	plain_name(call.name)
	is_string(call.id)
	not duplicates[call.id]
	tool := ctx.tools[lower(call.name)]
	not tool.refusal
	tool.checks_args == false
} else := entry(call, call_verdict(facts)) if {
	facts := call_facts(ctx, errors, run, duplicates, i, call)
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

# call_facts gathers, once each, the facts the verdict is made of.
call_facts(ctx, errors, run, duplicates, i, call) := {
	"problem": malformed_or_null(duplicates, i, call),
	"errors": count(errors),
	"name": name,
	"canonical": canonical_name,
	"tool": tool,
	"action": action_refusal_or_null(ctx, tool, canonical_name, call),
	"path": path_refusal_or_null(ctx, tool, canonical_name, call),
	"exhausted": exhausted(run, i),
	"run": run,
} if {
	name := shape.field(call, "name", null)
	canonical_name := canonical_or_null(name)
	tool := declared_tool(ctx, canonical_name)
}

# METADATA
# title: declared_tool
# description: |
#   The declared tool a call of canonical name c reaches, or null: the
#   tool declared under that name, else the one declared under another
#   name of the same tool (a preset's aliases: a call of bash reaches a
#   declared exec, and is judged as exec).
declared_tool(ctx, c) := tool if {
	tool := ctx.tools[c]
} else := tool if {
	some name in object.get(ctx.names, c, set())
	tool := ctx.tools[name]
} else := null

# call_verdict is the first failing check, in the order of the table above.
# A call is allowed only on positive evidence that every check passed; a
# call that is neither refused nor shown to pass is refused all the same.
call_verdict(f) := refused("invalid_input", "input", f.problem) if {
	f.problem != null
} else := refused(
	"invalid_config",
	"config",
	sprintf("tool %q is refused: the request or policy configuration has %d error(s), listed under errors", [f.name, f.errors]),
) if {
	f.errors > 0
} else := refused("not_declared", "declaration", not_declared_message(f.name, f.canonical)) if {
	f.tool == null
} else := refused(f.tool.refusal.reason, f.tool.refusal.layer, name_refusal_message(f.name, f.tool.refusal)) if {
	f.tool.refusal
} else := refused("not_allowed", f.action.layer, action_message(f.name, f.action)) if {
	f.action != null
} else := object.union(
	refused("path", "workspace", path_message(f.name, f.path)),
	{"rule": f.path.rule},
) if {
	f.path != null
} else := refused("run_exhausted", "run", run_exhausted_message(f.name, f.run)) if {
	f.exhausted == true
} else := {"allowed": true} if {
	f.problem == null
	f.errors == 0
	f.tool != null
	not f.tool.refusal
	f.action == null
	f.path == null
	f.exhausted == false
} else := refused("invalid_config", "config", "the call is refused: the policy could not decide it")

# The refusal of a declared, not name-refused shell call whose action
# changes state in read-only mode (tooleval.stages.action_refusal), or
# null.
action_refusal_or_null(ctx, tool, canonical_name, call) := refusal if {
	tool != null
	not tool.refusal
	refusal := stages.action_refusal(object.get(ctx, "actions", null), canonical_name, call)
} else := null

# The first path refusal of a declared, not name-refused tool's call, or
# null (no workspace, or every path argument passes).
path_refusal_or_null(ctx, tool, canonical_name, call) := refusal if {
	ctx.workspace != null
	tool != null
	not tool.refusal
	refusal := paths.refusal(ctx.workspace, object.get(ctx.path_arguments, canonical_name, {}), shape.field(call, "args", {}))
} else := null

exhausted(run, i) if {
	budget.exhausted_at(run, i)
} else := false

refused(reason, layer, message) := {"allowed": false, "reason": reason, "layer": layer, "message": message}

# malformed_or_null is the problem of a call that is not
# {id: string, name: string, ...} or whose id another call uses, or null.
malformed_or_null(duplicates, i, call) := sprintf("call %d is malformed: a call must be an object with a string id and name", [i]) if {
	not is_object(call)
} else := sprintf("call %d is malformed: id must be a string", [i]) if {
	not is_string(shape.field(call, "id", null))
} else := sprintf("call %d is malformed: name must be a string", [i]) if {
	not is_string(shape.field(call, "name", null))
} else := sprintf("call %d is malformed: id %q is used by more than one call in this batch", [i, call.id]) if {
	duplicates[call.id]
} else := null
