# METADATA
# title: Decision log masking
# description: |
#   An OPA server with decision logging on asks data.system.log.mask which
#   parts of each decision log event to leave out (JSON pointers into the
#   event's input and result; the event lists them under "erased"). The
#   mask is an allow-list: of the input, only the members named in kept
#   reach the log, and only with the type kept names; every other member,
#   whatever its shape, is erased (an object with a member whose name is
#   not a plain identifier is erased whole, so that no address or path
#   shows in the erased list). Nothing that identifies a person or a
#   file is kept by default: call arguments, caller.user, the requester
#   and handoff sessions and the workspace are not in kept. Of the result,
#   the members that echo a malformed input (a call id or name that is not
#   a string, an error entry that is not a scalar), the messages of
#   errors and warnings (they may quote any member of the input), the
#   message of a path refusal (it quotes the path), a configuration
#   error that names a user and the argument rules a conditional tool's
#   catalog entry quotes are erased, and the whole result of a query that is not one of
#   the entry points. The mask is total: for any event it yields pointers
#   that OPA and the engine can apply (only member names of plain
#   characters, never an array element, which OPA would shift), so no
#   event is ever dropped (docs/deploy.md).
package system.log

# METADATA
# description: |
#   The members of the input that reach the log, each with the JSON types
#   it is kept with (null is always kept). A path is the member names
#   from the input joined by /, with * for every element of an array. To
#   keep a category in the logs, add its path here.
kept := {
	"": {"object"},
	"/agent": {"object"},
	"/agent/name": {"string"},
	"/agent/role": {"string"},
	"/agent/depth": {"number"},
	"/agent/leaf": {"boolean"},
	"/declared": {"array"},
	"/declared/*": {"object"},
	"/declared/*/name": {"string"},
	"/declared/*/agent": {"boolean"},
	"/declared/*/mcp": {"object"},
	"/declared/*/mcp/server": {"string"},
	"/declared/*/mcp/tool": {"string"},
	"/layers": {"array"},
	"/layers/*": {"object"},
	"/layers/*/name": {"string"},
	"/layers/*/allow": {"array"},
	"/layers/*/allow/*": {"string"},
	"/layers/*/deny": {"array"},
	"/layers/*/deny/*": {"string"},
	"/layers/*/ask": {"array"},
	"/layers/*/ask/*": {"string"},
	"/layers/*/message": {"string"},
	"/layers/*/otherwise": {"string"},
	"/calls": {"array"},
	"/calls/*": {"object"},
	"/calls/*/id": {"string"},
	"/calls/*/name": {"string"},
	"/run": {"object"},
	"/run/attempts": {"number"},
	"/run/refusals": {"number"},
	"/run/max_attempts": {"number"},
	"/run/max_refusals": {"number"},
	"/tenant": {"string"},
	"/caller": {"object"},
	"/caller/scopes": {"array"},
	"/caller/scopes/*": {"string"},
	"/mcp_services": {"array"},
	"/mcp_services/*": {"string"},
	"/subagent_type": {"string"},
	"/fork_tools": {"array"},
	"/fork_tools/*": {"string"},
	"/teammate": {"string"},
}

# METADATA
# description: The entry points whose results are logged (masked); any other query's result is erased.
entry_points := {"tooleval/decision", "tooleval/explain", "tooleval/tools", "tooleval/launch", "tooleval/check"}

default _event := {}

_event := input if is_object(input)

_input := object.get(_event, "input", null)

_result := object.get(_event, "result", null)

# METADATA
# title: mask
# description: |
#   The whole input, when it is neither an object nor null, or has a
#   member whose name a pointer cannot carry.
mask contains "/input" if {
	_input != null
	not _kept_object(_input)
}

# METADATA
# description: |
#   Every member of a kept object that kept does not name, or names with
#   another type.
mask contains _pointer(array.concat(path, [name])) if {
	some [path, pattern] in _objects
	some name, value in object.get(_input, path, null)
	not _type_kept(concat("/", [pattern, name]), value)
}

# METADATA
# description: |
#   Every member of a kept object that is an object with a member whose
#   name a pointer cannot carry, or an array with an element kept does
#   not allow (an element is never erased alone: OPA would shift the
#   ones after it).
mask contains _pointer(array.concat(path, [name])) if {
	some [path, pattern] in _objects
	some name, value in object.get(_input, path, null)
	is_object(value)
	not _names_safe(value)
}

