# The workspace a request's paths are checked against (input.workspace).
package tooleval.arguments

import data.tooleval.shape

# METADATA
# description: |
#   input.workspace as {root, read_roots, allow_outside, excluded,
#   sensitive}, or null when it is absent (no path rule applies).
#   excluded and sensitive are runs of segment keys (see segment_key):
#   excluded those of each root-relative excluded entry joined to root,
#   sensitive those of each of the sensitive paths given (the
#   configuration's, tooleval.configuration.sensitive_paths). Malformed
#   members are reported by workspace_errors and read as the narrowest
#   value.
workspace(doc, sensitive_paths) := null if {
	not shape.present(doc, "workspace")
} else := {
	"root": root,
	"read_roots": _string_list(shape.field(w, "read_roots", [])),
	"allow_outside": shape.field(w, "allow_outside", false) == true,
	"excluded": [keys |
		some entry in _string_list(shape.field(w, "excluded", []))
		keys := _path_keys(_join(root, entry))
	],
	"sensitive": [keys |
		some p in sensitive_paths
		is_string(p)
		keys := _relative_keys(p)
	],
} if {
	w := shape.field(doc, "workspace", {})
	root := _root_or_nowhere(shape.field(w, "root", null))
}

_root_or_nowhere(root) := root if _absolute_clean(root)

else := "/nonexistent"

_string_list(x) := [s | some s in x; is_string(s)] if is_array(x)

else := []

# METADATA
# description: What is wrong with input.workspace.
workspace_errors(doc) := [] if {
	not shape.present(doc, "workspace")
} else := [shape.problem("invalid_workspace", "workspace must be an object", {"field": "workspace"})] if {
	not is_object(doc.workspace)
} else := [shape.problem("invalid_workspace", message, {"field": sprintf("workspace.%s", [member])}) |
	some [member, message] in _workspace_problems(doc.workspace)
]

_workspace_problems(w) := [[member, message] |
	some member, check in _workspace_checks
	not _valid_member(check, w, member)
	message := _workspace_messages[check]
]

_workspace_checks := {
	"root": "root",
	"read_roots": "absolute_list",
	"excluded": "relative_list",
	"allow_outside": "boolean",
}

_workspace_messages := {
	"root": "must be an absolute, clean path whose segments have a canonical form",
	"absolute_list": "must be an array of absolute, clean paths",
	"relative_list": "must be an array of relative, clean paths",
	"boolean": "must be true or false",
}

_valid_member("root", w, member) if {
	_absolute_clean(w[member])
	_path_keys(w[member])
}

_valid_member("absolute_list", w, member) if {
	list := shape.field(w, member, [])
	is_array(list)
	every p in list {
		_absolute_clean(p)
	}
}

_valid_member("relative_list", w, member) if {
	list := shape.field(w, member, [])
	is_array(list)
	every p in list {
		_relative_clean(p)
		_relative_keys(p)
	}
}

_valid_member("boolean", w, member) if is_boolean(shape.field(w, member, false))
