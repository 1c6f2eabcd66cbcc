# The outcome of one check for one call: what the decision takes the
# first refusal of, and what tooleval.tracing shows for every check.
package tooleval.verdict

import data.tooleval.arguments
import data.tooleval.arguments.paths
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

# One clause a check, each calling the check's own function. OPA's rule
# index does not look at a constant argument, so a call of outcome tries
# the head of every clause: one a check here, where else chains in these
# heads would make it try every branch of every check.
outcome("input", _, f) := _input_outcome(f)

outcome("config", _, f) := _config_outcome(f)

outcome("declaration", _, f) := _declaration_outcome(f)

outcome("exclusion", k, f) := _name_outcome("exclusion", f.ctx.checks.exclusions[k], f)

outcome("deny", k, f) := _name_outcome("deny", f.ctx.checks.layers[k], f)

outcome("allow", k, f) := _name_outcome("allow", f.ctx.checks.layers[k], f)

outcome("action", _, f) := _action_outcome(f)

outcome("paths", _, f) := _paths_outcome(f)

outcome("arguments", _, f) := _arguments_outcome(f)

outcome("ask", k, f) := _ask_outcome(k, f)

outcome("run", _, f) := _run_outcome(f)

_input_outcome(f) := _pass if {
	f.problem == null
} else := _refused_outcome("input")

_config_outcome(f) := _pass if {
	f.errors == 0
} else := _refused_outcome("config")

_declaration_outcome(f) := _pass if {
	f.tool != null
	is_string(f.name)
} else := _not_applicable if {
	not is_string(f.name)
} else := _refused_outcome("declaration")

# Only a tool of the read-only action policy's (a shell tool in
# read-only mode) has an action to check.
_action_outcome(f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	not f.ctx.actions.tools[f.canonical]
} else := {"outcome": "refused", "reason": rows.action.reason, "layer": refusal.layer, "refusal": refusal} if {
	refusal := arguments.action_refusal(f.ctx.actions, f.canonical, f.call)
} else := _pass

_paths_outcome(f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	f.ctx.workspace == null
} else := _paths_refused(refusal) if {
	# a tool without path arguments has no path to refuse: it passes
	refusal := paths.call_refusals(f.ctx.workspace, f.ctx.path_arguments[f.canonical], f.call)[0]
} else := _pass

# The argument rules of every layer and stage (tooleval.arguments): refused
# by the first layer with a deny rule that bites on the call, else by
# the first whose allow list allows the tool only on arguments that the
# call's do not meet. The refusal carries the layer's rule that bit (or
# the allow rules it failed) and the readings of the call.
_arguments_outcome(f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	f.ctx.checks.arguing == []
} else := _arguments_refused(refusals[0]) if {
	refusals := _argument_refusals(f)
	count(refusals) > 0
} else := _pass if {
	# positive evidence only: refusals that cannot be worked out leave the
	# default outcome, which refuses as undecided
	_argument_refusals(f) == []
}

# The ask list of the k-th stage or layer: ask when it matches the
# call's tool, or one of its argument rules bites on the call (then with
# the rule's index in the list, ask_rule, and how the call was read; the
# verdict asks only when no check refuses the call).
_ask_outcome(k, f) := _not_applicable if {
	f.tool == null
} else := _not_applicable if {
	not checks.can_ask(f.ctx.checks.layers[k])
	not _has_ask_rules(f.ctx.checks.layers[k])
} else := {"outcome": "exempt"} if {
	checks.exempt(f.ctx.checks.layers[k], f.tool)
} else := {"outcome": "ask", "reason": rows.ask.reason, "layer": f.ctx.checks.layers[k].name} if {
	checks.asks(f.ctx.checks.layers[k], f.canonical, f.tool)
} else := {
	"outcome": "ask",
	"reason": rows.ask.reason,
	"layer": f.ctx.checks.layers[k].name,
	"ask_rule": rule.index,
	"reading": _readings(f)[rule.reads],
} if {
	rule := argument_ask(f.ctx.checks.layers[k], f)
} else := {
	"outcome": "ask",
	"reason": rows.ask.reason,
	"layer": f.ctx.checks.layers[k].name,
	"otherwise_rules": rules,
	"readings": {rule.reads: _readings(f)[rule.reads] | some rule in rules},
} if {
	rules := otherwise_asked_rules(f.ctx.checks.layers[k], f)
} else := _pass if {
	not _has_ask_rules(f.ctx.checks.layers[k])
} else := _pass if {
	# positive evidence only: ask rules asked of readings that cannot be
	# worked out leave the default outcome (refused, undecided)
	_readings(f)
}

