# METADATA
# title: tooleval
# description: |
#   The entry points of the tool-call policy. docs/contract.md is the
#   contract; every package under tooleval implements one concept of it.
#   A decision reads top to bottom, one package a step: shape, subject,
#   stages, checks, arguments, budget, verdict (README.md, "Layout").
package tooleval

import data.tooleval.batch
import data.tooleval.catalog
import data.tooleval.configuration
import data.tooleval.context
import data.tooleval.forks
import data.tooleval.host
import data.tooleval.shape
import data.tooleval.stages
import data.tooleval.subject
import data.tooleval.tracing
import data.tooleval.warnings

# METADATA
# scope: document
# description: The input document, or null when there is none.
default _request := null

_request := input

# METADATA
# description: |
#   One decision for one dispatch batch: {decisions, errors, run?}. Its
#   cost follows its calls, not the number of declared tools times the
#   layers. Defined for every input; a decision that could not be made
#   refuses every call.
# entrypoint: true
decision := d if {
	d := decide(context.compile(_request), _request)
} else := batch.fail_closed(_request)

# METADATA
# description: |
#   The decision for the calls and run of request, given a compiled
#   context (data.tooleval.context.compile). decision is
#   decide(compile(input), input); an engine that caches the context of an
#   agent session calls decide with it and each dispatch batch, and gets
#   the same document.
decide(ctx, req) := d if {
	d := batch.decide(ctx, req)
	count(d.decisions) == _call_count(req)
} else := batch.fail_closed(req)

# METADATA
# description: |
#   decision and explain for a request of n calls, more than the call
#   cap (tooleval.shape.max_calls), read without its calls: req is the
#   request without them (its calls, if any, are not read). {document,
#   refusal, trace}: document is the decision document but its
#   decisions, refusal every call's decision but its id and name, and
#   trace every call's trace under explain. decision for req with n
#   calls is document with decisions, one per call in order: refusal
#   with the call's id and name (tooleval.shape.field: null where it has
#   none); explain's decisions carry trace too. A host refuses such a
#   batch with it without decoding or evaluating its calls. Undefined
#   when n is within the cap.
over_cap(req, n) := decide_over_cap(ctx, req, n) if {
	ctx := context.compile(req)
} else := _over_cap_fail_closed(req, n)

# METADATA
# description: |
#   over_cap for decide: the decision of a request of n calls, more than
#   the call cap, given a compiled context (a session's) and the request
#   without its calls.
decide_over_cap(ctx, req, n) := object.union(o, {"trace": tracing.over_cap_trace(count(o.document.errors))}) if {
	o := batch.over_cap(ctx, req, n)
} else := _over_cap_fail_closed(req, n)

# The safety net of over_cap: batch.fail_closed, whose calls explain
# traces as untraced.
_over_cap_fail_closed(req, n) := object.union(batch.fail_closed_over_cap(req, n), {"trace": tracing.untraced}) if {
	n > shape.max_calls
}

# How many calls req has (tooleval.shape.list_field: none unless calls is a list).
_call_count(req) := count(calls) if {
	calls := req.calls
	is_array(calls)
} else := 0

# METADATA
# description: |
#   The decision with a trace on every call: each check in evaluation
#   order with its outcome, and the entry that matched with where it came
#   from (tooleval.tracing). Its decisions without trace equal decision's.
#   Defined for every input; a call that could not be traced carries a
#   one-step trace that refuses it, as its decision does.
# entrypoint: true
explain := object.union(d, {"decisions": traced}) if {
	ctx := context.compile(_request)
	d := decide(ctx, _request)
	traced := tracing.traced(ctx, _request, d.decisions)
} else := object.union(decision, {"decisions": [object.union(d, {"trace": tracing.untraced}) | some d in decision.decisions]})

# METADATA
# description: |
#   The declared catalog as this agent sees it: {errors, effective,
#   tools}, every declared tool's name-level verdict in declaration order
#   (calls and run are ignored). Defined for every input; a catalog that
#   could not be made refuses every tool.
# entrypoint: true
tools := t if {
	t := catalog.catalog(context.compile(_request), _request)
} else := catalog.fail_closed(_request)

# METADATA
# description: |
#   Validation of a sub-agent or fork launch: {valid, errors,
#   execution_allowed_tools, notice}. Defined for every input; a launch
#   that could not be validated is invalid and deny-all.
# entrypoint: true
launch := l if {
	l := forks.launch(context.compile(_request), _request)
} else := forks.failed_launch

# METADATA
# description: |
#   The configuration report of tooleval check, for the configuration in
#   force and a decision input (possibly empty): {errors, warnings,
#   agent_tools}. errors are the decision's errors (any of them refuses
#   every call) and then every other error in the configuration, which
#   refuses the calls of the requests that read that part of it;
#   warnings never change a decision; agent_tools is, for an
#   agent whose definition lists its tools, which of them name a declared
#   tool (valid) and which do not (invalid), or null.
# entrypoint: true
check := {
	"errors": array.concat(ctx.errors, [e | some e in stages.config_errors(configuration.config); not e in ctx.errors]),
	"warnings": warnings.warnings(configuration.config, doc, ctx.tools),
	"agent_tools": stages.agent_tools(subject.of(doc, configuration.config), ctx.tools),
} if {
	doc := shape.document(_request)
	ctx := context.compile(_request)
} else := {
	"errors": [shape.problem("internal_error", host.fail_closed_messages.check, {"field": ""})],
	"warnings": [],
	"agent_tools": null,
}
