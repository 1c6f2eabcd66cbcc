# The readings of a call that argument rules look at: its shell command
# and URL (the arguments the configuration's rule_arguments names), its
# paths and its arguments, each read exactly or unreadable, and how a
# reading is quoted in a message.
package tooleval.arguments

import data.tooleval.arguments.args
import data.tooleval.arguments.argv
import data.tooleval.arguments.path
import data.tooleval.arguments.shell
import data.tooleval.arguments.url
import data.tooleval.shape

# METADATA
# description: |
#   The readings of a call that argument rules look at, of the kinds
#   given (a set of "command", "url", "path", "args": those the request's
#   rules and the tool's required_readings look at; no other is read):
#   call_readings's command and URL (sources: the tool's entry of the
#   configuration's rule_arguments), path.reading's paths
#   (path_arguments: the tool's path arguments, workspace: the request's
#   compiled workspace, or null) and args.reading's arguments.
readings(sources, workspace, path_arguments, call, kinds) := read if {
	read := object.union(
		_command_and_url(sources, call, kinds),
		{kind: _reading(kind, workspace, path_arguments, call) | some kind in (kinds & {"path", "args"})},
	)

	# a reading that cannot be worked out leaves the readings undefined
	# (the call is then refused as undecided), never a kind missing
	every kind in kinds {
		read[kind]
	}
}

_command_and_url(sources, call, kinds) := {} if {
	count(kinds & {"command", "url"}) == 0
} else := object.filter(call_readings(sources, call), kinds)

_reading("path", workspace, path_arguments, call) := path.reading(workspace, path_arguments, call)

_reading("args", _, _, call) := args.reading(call)

# METADATA
# description: |
#   The kinds of reading the argument rules of layers (compiled) look at.
reading_kinds(layers) := {rule.reads |
	some c in layers
	some list in ["allow", "deny", "ask"]
	some rule in c.arguments[list]
} | {exception.reads |
	some c in layers
	some list in ["deny", "ask"]
	some rule in c.arguments[list]
	some exception in rule.unless.rules
}

# METADATA
# description: |
#   The readings of a call that argument rules look at, {command, url}:
#   shell.read_shell (argv.read_argv for an argv argument) and url.read_url of the
#   argument that sources ({command? or argv?, url?, inert?}: the tool's
#   entry of the configuration's rule_arguments, {} for a tool without
#   one) names. Unreadable when the tool has no such argument, when the
#   call does not carry it as the reader reads it (as the readers say), and when the call carries an argument that is neither
#   read nor inert (sources.inert: arguments that do not change what the
#   command runs or which host the URL reaches): a prefix rule over the
#   command's words cannot say what an environment, a host or an
#   elevation argument does to it.
call_readings(sources, call) := {
	"command": _command_reading(sources, call_args),
	"url": url.read_url(_argument(sources, "url", call_args)),
} if {
	call_args := shape.field(call, "args", {})
	is_object(call_args)
	not _other_argument(sources, call_args)
} else := {
	"command": _not_read(why),
	"url": _not_read(why),
} if {
	why := _other_argument_why(sources, shape.field(call, "args", {}))
}

# The argument of args that sources name for reads; null (unreadable)
# when there is none.
_argument(sources, reads, call_args) := shape.field(call_args, sources[reads], null) if {
	is_string(sources[reads])
} else := null

_other_argument(sources, call_args) if {
	some name, _ in call_args
	not _read_or_inert(sources, name)
}

# The command, read as a shell reads a string or, when sources names an
# argv argument instead, as exec reads an argument vector (the
# configuration's rule_arguments never names both).
_command_reading(sources, call_args) := argv.read_argv(_argument(sources, "argv", call_args)) if {
	is_string(sources.argv)
} else := shell.read_shell(_argument(sources, "command", call_args))

_read_or_inert(sources, name) if sources.inert[name]

_read_or_inert(sources, name) if {
	some reads in ["command", "argv", "url"]
	sources[reads] == name
}

_other_argument_why(sources, call_args) := "the call's arguments are not an object" if {
	not is_object(call_args)
} else := sprintf("the call carries argument %q, which can change what runs or where it connects", [name]) if {
	name := sort([n | some n, _ in call_args; not _read_or_inert(sources, n)])[0]
}

_not_read(why) := {"unreadable": why, "hosts": [], "numeric": false}

# METADATA
# description: |
#   How a reading (see readings) is quoted in a message: why it is
#   unreadable, or the command's parts (wrappers marked), the URL's host,
#   the paths or the arguments' canonical JSON.
reading_summary(reading) := sprintf("the argument is unreadable: %s", [reading.unreadable]) if {
	reading.unreadable
} else := sprintf("read as %s", [concat(" | ", [_part_summary(p) | some p in reading.parts])]) if {
	reading.parts
} else := sprintf("read as host %q", [reading.host]) if {
	reading.host
} else := sprintf("read as paths %s", [json.marshal(reading.paths)]) if {
	reading.paths
} else := sprintf("read as arguments %s", [reading.json])

_part_summary(part) := sprintf("%s (runs another command)", [json.marshal(part.words)]) if {
	part.wrapper
} else := json.marshal(part.words)
