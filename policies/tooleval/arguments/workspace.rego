# The workspace a request's paths are checked against (input.workspace).
package tooleval.arguments

import data.tooleval.shape

# METADATA
# description: |
#   input.workspace compiled for the path rules, or null when it is absent
#   (no path rule applies): {root_prefix, read_prefixes, allow_outside,
#   excluded, sensitive}. root_prefix is what a path under root starts
#   with once a "/" is appended to it (see root_prefix), read_prefixes
#   those of root and each of read_roots. excluded and sensitive are keyed
#   forms (see keyed_path): excluded those of each root-relative excluded
#   entry joined to root, sensitive those of each of the sensitive paths
#   given (the configuration's, tooleval.configuration.sensitive_paths).
#   Malformed members are reported by workspace_errors and read as the
#   narrowest value.
workspace(doc, sensitive_paths) := null if {
	not shape.present(doc, "workspace")
} else := _compiled(_object_or_empty(doc.workspace), sensitive_paths)

_compiled(w, sensitive_paths) := {
	"root_prefix": _root_prefix(root),
	"read_prefixes": [_root_prefix(r) | some r in array.concat([root], _string_list(w, "read_roots"))],
	"allow_outside": object.get(w, "allow_outside", false) == true,
	"excluded": [keyed |
		some entry in _string_list(w, "excluded")
		keyed := _keyed_path(_join(root, entry))
	],
	"sensitive": [keyed |
		some p in sensitive_paths
		is_string(p)
		keyed := _keyed_relative(p)
	],
} if {
	root := _root_or_nowhere(object.get(w, "root", null))
}

_object_or_empty(x) := x if is_object(x)

else := {}

# The keyed form of a relative path (see keyed_path): that of the
# absolute path it names under / when it is plain, key by key otherwise.
_keyed_relative(p) := concat("", ["\u0000", replace(lower(p), "/", "\u0000"), "\u0000"]) if {
	regex.match(_plain_relative_regex, p)
} else := _keyed(_relative_keys(p))

_root_or_nowhere(root) := root if _absolute_clean(root)

else := "/nonexistent"

# The strings of the array w[key]; none when it is not an array.
_string_list(w, key) := [s | some s in w[key]; is_string(s)] if is_array(w[key])

else := []

# METADATA
# description: What is wrong with input.workspace.
workspace_errors(doc) := [] if {
	not shape.present(doc, "workspace")
} else := [shape.problem("invalid_workspace", "workspace must be an object", {"field": "workspace"})] if {
	not is_object(doc.workspace)
} else := [shape.problem("invalid_workspace", _workspace_messages[check], {"field": sprintf("workspace.%s", [member])}) |
	some member, value in object.union({"root": null}, doc.workspace)
	check := _workspace_checks[member]
	not _valid_member(check, value)
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

# A member's value is valid. Members are checked in name order, root
# whether present or not (null, for any other member, is absent).
_valid_member("root", root) if {
	_absolute_clean(root)
	_has_keys(root)
}

_valid_member("absolute_list", null)

_valid_member("absolute_list", list) if {
	is_array(list)
	every p in list {
		_absolute_clean(p)
	}
}

_valid_member("relative_list", null)

_valid_member("relative_list", list) if {
	is_array(list)
	every p in list {
		_relative_clean(p)
		_relative_keys(p)
	}
}

_valid_member("boolean", value) if is_boolean(value)

_valid_member("boolean", null)
