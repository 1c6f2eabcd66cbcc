# The workspace a request's paths are checked against (input.workspace).
package tooleval.arguments.paths

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
	"sensitive": _keyed_relatives(sensitive_paths),
} if {
	root := _root_or_nowhere(object.get(w, "root", null))
}

_object_or_empty(x) := x if is_object(x)

else := {}

# METADATA
# description: |
#   The keyed forms (see keyed_path) of the strings of a list of relative
#   paths. When they are all plain (the shipped sensitive paths are), all
#   at once: joined by "/", U+0080, "/" and wrapped in "/", lower-cased
#   with NUL for "/", and split at U+0080. There are as many pieces as
#   paths exactly when no path has a U+0080; then the paths are all plain
#   exactly when "/" and the paths joined by "/" is a plain path (no path
#   is empty or has an empty segment), and each piece is its path's keyed
#   form. Path by path otherwise.
_keyed_relatives(paths) := keyed if {
	joined := concat("/\u0080/", paths)
	_plain_path(concat("", ["/", replace(joined, "/\u0080/", "/")]))
	keyed := split(replace(lower(concat("", ["/", joined, "/"])), "/", "\u0000"), "\u0080")
	count(keyed) == count(paths)
} else := [keyed |
	some p in paths
	is_string(p)
	keyed := _keyed_relative(p)
]

# The keyed form of a relative path: that of the absolute path it names
# under / when that is plain (it then has no empty segment, and the same
# keys), built key by key otherwise.
_keyed_relative(p) := _keyed_path(absolute) if {
	absolute := concat("", ["/", p])
	_plain_path(absolute)
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
# whether present or not; any other member that is null is absent.
_valid_member("root", value) if {
	_absolute_clean(value)
	_has_keys(value)
}

_valid_member("absolute_list", value) if {
	is_array(value)
	every p in value {
		_absolute_clean(p)
	}
}

_valid_member("relative_list", value) if {
	is_array(value)
	every p in value {
		_relative_clean(p)
		_relative_keys(p)
	}
}

_valid_member("boolean", value) if is_boolean(value)

_valid_member(check, value) if {
	value == null
	check != "root"
}
