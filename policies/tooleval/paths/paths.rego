# METADATA
# title: Path rules
# description: |
#   When input.workspace is present, the path arguments named by
#   data.tooleval.config.path_arguments are checked. The policy sees paths
#   the host resolved: absolute, clean (no empty, . or .. segment, no
#   trailing /), symlinks followed. Anything else is refused with rule
#   unresolved.
#
#   - Written paths lie inside root unless allow_outside is true
#     (outside_workspace); have no segment .ssh or .aws and do not lie
#     under .git/hooks (sensitive); and do not lie under a root-relative
#     excluded entry (excluded).
#   - Read paths lie inside root or one of read_roots (not_readable).
#
#   "Inside" respects segment boundaries (/wsx is not inside /ws). The
#   sensitive and excluded checks ignore case, so a case-insensitive file
#   system cannot be used to slip past them.
package tooleval.paths

# METADATA
# title: refusal
# description: |
#   The first path refusal of a call, as {rule, argument, path}, or
#   undefined. arguments maps each path argument of the tool to "read"
#   or "write"; they are checked in argument-name order.
refusal(workspace, arguments, args) := refusals[0] if {
	refusals := [r |
		some name in sort(object.keys(arguments))
		r := argument_refusal(workspace, name, arguments[name], args)
	]
	count(refusals) > 0
}

argument_refusal(workspace, name, access, args) := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_object(args)
} else := {"rule": rule, "argument": name, "path": path} if {
	path := args[name]
	path != null
	rule := path_rule(workspace, access, path)
}

path_rule(workspace, access, path) := "unresolved" if {
	not absolute_clean(path)
} else := "outside_workspace" if {
	access == "write"
	workspace.allow_outside != true
	not inside(path, workspace.root)
} else := "sensitive" if {
	access == "write"
	sensitive(path)
} else := "excluded" if {
	access == "write"
	some entry in workspace.excluded
	inside(lower(path), lower(join(workspace.root, entry)))
} else := "not_readable" if {
	access == "read"
	not readable(workspace, path)
}

# METADATA
# title: absolute_clean
# scope: document
# description: p is an absolute path with no empty, . or .. segment, no trailing / and no NUL.
absolute_clean("/") := true

absolute_clean(p) if {
	is_string(p)
	startswith(p, "/")
	every segment in array.slice(split(p, "/"), 1, count(p)) {
		clean_segment(segment)
	}
}

# METADATA
# title: relative_clean
# description: p is a non-empty relative path with no empty, . or .. segment.
relative_clean(p) if {
	is_string(p)
	not startswith(p, "/")
	every segment in split(p, "/") {
		clean_segment(segment)
	}
}

clean_segment(segment) if {
	not segment in {"", ".", ".."}
	not contains(segment, "\u0000")
}

# METADATA
# title: inside
# scope: document
# description: path is root or lies below it, on a segment boundary.
inside(path, root) if path == root

inside(path, root) if {
	root == "/"
	startswith(path, "/")
}

inside(path, root) if startswith(path, concat("", [root, "/"]))

join("/", relative) := concat("", ["/", relative])

join(root, relative) := concat("/", [root, relative]) if root != "/"

# METADATA
# title: sensitive
# scope: document
# description: A segment is .ssh or .aws, or the path lies under .git/hooks.
sensitive(path) if {
	some segment in split(lower(path), "/")
	segment in {".ssh", ".aws"}
}

sensitive(path) if {
	segments := split(lower(path), "/")
	some i, segment in segments
	segment == ".git"
	segments[i + 1] == "hooks"
}

readable(workspace, path) if inside(path, workspace.root)

readable(workspace, path) if {
	some root in workspace.read_roots
	inside(path, root)
}
