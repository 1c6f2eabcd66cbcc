# The workspace a request's paths are checked against (input.workspace),
# and the path arguments of the configuration.
package tooleval.paths

import data.tooleval.canonical.canonical
import data.tooleval.shape

# METADATA
# title: workspace
# description: |
#   input.workspace as {root, read_roots, excluded, allow_outside}, or null
#   when it is absent (no path rule applies). Malformed members are
#   reported by workspace_errors and read as the narrowest value.
workspace(doc) := null if {
	not shape.present(doc, "workspace")
} else := {
	"root": shape.field(w, "root", "/nonexistent"),
	"read_roots": string_list(shape.field(w, "read_roots", [])),
	"excluded": string_list(shape.field(w, "excluded", [])),
	"allow_outside": shape.field(w, "allow_outside", false) == true,
} if {
	w := shape.field(doc, "workspace", {})
}

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
	"root": "absolute",
	"read_roots": "absolute_list",
	"excluded": "relative_list",
	"allow_outside": "boolean",
}

workspace_messages := {
	"absolute": "must be an absolute, clean path",
	"absolute_list": "must be an array of absolute, clean paths",
	"relative_list": "must be an array of relative, clean paths",
	"boolean": "must be true or false",
}

valid_member("absolute", w, member) if absolute_clean(w[member])

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
	}
}

valid_member("boolean", w, member) if is_boolean(shape.field(w, member, false))

# METADATA
# title: config_errors
# description: Errors in data.tooleval.config.path_arguments.
config_errors(config) := [] if {
	not shape.present(config, "path_arguments")
} else := [shape.problem("invalid_config_value", "config.path_arguments must be an object", {"field": "config.path_arguments"})] if {
	not is_object(config.path_arguments)
} else := [shape.problem("invalid_config_value", message, {"field": "config.path_arguments", "tool": name}) |
	some name, spec in config.path_arguments
	some message in tool_problems(name, spec)
]

tool_problems(name, spec) := ["a tool name must be its own canonical form, or no call can reach it"] if {
	canonical(name) != name
} else := ["a tool's path arguments must be an object of \"read\" or \"write\""] if {
	not valid_spec(spec)
} else := []

valid_spec(spec) if {
	is_object(spec)
	every access in spec {
		access in {"read", "write"}
	}
}
