# METADATA
# title: Read-only mode and shell actions
# description: |
#   The read_only stage and the action policy of shell calls, documented
#   in docs/configuration.md, "Read-only mode and shell actions
#   (`read_only`, `shell`)". A preset's read_only and shell are merged in
#   as "Runtime presets (`preset`)" there says; docs/presets.md gives them
#   per runtime ("Groups, profiles, filters" for claude_code, "Not modeled
#   (stricter)" for qwen_code, "Shell actions" for openclaw).
#
#   An agent runs in read-only mode (read_only of tooleval.subject.of)
#   when input.agent.read_only is true or its definition says read_only.
#   Then only the tools of config.read_only.allow are allowed (stage read_only: the read bucket
#   and the shell tools), and a call of a shell tool (config.shell.tools)
#   only when its action observes:
#
#     action (args.action)                 | kind
#     status, logs, list (config.shell.observe) | observes
#     exec, start, write, stop, anything else   | changes state
#
#   A call without an action runs config.shell.default_action (exec).
package tooleval.stages.read_only

import data.tooleval.canonical.canonical_or_null
import data.tooleval.configuration
import data.tooleval.configuration.lists
import data.tooleval.configuration.tables
import data.tooleval.configuration.validate
import data.tooleval.pattern
import data.tooleval.shape

_read_only_config(conf) := shape.field(conf, "read_only", {})

_shell_config(conf) := shape.field(conf, "shell", {})

_read_only_stage(s, conf) := [{
	"name": "read_only",
	"allow": shape.field(_read_only_config(conf), "allow", []),
	"deny": [],
}] if {
	s.read_only
} else := []

# METADATA
# description: |
#   What deciding a call's action needs, or null when no call's action is
#   checked: {tools, observe, arguments, default_action}, where tools are
#   the canonical names of the shell tools and arguments the argument
#   names an observing call may carry.
action_policy(s, conf) := {
	"tools": {name: true |
		some t in shape.field(_shell_config(conf), "tools", [])
		c := canonical_or_null(t)
		c != null
		some name, _ in configuration.alias_names(conf, c)
	},
	"observe": {a: true | some a in shape.field(_shell_config(conf), "observe", []); is_string(a)},
	"arguments": {a: true | some a in shape.field(_shell_config(conf), "observe_arguments", ["action"]); is_string(a)},
	"default_action": shape.field(_shell_config(conf), "default_action", "exec"),
} if {
	s.read_only
} else := null

_read_only_request_errors(s, conf) := _read_only_config_errors(conf) if {
	s.read_only
} else := []

_read_only_config_errors(conf) := array.flatten([
	validate.object_errors(validate.value_at(conf, "read_only"), "config.read_only", true),
	lists.entries_errors(shape.field(_read_only_config(conf), "allow", []), "allow", "config.read_only.allow", conf, false),
	validate.unknown_member_errors(validate.value_at(conf, "read_only"), {"allow"}, "config.read_only"),
	validate.object_errors(validate.value_at(conf, "shell"), "config.shell", false),
	validate.unknown_member_errors(validate.value_at(conf, "shell"), {"tools", "default_action", "observe", "observe_arguments"}, "config.shell"),
	_shell_tool_errors(validate.value_at(_shell_config(conf), "tools")),
	_name_list_errors(shape.field(_shell_config(conf), "observe", []), "config.shell.observe"),
	_name_list_errors(shape.field(_shell_config(conf), "observe_arguments", ["action"]), "config.shell.observe_arguments"),
	_default_action_errors(shape.field(_shell_config(conf), "default_action", "exec")),
])

# The shell tools are tool names, never patterns: a wildcard or group
# here would name no tool and turn the action check off.
_shell_tool_errors(tools) := [shape.problem("invalid_list", "config.shell.tools must be an array of tool names", {"field": "config.shell.tools"})] if {
	not is_array(tools)
} else := [shape.problem(
	"invalid_shell_tool",
	"a shell tool is a tool name, not a pattern or group",
	{"field": "config.shell.tools", "index": i, "entry": t},
) |
	some i, t in tools
	not _shell_tool_name(t)
]

_shell_tool_name(t) if {
	pattern.exact(t)
	not canonical_or_null(t) in {null, ""}
}

_name_list_errors(value, location) := [] if {
	is_array(value)
	every v in value {
		is_string(v)
	}
} else := [shape.problem("invalid_list", sprintf("%s must be an array of strings", [location]), {"field": location})]

_default_action_errors(value) := [] if {
	is_string(value)
} else := [shape.problem("invalid_config_value", "config.shell.default_action must be a string", {"field": "config.shell.default_action"})]

# METADATA
# description: The read-only stage, when the agent runs in read-only mode.
layers(_, s, conf) := _read_only_stage(s, conf)

# METADATA
# description: The errors in the read-only configuration, when the agent runs in read-only mode.
request_errors(_, s, conf) := _read_only_request_errors(s, conf)

# METADATA
# description: Every error in config.read_only and config.shell.
config_errors(conf) := _read_only_config_errors(conf)

# METADATA
# description: Where the entries of the read_only stage come from, one source per entry (see tooleval.tracing).
sources(_, _, conf) := {"read_only": {"allow": tables.indexed_sources("config.read_only.allow", shape.field(_read_only_config(conf), "allow", []))}}