_run_outcome(f) := _not_applicable if {
	f.run == null
} else := _refused_outcome("run") if {
	budget.exhausted_at(f.run, f.i)
} else := _pass

_has_ask_rules(c) if c.arguments.ask != []

_has_ask_rules(c) if {
	checks.asks_otherwise(c)
	c.arguments != null
}

# METADATA
# description: |
#   The argument ask rule of check c (a layer or a stage) that bites on the
#   call with facts f, or undefined.
argument_ask(c, f) := arguments.biting_rule(c.arguments.ask, f.canonical, f.tool, _readings(f), _required(f))

# METADATA
# description: |
#   The allow rules of check c (a layer or stage that asks otherwise)
#   that the call with facts f is let through on by name and does not
#   meet: c asks about the call instead of refusing it. Undefined when
#   c does not ask otherwise, its allow list names the tool outright or
#   not at all, or the call meets them.
otherwise_asked_rules(c, f) := rules if {
	checks.asks_otherwise(c)
	not checks.exempt(c, f.tool)
	rules := arguments.conditional_allow(c.arguments, f.canonical, f.tool)
	not arguments.permits(rules, _readings(f), arguments.required_readings(_sources(f)))
}

# METADATA
# description: |
#   The readings of the call with facts f (tooleval.arguments.readings),
#   as the argument checks read it: what an explanation quotes.
call_readings(f) := _readings(f)

# The readings of the call (tooleval.arguments.readings): of the
# arguments the configuration in force names for its tool, of its path
# arguments under the request's workspace, and of its arguments.
_readings(f) := arguments.readings(
	_sources(f),
	f.ctx.workspace,
	object.get(f.ctx.path_arguments, f.canonical, {}),
	f.call,
	arguments.reading_kinds(f.ctx.checks.arguing) | arguments.required_readings(_sources(f)),
)

# The readings the tool's allow rules must permit (required_readings).
_required(f) := arguments.required_readings(_sources(f))

# The tool's entry of the configuration's rule_arguments ({} for none),
# as the compiled context holds them.
_sources(f) := object.get(f.ctx.rule_arguments, f.canonical, {})

# Every refusal by argument rules of the call with facts f, in order:
# each layer's biting deny rule first, then each layer's allow rules
# the call does not meet ({layer, source, list, rule or rules,
# readings}).
_argument_refusals(f) := array.concat(
	[{"layer": c.name, "source": c.arguments.source, "list": "deny", "rule": rule, "reads": reads, "readings": readings} |
		some c in f.ctx.checks.arguing
		not checks.exempt(c, f.tool)
		rule := arguments.biting_rule(c.arguments.deny, f.canonical, f.tool, readings, _required(f))
		reads := min(arguments.biting_reads(c.arguments.deny, f.canonical, f.tool, readings, _required(f)))
	],
	[{"layer": c.name, "source": c.arguments.source, "list": "allow", "rules": rules, "readings": readings} |
		some c in f.ctx.checks.arguing
		not checks.exempt(c, f.tool)
		rules := arguments.conditional_allow(c.arguments, f.canonical, f.tool)
		not arguments.permits(rules, readings, arguments.required_readings(_sources(f)))
		not c.otherwise == "ask" # it asks instead (outcome "ask"); last: asked of unmet rules only
	],
) if {
	readings := _readings(f)
}

_arguments_refused(refusal) := {
	"outcome": "refused",
	"reason": _argument_reasons[refusal.list],
	"layer": refusal.layer,
	"argument": _argument_read(refusal),
	"refusal": refusal,
}

# The reading a refusal by argument rules looked at: the first in
# alphabetical order of those its deny rules that bite read, or (an allow
# list) of those its rules read; not the first rule's: the order of a
# list decides nothing.
_argument_read(refusal) := refusal.reads if {
	refusal.list == "deny"
} else := min({rule.reads | some rule in refusal.rules})

# An argument rule refuses as its list does: a deny rule denies, an
# allow list the call's arguments do not meet does not allow.
_argument_reasons := {"deny": rows.deny.reason, "allow": rows.allow.reason}

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
