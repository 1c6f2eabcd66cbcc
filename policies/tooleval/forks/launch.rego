# METADATA
# title: Sub-agent and fork launches
# description: |
#   Validation of a launch ({subagent_type, fork_tools, teammate, declared,
#   agent}, where agent is the launching agent) and the fork's execution
#   allowlist.
#
#   fork_tools is valid only with subagent_type "fork" and no named
#   teammate, and must be a list of allow-list entries (null is not a
#   list). A valid list comes back unchanged as execution_allowed_tools;
#   an omitted fork_tools gives null (unrestricted) and [] gives [] (deny-all). An
#   invalid launch gives [] (deny-all), so a runtime that ignores valid
#   still cannot widen anything. A fork cannot launch anything, and
#   neither can an agent at the depth cap.
package tooleval.forks

import data.tooleval.checks
import data.tooleval.configuration
import data.tooleval.configuration.lists
import data.tooleval.exclusions
import data.tooleval.host
import data.tooleval.pattern
import data.tooleval.shape
import data.tooleval.verdict

# METADATA
# description: The launch document, given the compiled context of the launch input.
launch(ctx, request) := {
	"valid": count(errors) == 0,
	"errors": errors,
	"execution_allowed_tools": _execution_allowed_tools(errors, doc),
	"notice": _notice_for(ctx, errors, doc),
} if {
	doc := shape.document(request)
	errors := array.concat(ctx.errors, _launch_errors(doc, configuration.config))
}

_execution_allowed_tools(errors, doc) := [] if {
	count(errors) > 0
} else := doc.fork_tools if {
	shape.present(doc, "fork_tools")
} else := null

_notice_for(ctx, errors, doc) := "" if {
	count(errors) > 0
} else := "" if {
	not shape.present(doc, "fork_tools")
} else := _notice(_permitted(ctx, doc))

# METADATA
# description: |
#   The declared names (as declared, sorted) that a fork launched with
#   this fork_tools could execute: not refused by the launching context,
#   not excluded for a fork one level deeper, and matched by fork_tools.
_permitted(ctx, doc) := sort([tool.name |
	prepared := configuration.prepared
	fork := {"role": "fork", "depth": shape.agent(doc).depth + 1, "leaf": false}
	as_fork := checks.checks(exclusions.active(fork, prepared), [])
	allowed := pattern.compile(doc.fork_tools, "allow", prepared.vocabulary)
	some name, tool in ctx.tools
	not verdict.tool_refusal(ctx.checks, name, tool)
	not verdict.tool_refusal(as_fork, name, tool)
	pattern.matches(allowed, name, tool)
])

# METADATA
# description: What is wrong with the launch itself.
_launch_errors(doc, conf) := array.flatten([
	_member_type_errors(doc),
	_spawn_errors(doc),
	_fork_tools_errors(doc, conf),
])

_member_type_errors(doc) := [shape.problem("invalid_field", sprintf("%s must be a string or null", [member]), {"field": member}) |
	some member in ["subagent_type", "teammate"]
	shape.present(doc, member)
	not is_string(doc[member])
]

_spawn_errors(doc) := [shape.problem("fork_cannot_spawn", "a fork cannot launch sub-agents or forks", {"field": "agent.role"})] if {
	shape.agent(doc).role == "fork"
} else := [shape.problem(
	"depth_limit_reached",
	sprintf("an agent at depth %v cannot launch a sub-agent: the depth cap is %v", [shape.agent(doc).depth, configuration.prepared.max_depth]),
	{"field": "agent.depth"},
)] if {
	shape.agent(doc).depth >= configuration.prepared.max_depth
} else := []

_fork_tools_errors(doc, conf) := [] if {
	not _has_fork_tools(doc)
} else := array.concat(
	[shape.problem(code, _fork_tools_messages[code], {"field": "fork_tools"}) |
		some code in ["fork_tools_requires_fork", "fork_tools_with_teammate", "invalid_list"]
		_fork_tools_problem(code, doc)
	],
	_fork_tools_entry_errors(doc, conf),
)

_fork_tools_messages := {
	"fork_tools_requires_fork": "fork_tools is valid only with subagent_type \"fork\"",
	"fork_tools_with_teammate": "fork_tools cannot be combined with a named teammate",
	"invalid_list": "fork_tools must be an array (omit it for no restriction)",
}

_fork_tools_problem("fork_tools_requires_fork", doc) if shape.field(doc, "subagent_type", null) != "fork"

_fork_tools_problem("fork_tools_with_teammate", doc) if shape.field(doc, "teammate", "") != ""

_fork_tools_problem("invalid_list", doc) if not is_array(doc.fork_tools)

# The launch names fork_tools, whatever its value: null is not a list,
# so it is an error, never read as omitted.
_has_fork_tools(doc) if "fork_tools" in object.keys(doc)

_fork_tools_entry_errors(doc, conf) := [shape.problem(p.code, pattern.problem_messages[p.code], object.union(p, {"field": "fork_tools"})) |
	is_array(doc.fork_tools)
	some p in pattern.list_problems(doc.fork_tools, "allow", lists.groups(conf))
]

# METADATA
# description: |
#   The safety net under a launch: should the validation ever be
#   undefined (a defect, not an input), the launch is invalid and
#   deny-all, with an internal_error.
failed_launch := {
	"valid": false,
	"errors": [shape.problem("internal_error", host.fail_closed_messages.launch, {"field": ""})],
	"execution_allowed_tools": [],
	"notice": "",
}
