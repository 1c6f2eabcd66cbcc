package tooleval.arguments_test

import data.tooleval.arguments

# A shell tool's entry of rule_arguments: its command argument, and the
# arguments that do not change what the command runs.
shell_sources := {"command": "command", "inert": {"description": true, "timeout": true}}

# Whether a call's command and URL readings are readable (no
# "unreadable" member), and why not when they are not: an argument that
# is neither read nor inert makes both unreadable (a prefix rule cannot
# say what an environment or elevation argument does to the command).
test_call_readings if {
	env_why := "the call carries argument \"env\", which can change what runs or where it connects"
	every tc in [
		{"call": {"args": {"command": "ls -la"}}, "command": true},
		{"call": {"args": {"command": "ls -la", "description": "list", "timeout": 5}}, "command": true},
		{"call": {"args": {"command": "ls", "env": {"PATH": "/tmp"}}}, "command": false, "why": env_why},
		{"call": {"args": {"command": "ls", "sudo": true, "env": {}}}, "command": false, "why": env_why},
		{"call": {"args": "ls"}, "command": false, "why": "the call's arguments are not an object"},
		{"call": {"args": {}}, "command": false},
		{"call": {}, "command": false},
	] {
		r := arguments.call_readings(shell_sources, tc.call)
		_readable(r.command) == tc.command
		not _readable(r.url) # the tool has no URL argument
		_why_holds(tc, r.command)
	}
}

_why_holds(tc, _) if not "why" in object.keys(tc)

_why_holds(tc, reading) if reading.unreadable == tc.why

_readable(reading) if not "unreadable" in object.keys(reading)

else := false

# The readings of the kinds asked for, and only those; a kind that
# cannot be worked out leaves them undefined, never a kind missing.
test_readings_of_the_kinds_asked if {
	call := {"args": {"command": "ls"}}
	object.keys(arguments.readings(shell_sources, null, {}, call, {"command"})) == {"command"}
	object.keys(arguments.readings(shell_sources, null, {}, call, {"command", "url", "args"})) == {"command", "url", "args"}
	arguments.readings(shell_sources, null, {}, call, set()) == {}
}
