# Read-only mode and the command-level classification of shell calls
# (seed 004).
#
# An agent runs in read-only mode (subject.read_only) when
# input.agent.read_only is true or its definition says read_only. Then only the tools of
# config.read_only.allow are allowed (stage read_only: the read bucket
# and the shell tools), and a call of a shell tool (config.shell.tools)
# only when its action observes:
#
#   action (args.action)                 | kind
#   status, logs, list (config.shell.observe) | observes
#   exec, start, write, stop, anything else   | changes state
#
# A call without an action runs config.shell.default_action (exec).
package tooleval.stages

import data.tooleval.canonical.canonical_or_null
import data.tooleval.shape

read_only_config(conf) := shape.field(conf, "read_only", {})

shell_config(conf) := shape.field(conf, "shell", {})

read_only_stage(s, conf) := [{
	"name": "read_only",
	"allow": shape.field(read_only_config(conf), "allow", []),
	"deny": [],
}] if {
	s.read_only
} else := []

# METADATA
# title: action_policy
# description: |
#   What deciding a call's action needs, or null when no call's action is
#   checked: {tools, observe, default_action}, where tools are the
#   canonical names of the shell tools.
action_policy(s, conf) := {
	"tools": {c | some t in shape.field(shell_config(conf), "tools", []); c := canonical_or_null(t); c != null},
	"observe": {a | some a in shape.field(shell_config(conf), "observe", []); is_string(a)},
	"default_action": shape.field(shell_config(conf), "default_action", "exec"),
} if {
	s.read_only
} else := null

# METADATA
# title: action_refusal
# description: |
#   The refusal of a shell call whose action changes state, under an
#   action policy (see action_policy), or undefined when the call may go
#   on: {layer, action}.
action_refusal(policy, canonical_name, call) := {"layer": "read_only", "action": action} if {
	policy != null
	policy.tools[canonical_name]
	action := shape.field(shape.field(call, "args", {}), "action", policy.default_action)
	not policy.observe[action]
}

read_only_request_errors(s, conf) := read_only_config_errors(conf) if {
	s.read_only
} else := []

read_only_config_errors(conf) := array.flatten([
	object_errors(value_at(conf, "read_only"), "config.read_only", true),
	entries_errors(shape.field(read_only_config(conf), "allow", []), "allow", "config.read_only.allow", conf, false),
	object_errors(value_at(conf, "shell"), "config.shell", true),
	name_list_errors(shape.field(shell_config(conf), "tools", []), "config.shell.tools"),
	name_list_errors(shape.field(shell_config(conf), "observe", []), "config.shell.observe"),
	default_action_errors(shape.field(shell_config(conf), "default_action", "exec")),
])

name_list_errors(value, location) := [] if {
	is_array(value)
	every v in value {
		is_string(v)
	}
} else := [shape.problem("invalid_list", sprintf("%s must be an array of strings", [location]), {"field": location})]

default_action_errors(value) := [] if {
	is_string(value)
} else := [shape.problem("invalid_config_value", "config.shell.default_action must be a string", {"field": "config.shell.default_action"})]
