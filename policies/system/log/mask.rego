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
#   message of a path refusal (it quotes the path) and a configuration
#   error that names a user are erased, and the whole result of a query that is not one of
#   the entry points. The mask is total: for any event it yields pointers
#   that OPA and the engine can apply (only member names of plain
#   characters, never an array element, which OPA would shift), so no
#   event is ever dropped (docs/deploy.md).
package system.log

# METADATA
# description: |
#   The members of the input that reach the log, each with the JSON types
#   it is kept with (null is always kept). A path is the list of member
#   names from the input; 0 stands for every element of an array. To keep
#   a category in the logs, add its path here.
kept := {
	[]: {"object"},
	["agent"]: {"object"},
	["agent", "name"]: {"string"},
	["agent", "role"]: {"string"},
	["agent", "depth"]: {"number"},
	["agent", "leaf"]: {"boolean"},
	["declared"]: {"array"},
	["declared", 0]: {"object"},
	["declared", 0, "name"]: {"string"},
	["declared", 0, "agent"]: {"boolean"},
	["declared", 0, "mcp"]: {"object"},
	["declared", 0, "mcp", "server"]: {"string"},
	["declared", 0, "mcp", "tool"]: {"string"},
	["layers"]: {"array"},
	["layers", 0]: {"object"},
	["layers", 0, "name"]: {"string"},
	["layers", 0, "allow"]: {"array"},
	["layers", 0, "allow", 0]: {"string"},
	["layers", 0, "deny"]: {"array"},
	["layers", 0, "deny", 0]: {"string"},
	["layers", 0, "message"]: {"string"},
	["calls"]: {"array"},
	["calls", 0]: {"object"},
	["calls", 0, "id"]: {"string"},
	["calls", 0, "name"]: {"string"},
	["run"]: {"object"},
	["run", "attempts"]: {"number"},
	["run", "refusals"]: {"number"},
	["run", "max_attempts"]: {"number"},
	["run", "max_refusals"]: {"number"},
	["tenant"]: {"string"},
	["caller"]: {"object"},
	["caller", "scopes"]: {"array"},
	["caller", "scopes", 0]: {"string"},
	["mcp_services"]: {"array"},
	["mcp_services", 0]: {"string"},
	["subagent_type"]: {"string"},
	["fork_tools"]: {"array"},
	["fork_tools", 0]: {"string"},
	["teammate"]: {"string"},
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
	not _kept_node([], _input)
}

# METADATA
# description: Every member of a kept object that kept does not name, or names with another type.
mask contains _pointer("/input", path) if {
	some [path, value] in _nodes
	not _kept_node(_pattern(path), value)
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
	some member, value in entry
	_safe_name(member)
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
	some member, _ in entry
	not _safe_name(member)
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

# The nodes of the input under kept containers, as [path, value]: the
# kept paths are at most four members deep, and nothing below a member
# that is not kept is looked at.
_nodes := ((_nodes_1 | _nodes_2) | _nodes_3) | _nodes_4

_nodes_1 contains [[name], value] if {
	_kept_node([], _input)
	some name, value in _input
}

_nodes_2 contains node if {
	some parent in _nodes_1
	some node in _children(parent)
}

_nodes_3 contains node if {
	some parent in _nodes_2
	some node in _children(parent)
}

_nodes_4 contains node if {
	some parent in _nodes_3
	some node in _children(parent)
}

_children([path, value]) := {[array.concat(path, [name]), child] |
	_kept_node(_pattern(path), value)
	some name, child in value
}

# A path with every array index replaced by 0, as in kept.
_pattern(path) := [_segment(s) | some s in path]

_segment(s) := 0 if is_number(s)

else := s

_pointer(root, path) := concat("/", array.concat([root], [_token(s) | some s in path]))

_token(s) := format_int(s, 10) if is_number(s)

else := s

# A node is kept when kept names its path with its type (or it is null),
# every member name of an object is one a pointer can carry, and every
# element of an array is kept as an element: an element is never erased
# alone (OPA would shift the elements after it), so an array with an
# element of another type is erased whole.
_kept_node(pattern, null) if pattern in object.keys(kept)

_kept_node(pattern, value) if {
	type_name(value) in kept[pattern]
	_names_safe(value)
	_elements_kept(pattern, value)
}

_names_safe(value) if not is_object(value)

_names_safe(value) if {
	is_object(value)
	every name, _ in value {
		_safe_name(name)
	}
}

_elements_kept(_, value) if not is_array(value)

_elements_kept(pattern, value) if {
	is_array(value)
	element := array.concat(pattern, [0])
	every e in value {
		_element_kept(element, e)
	}
}

_element_kept(pattern, null) if pattern in object.keys(kept)

_element_kept(pattern, e) if {
	type_name(e) in kept[pattern]
	_names_safe(e)
}

# A member name that may be named in a pointer: letters, digits and _.
# OPA's mask (which URL-escapes each pointer segment) and a JSON pointer
# read it alike, and it shows in the event's erased list, so it is never
# an address or a path.
_safe_name(name) if {
	is_string(name)
	regex.match(`^[A-Za-z0-9_]+$`, name)
}
