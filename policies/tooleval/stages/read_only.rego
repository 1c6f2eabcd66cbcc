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
import data.tooleval.configuration
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
#   checked: {tools, observe, arguments, default_action}, where tools are
#   the canonical names of the shell tools and arguments the argument
#   names an observing call may carry.
action_policy(s, conf) := {
	"tools": {name |
		some t in shape.field(shell_config(conf), "tools", [])
		c := canonical_or_null(t)
		c != null
		some name in configuration.alias_names(conf, c)
	},
	"observe": {a | some a in shape.field(shell_config(conf), "observe", []); is_string(a)},
	"arguments": {a | some a in shape.field(shell_config(conf), "observe_arguments", ["action"]); is_string(a)},
	"default_action": shape.field(shell_config(conf), "default_action", "exec"),
} if {
	s.read_only
} else := null

# METADATA
# title: action_refusal
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
	args := shape.field(call, "args", {})
	refusal := action_problem(policy, shape.field(args, "action", policy.default_action), args)
}

action_problem(policy, action, args) := {"layer": "read_only", "action": action} if {
	not policy.observe[action]
} else := {"layer": "read_only", "action": action, "argument": sort(extra)[0]} if {
	extra := [name | some name, _ in object_or_empty(args); not policy.arguments[name]]
	count(extra) > 0
}

read_only_request_errors(s, conf) := read_only_config_errors(conf) if {
	s.read_only
} else := []

read_only_config_errors(conf) := array.flatten([
	object_errors(value_at(conf, "read_only"), "config.read_only", true),
	entries_errors(shape.field(read_only_config(conf), "allow", []), "allow", "config.read_only.allow", conf, false),
	unknown_member_errors(value_at(conf, "read_only"), {"allow"}, "config.read_only"),
	object_errors(value_at(conf, "shell"), "config.shell", false),
	unknown_member_errors(value_at(conf, "shell"), {"tools", "default_action", "observe", "observe_arguments"}, "config.shell"),
	shell_tool_errors(value_at(shell_config(conf), "tools")),
	name_list_errors(shape.field(shell_config(conf), "observe", []), "config.shell.observe"),
	name_list_errors(shape.field(shell_config(conf), "observe_arguments", ["action"]), "config.shell.observe_arguments"),
	default_action_errors(shape.field(shell_config(conf), "default_action", "exec")),
])

# The shell tools are tool names, never patterns: a wildcard or group
# here would name no tool and turn the action check off.
shell_tool_errors(tools) := [shape.problem("invalid_list", "config.shell.tools must be an array of tool names", {"field": "config.shell.tools"})] if {
	not is_array(tools)
} else := [shape.problem(
	"invalid_shell_tool",
	"a shell tool is a tool name, not a pattern or group",
	{"field": "config.shell.tools", "index": i, "entry": t},
) |
	some i, t in tools
	not shell_tool_name(t)
]

shell_tool_name(t) if {
	is_string(t)
	c := canonical_or_null(t)
	not c in {null, ""}
	not contains(c, "*")
	not startswith(c, "group:")
}

name_list_errors(value, location) := [] if {
	is_array(value)
	every v in value {
		is_string(v)
	}
} else := [shape.problem("invalid_list", sprintf("%s must be an array of strings", [location]), {"field": location})]

default_action_errors(value) := [] if {
	is_string(value)
} else := [shape.problem("invalid_config_value", "config.shell.default_action must be a string", {"field": "config.shell.default_action"})]