mask contains _pointer(array.concat(path, [name])) if {
	some [path, pattern] in _objects
	some name, value in object.get(_input, path, null)
	is_array(value)
	not _elements_kept(concat("/", [pattern, name, "*"]), value)
}

# METADATA
# description: The whole result of a query that is not an entry point (its shape is not known).
mask contains "/result" if {
	_result != null
	not object.get(_event, "path", null) in entry_points
}

# METADATA
# description: A decision's or a tool's id or name that is not a string (it echoes a malformed call or declaration).
mask contains sprintf("/result/%s/%d/%s", [list, i, member]) if {
	_known_result
	some list in ["decisions", "tools"]
	some i, entry in _array(object.get(_result, list, []))
	some member in ["id", "name"]
	value := object.get(entry, member, null)
	value != null
	not is_string(value)
}

# METADATA
# description: The name of a traced layer or stage that is not a string (it echoes a malformed layer).
mask contains sprintf("/result/decisions/%d/trace/%d/name", [i, j]) if {
	_known_result
	some i, decision in _array(object.get(_result, "decisions", []))
	is_object(decision)
	some j, step in _array(object.get(decision, "trace", []))
	is_object(step)
	not _scalar(object.get(step, "name", null))
}

# METADATA
# description: A member of an error or a warning that is not a scalar (it echoes a malformed entry).
mask contains sprintf("/result/%s/%d/%s", [list, i, member]) if {
	_known_result
	some list in ["errors", "warnings"]
	some i, entry in _array(object.get(_result, list, []))
	is_object(entry)
	_names_safe(entry)
	some member, value in entry
	not _scalar(value)
}

# METADATA
# description: |
#   The message of an error or a warning: free text that may quote what
#   the input sent, of any shape (code and field locate the problem).
mask contains sprintf("/result/%s/%d/message", [list, i]) if {
	_known_result
	some list in ["errors", "warnings"]
	some i, entry in _array(object.get(_result, list, []))
	is_object(entry)
	"message" in object.keys(entry)
}

# METADATA
# description: An error or a warning with a member whose name a pointer cannot carry, whole (the result then has null there).
mask contains sprintf("/result/%s", [list]) if {
	_known_result
	some list in ["errors", "warnings"]
	some entry in _array(object.get(_result, list, []))
	is_object(entry)
	not _names_safe(entry)
}

# METADATA
# description: |
#   The message of a decision by an argument rule (a refusal or an ask
#   with argument), which quotes how the command or URL was read; reason,
#   layer and argument stay.
mask contains sprintf("/result/decisions/%d/message", [i]) if {
	_known_result
	some i, decision in _array(object.get(_result, "decisions", []))
	is_object(decision)
	"argument" in object.keys(decision)
	"message" in object.keys(decision)
}

# METADATA
# description: |
#   What an explain step read from a call's arguments (reading,
#   readings: the command's words, the URL's hosts), and an argument
#   rule it quotes (entry, entries: objects, masked in the input's layers
#   too).
mask contains sprintf("/result/decisions/%d/trace/%d/%s", [i, j, member]) if {
	_known_result
	some i, decision in _array(object.get(_result, "decisions", []))
	is_object(decision)
	some j, step in _array(object.get(decision, "trace", []))
	is_object(step)
	some member in ["reading", "readings", "entry", "entries"]
	value := step[member]
	not _scalar(value)
	not _strings(value)
}

# METADATA
# description: |
#   The argument rules a conditional tool's catalog entry quotes (rules,
#   each rule an object, masked in the input's layers too); where each
#   is (layer, list, source) and what it reads stay.
mask contains sprintf("/result/tools/%d/rules/%d/rule", [i, k]) if {
	_known_result
	some i, tool in _array(object.get(_result, "tools", []))
	is_object(tool)
	some k, rule in _array(object.get(tool, "rules", []))
	is_object(rule)
	"rule" in object.keys(rule)
	not _scalar(rule.rule)
}

# METADATA
# description: The message of a path refusal, which quotes the path; reason, layer and rule stay.
mask contains sprintf("/result/decisions/%d/message", [i]) if {
	_known_result
	some i, decision in _array(object.get(_result, "decisions", []))
	is_object(decision)
	"rule" in object.keys(decision)
	"message" in object.keys(decision)
}

