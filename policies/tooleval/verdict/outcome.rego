# The outcome of one check for one call: what the decision takes the
# first refusal of, and what tooleval.tracing shows for every check.
package tooleval.verdict

import data.tooleval.arguments
import data.tooleval.budget
import data.tooleval.checks

# METADATA
# scope: document
# description: |
#   The outcome of the check named check (a row of order) for a call's
#   facts f (facts): {outcome: "pass"}, {outcome: "refused", reason,
#   layer} (paths: also rule), {outcome: "exempt"} (a configured stage
#   lets that kind of tool through untouched) or {outcome:
#   "not_applicable"} (the check cannot be asked of this call, or states
#   nothing). k is the index of the compiled check in its list of
#   tooleval.checks for a name-level check (the row's checks) and null
#   for the others. A refused action or paths outcome also carries the
#   refusal its message quotes (refusal). Never undefined: a check it
#   has no clause for, or a clause that gives nothing (a defect), is
#   refused as undecided (the refusal has no reason, so the call's is
#   tooleval.verdict.undecided).
default outcome(_, _, _) := {"outcome": "refused", "undecided": true}

outcome("input", _, f) := _pass if {
	f.problem == null
} else := _refused_outcome("input")

outcome("config", _, f) := _pass if {
	f.errors == 0
} else := _refused_outcome("config")

outcome("declaration", _, f) := _pass if {
	f.tool != null
	is_string(f.name)
} else := _not_applicable if {
	not is_string(f.name)
} else := _refused_outcome("declaration")

outcome("exclusion", k, f) := _name_outcome("exclusion", f.ctx.checks.exclusions[k], f)

outcome("deny", k, f) := _name_outcome("deny", f.ctx.checks.layers[k], f)

outcome("allow", k, f) := _name_outcome("allow", f.ctx.checks.layers[k], f)

# Only a tool of the read-only action policy's (a shell tool in
# read-only mode) has an action to check.
outcome("action", _, f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	not f.ctx.actions.tools[f.canonical]
} else := {"outcome": "refused", "reason": rows.action.reason, "layer": refusal.layer, "refusal": refusal} if {
	refusal := arguments.action_refusal(f.ctx.actions, f.canonical, f.call)
} else := _pass

outcome("paths", _, f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	f.ctx.workspace == null
} else := _paths_refused(refusal) if {
	# a tool without path arguments has no path to refuse: it passes
	refusal := arguments.call_refusals(f.ctx.workspace, f.ctx.path_arguments[f.canonical], f.call)[0]
} else := _pass

# The ask list of the k-th stage or layer: ask when it matches the
# call's tool (the verdict asks only when no check refuses the call).
outcome("ask", k, f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	not checks.can_ask(f.ctx.checks.layers[k])
} else := {"outcome": "exempt"} if {
	checks.exempt(f.ctx.checks.layers[k], f.tool)
} else := {"outcome": "ask", "reason": rows.ask.reason, "layer": f.ctx.checks.layers[k].name} if {
	checks.asks(f.ctx.checks.layers[k], f.canonical, f.tool)
} else := _pass

outcome("run", _, f) := _not_applicable if {
	f.run == null
} else := _refused_outcome("run") if {
	budget.exhausted_at(f.run, f.i)
} else := _pass

# A name-level check c asked of the call's tool.
_name_outcome(check, c, f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	check == "allow"
	c.allow == null
} else := {"outcome": "exempt"} if {
	checks.exempt(c, f.tool)
} else := {"outcome": "refused", "reason": rows[check].reason, "layer": c.name} if {
	checks.refuses(check, c, f.canonical, f.tool)
} else := _pass

_pass := {"outcome": "pass"}

_not_applicable := {"outcome": "not_applicable"}

_refused_outcome(check) := {"outcome": "refused", "reason": rows[check].reason, "layer": rows[check].layer}

# The outcome of the paths check for the first path refusal of a call.
_paths_refused(refusal) := {
	"outcome": "refused",
	"reason": rows.paths.reason,
	"layer": rows.paths.layer,
	"rule": refusal.rule,
	"refusal": refusal,
}
