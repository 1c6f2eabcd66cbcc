# The workspace a request's paths are checked against (input.workspace).
package tooleval.paths

import data.tooleval.shape

# METADATA
# title: workspace
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
	"read_roots": string_list(shape.field(w, "read_roots", [])),
	"allow_outside": shape.field(w, "allow_outside", false) == true,
	"excluded": [keys |
		some entry in string_list(shape.field(w, "excluded", []))
		keys := path_keys(join(root, entry))
	],
	"sensitive": [keys |
		some p in sensitive_paths
		is_string(p)
		keys := relative_keys(p)
	],
} if {
	w := shape.field(doc, "workspace", {})
	root := root_or_nowhere(shape.field(w, "root", null))
}

root_or_nowhere(root) := root if absolute_clean(root)

else := "/nonexistent"

string_list(x) := [s | some s in x; is_string(s)] if is_array(x)

else := []

# METADATA
# title: workspace_errors
# description: What is wrong with input.workspace.
workspace_errors(doc) := [] if {
	not shape.present(doc, "workspace")
} else := [shape.problem("invalid_workspace", "workspace must be an object", {"field": "workspace"})] if {
	not is_object(doc.workspace)
} else := [shape.problem("invalid_workspace", message, {"field": sprintf("workspace.%s", [member])}) |
	some [member, message] in workspace_problems(doc.workspace)
]

workspace_problems(w) := [[member, message] |
	some member, check in workspace_checks
	not valid_member(check, w, member)
	message := workspace_messages[check]
]

workspace_checks := {
	"root": "root",
	"read_roots": "absolute_list",
	"excluded": "relative_list",
	"allow_outside": "boolean",
}

workspace_messages := {
	"root": "must be an absolute, clean path whose segments have a canonical form",
	"absolute_list": "must be an array of absolute, clean paths",
	"relative_list": "must be an array of relative, clean paths",
	"boolean": "must be true or false",
}

valid_member("root", w, member) if {
	absolute_clean(w[member])
	path_keys(w[member])
}

valid_member("absolute_list", w, member) if {
	list := shape.field(w, member, [])
	is_array(list)
	every p in list {
		absolute_clean(p)
	}
}

valid_member("relative_list", w, member) if {
	list := shape.field(w, member, [])
	is_array(list)
	every p in list {
		relative_clean(p)
		relative_keys(p)
	}
}

valid_member("boolean", w, member) if is_boolean(shape.field(w, member, false))