# METADATA
# description: A configuration error located by a user name (config.mcp_user_services.<user>).
mask contains sprintf("/result/errors/%d/field", [i]) if {
	_known_result
	some i, problem in _array(object.get(_result, "errors", []))
	is_object(problem)
	startswith(problem.field, "config.mcp_user_services.")
}

_known_result if {
	is_object(_result)
	object.get(_event, "path", null) in entry_points
}

_array(x) := x if is_array(x)

else := []

_scalar(x) if is_string(x)

_scalar(x) if is_number(x)

_scalar(x) if is_boolean(x)

_scalar(null)

_strings(x) if {
	is_array(x)
	every s in x {
		is_string(s)
	}
}

# The kept objects of the input, as [path, pattern]: path is where the
# object is (member names and array indices), pattern its path in kept.
# The objects of kept are at most three members deep, so three steps
# from the input find them all (test_kept_objects_are_reached).
_objects := ((_objects_0 | _objects_1) | _objects_2) | _objects_3

_objects_0 contains [[], ""] if _kept("", _input)

_objects_1 := _step(_objects_0)

_objects_2 := _step(_objects_1)

_objects_3 := _step(_objects_2)

# The kept objects right under the kept objects parents: their members
# that are kept objects, and the objects in their members that are kept
# arrays. (Only builtins per member, so that a catalog of thousands of
# tools is masked in about the time its decision takes.)
_step(parents) := {[array.concat(path, [name]), p] |
	some [path, pattern] in parents
	some name, value in object.get(_input, path, null)
	is_object(value)
	p := concat("/", [pattern, name])
	"object" in object.get(kept, p, set())
	_names_safe(value)
} | {[array.concat(path, [name, i]), concat("/", [p, "*"])] |
	some [path, pattern] in parents
	some name, value in object.get(_input, path, null)
	is_array(value)
	p := concat("/", [pattern, name])
	"array" in object.get(kept, p, set())
	_elements_kept(concat("/", [p, "*"]), value)
	some i, element in value
	is_object(element)
}

# The value's type is one kept names at path (null is kept at every
# path kept names).
_type_kept(path, value) if type_name(value) in kept[path]

_type_kept(path, null) if kept[path]

_pointer(path) := concat("/", array.concat(["/input"], [_token(s) | some s in path]))

_token(s) := format_int(s, 10) if is_number(s)

else := s

# A value is kept at pattern when kept names pattern with the value's
# type (null is always kept); an object only when every member name is
# one a pointer can carry, an array only when every element is kept at
# pattern/* (so that no element is ever erased alone).
_kept(pattern, null) if kept[pattern]

_kept(pattern, value) if {
	not is_object(value)
	not is_array(value)
	type_name(value) in kept[pattern]
}

_kept(pattern, value) if {
	is_object(value)
	_kept_object_at(pattern, value)
}

_kept(pattern, value) if {
	is_array(value)
	_kept_array_at(pattern, value)
}

_kept_object_at(pattern, value) if {
	"object" in kept[pattern]
	_names_safe(value)
}

_kept_array_at(pattern, value) if {
	"array" in kept[pattern]
	_elements_kept(concat("/", [pattern, "*"]), value)
}

# The input document is kept (its members are then looked at).
_kept_object(value) if _kept("", value)

# Every member name of the object value is one a pointer can carry: the
# names joined are letters, digits and _ only, and none is empty. (Such
# a name shows in the event's erased list, so it is never an address or
# a path; OPA's mask, which URL-escapes each pointer segment, and a JSON
# pointer read it alike.)
_names_safe(value) if {
	names := object.keys(value)
	not "" in names
	regex.match(`^[A-Za-z0-9_]*$`, concat("", names))
}

# Every element of the array value has a type kept names at element (or
# is null), and the objects among them have only member names a pointer
# can carry (all their names at once, as in _names_safe).
_elements_kept(element, value) if {
	types := {type_name(e) | some e in value} - {"null"}
	count(types - object.get(kept, element, set())) == 0
	names := [name | some e in value; is_object(e); some name, _ in e]
	not "" in names
	regex.match(`^[A-Za-z0-9_]*$`, concat("", names))
}
