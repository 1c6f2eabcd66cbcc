# The facts of a call that every check reads: is it well formed, and
# which declared tool does its name reach.
package tooleval.verdict

import data.tooleval.shape

# METADATA
# description: |
#   The declared tool a call of canonical name c reaches (in the compiled
#   context ctx), or null: the
#   tool declared under that name, else the one declared under another
#   name of the same tool (a preset's aliases: a call of bash reaches a
#   declared exec, and is judged as exec). When more than one other name
#   of the tool is declared (an error, tooleval.declared), it reaches
#   none: which one would depend on order.
declared_tool(ctx, c) := tool if {
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

# The problem of a call that is not {id: string, name: string, ...} or
# whose id another call uses, or null.
_malformed_or_null(duplicates, i, call) := null if {
	is_string(call.id)
	is_string(call.name)
	not duplicates[call.id]
} else := sprintf("call %d is malformed: a call must be an object with a string id and name", [i]) if {
	not is_object(call)
} else := sprintf("call %d is malformed: id must be a string", [i]) if {
	not is_string(shape.field(call, "id", null))
} else := sprintf("call %d is malformed: name must be a string", [i]) if {
	not is_string(shape.field(call, "name", null))
} else := sprintf("call %d is malformed: id %q is used by more than one call in this batch", [i, call.id]) if {
	duplicates[call.id]
} else := null
