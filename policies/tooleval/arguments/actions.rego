# Shell actions in read-only mode: a call of a shell tool may go on only
# when its action observes (the policy, from the configuration, is
# tooleval.stages.read_only.action_policy).
package tooleval.arguments

import data.tooleval.arguments.args
import data.tooleval.shape

# METADATA
# description: |
#   The refusal of a shell call that may change state, under an action
#   policy (see action_policy), or undefined when the call may go on:
#   {layer, action} when its action changes state, and {layer, action,
#   argument} when it observes but carries an argument an observing call
#   has no use for (a command, an input): the action is the model's own
#   word, so a call that could run something is refused whatever it says.
action_refusal(policy, canonical_name, call) := refusal if {
	policy != null
	policy.tools[canonical_name]
	call_args := shape.field(call, "args", {})
	refusal := _action_problem(policy, _spelled(shape.field(call_args, "action", policy.default_action)), call_args)
}

# The action as a decision quotes it: its numbers spelled as ECMAScript
# writes them (args.es_value), or null for one beyond float64's range (no
# such action observes).
_spelled(action) := spelled if {
	spelled := args.es_value(action)
} else := null

_action_problem(policy, action, call_args) := {"layer": "read_only", "action": action} if {
	not policy.observe[action]
} else := {"layer": "read_only", "action": action, "argument": sort(extra)[0]} if {
	extra := [name | some name, _ in _object_or_empty(call_args); not policy.arguments[name]]
	count(extra) > 0
}

_object_or_empty(x) := x if is_object(x)

else := {}
