# METADATA
# title: Path rules
# description: |
#   When input.workspace is present, the path arguments named by the
#   configuration (tooleval.configuration.path_arguments) are checked.
#   The policy sees paths the host resolved: absolute, clean (no empty,
#   . or .. segment, no trailing /), symlinks followed. Anything else is
#   refused with rule unresolved, and so is a path argument that is
#   present but not a string (null, a number, an object). A list of paths
#   is checked element by element. ~ and $VAR are never expanded: such a
#   path is not absolute, so it is unresolved. A path that is not in
#   Unicode normalization form C is unresolved too: a server that matches
#   names under normalization (the MCP filesystem server compares NFC
#   forms) would open another file than the one the policy judged (U+212A
#   KELVIN SIGN is K under NFC).
#
#   - Written paths lie inside root unless allow_outside is true
#     (outside_workspace); have no run of segments that is a sensitive
#     path (.ssh, .aws, .git/hooks and the configuration's additions)
#     (sensitive); and do not lie under a root-relative excluded entry
#     (excluded).
#   - Read paths lie inside root or one of read_roots (not_readable).
#
#   "Inside" respects segment boundaries (/wsx is not inside /ws). The
#   sensitive and excluded checks compare segments by their key (see
#   segment_key), so a case-insensitive file system cannot be used to slip
#   past them.
package tooleval.arguments

import data.tooleval.canonical.canonical
import data.tooleval.canonical.nfc

# METADATA
# description: |
#   The first path refusal of a call, as {rule, argument, path}, or
#   undefined. arguments maps each path argument of the tool to its set of
#   accesses ("read", "write"); they are checked in argument-name order.
refusal(workspace, arguments, args) := refusals[0] if {
	refusals := [r |
		some name in sort(object.keys(arguments))
		r := _argument_refusal(workspace, name, arguments[name], args)
	]
	count(refusals) > 0
}

_argument_refusal(workspace, name, accesses, args) := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_object(args)
} else := _value_refusal(workspace, name, accesses, args[name])

# Patch text names the files it writes in its headers; a string is one
# path; a list is checked element by element; anything else that is
# present (null included) cannot be a path.
_value_refusal(workspace, name, accesses, value) := _patch_refusal(workspace, name, value) if {
	accesses.patch
} else := _glob_value_refusal(workspace, name, value) if {
	not accesses.patch
	accesses.glob
} else := _path_value_refusal(workspace, name, accesses, value) if {
	not accesses.patch
	not accesses.glob
}

# A glob pattern, or a list of them, each checked (glob_rule); anything
# else that is present cannot be a pattern. The refusal says pattern, for
# its message.
_glob_value_refusal(workspace, name, value) := {"rule": rule, "argument": name, "path": value, "pattern": true} if {
	is_string(value)
	rule := glob_rule(workspace, value)
} else := refusals[0] if {
	is_array(value)
	refusals := [r |
		some element in value
		r := _glob_element_refusal(workspace, name, element)
	]
	count(refusals) > 0
} else := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_string(value)
	not is_array(value)
}

_glob_element_refusal(workspace, name, element) := {"rule": rule, "argument": name, "path": element, "pattern": true} if {
	is_string(element)
	rule := glob_rule(workspace, element)
} else := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_string(element)
}

# METADATA
# description: |
#   The refusal rule of a glob pattern of files read, or undefined when it
#   is allowed. A pattern cannot be resolved on the host (it names many
#   files, some not there yet), so it is judged as written, strictly: it
#   is unresolved when it could name a file outside the directory it is
#   taken in (any "..", braces, a backslash escape, a bracket expression
#   other than letters, digits and _ (one that could match "."), a NUL),
#   starts with ~ or $, is empty, or is not in NFC; an absolute pattern is
#   not_readable unless its literal directories (the segments before the
#   first with *, ? or [) lie inside the root or a read root. A relative
#   pattern is taken in the tool's own directory argument, which is
#   checked as a path.
glob_rule(workspace, pattern) := "unresolved" if {
	not _safe_glob(pattern)
} else := "not_readable" if {
	startswith(pattern, "/")
	not _readable(workspace, _glob_root(pattern))
}

_safe_glob(pattern) if {
	is_string(pattern)
	pattern != ""
	not regex.match(`\.\.|[{}\\\x00]|^[~$]`, pattern)
	not contains(regex.replace(pattern, `\[[A-Za-z0-9_]+\]`, ""), "[")
	nfc(pattern)
}

# The literal directories of an absolute pattern: its segments before the
# first one with a wildcard, as an absolute clean path ("/" when none).
_glob_root(pattern) := root if {
	segments := [s | some s in split(pattern, "/"); s != ""]
	wild := [i | some i, s in segments; regex.match(`[*?\[]`, s)]
	literal := array.slice(segments, 0, _first_or(wild, count(segments)))
	root := concat("", ["/", concat("/", [s | some s in literal; s != "."])])
}

_first_or(list, default_value) := min(list) if count(list) > 0

else := default_value

_path_value_refusal(workspace, name, accesses, value) := {"rule": rule, "argument": name, "path": value} if {
	is_string(value)
	rule := _path_rule(workspace, accesses, value)
} else := refusals[0] if {
	is_array(value)
	refusals := [r |
		some element in value
		r := _element_refusal(workspace, name, accesses, element)
	]
	count(refusals) > 0
} else := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_string(value)
	not is_array(value)
}

# METADATA
# description: |
#   The paths a patch text names, in order: the rest of every line that,
#   white space trimmed and compared in lower case, starts with one of
#   patch_headers. Any line counts, wherever it is in the text, so that a
#   patch can name no file the policy does not see (it may see more).
patch_paths(text) := [trim_space(substring(line, count(header), -1)) |
	some raw in split(text, "\n")
	line := trim_space(raw)
	some header in patch_headers
	startswith(lower(line), lower(header))
]

# METADATA
# description: The lines of an apply_patch text that name a file it adds, changes, deletes or moves to (the host resolves them too, see tooleval.host).
patch_headers := ["*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"]

# Every path a patch text names is written; text that is not a string
# cannot be read, and is refused.
_patch_refusal(workspace, name, text) := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_string(text)
} else := refusals[0] if {
	refusals := [{"rule": rule, "argument": name, "path": path} |
		some path in patch_paths(text)
		rule := _path_rule(workspace, {"write"}, path)
	]
	count(refusals) > 0
}

_element_refusal(workspace, name, accesses, element) := {"rule": rule, "argument": name, "path": element} if {
	is_string(element)
	rule := _path_rule(workspace, accesses, element)
} else := {"rule": "unresolved", "argument": name, "path": null} if {
	not is_string(element)
}

_path_rule(workspace, accesses, path) := "unresolved" if {
	not _absolute_clean(path)
} else := "unresolved" if {
	not nfc(path)
} else := "outside_workspace" if {
	accesses.write
	workspace.allow_outside != true
	not _inside(path, workspace.root)
} else := "unresolved" if {
	accesses.write
	not _path_keys(path)
} else := "sensitive" if {
	accesses.write
	keys := _path_keys(path)
	some run in workspace.sensitive
	_contains_run(keys, run)
} else := "excluded" if {
	accesses.write
	keys := _path_keys(path)
	some run in workspace.excluded
	array.slice(keys, 0, count(run)) == run
} else := "not_readable" if {
	accesses.read
	not _readable(workspace, path)
}

# METADATA
# description: |
#   Why a glob pattern refused with rule unresolved is, as a phrase for
#   the refusal's message.
unresolved_pattern_why(pattern) := sprintf("pattern %q could name files outside its directory: %s", [pattern, _glob_rules_text]) if {
	is_string(pattern)
}

_glob_rules_text := concat("", [
	`a glob pattern may not have "..", braces, a backslash, a bracket expression `,
	"other than letters, digits and _, a leading ~ or $, or text not in NFC",
])

# METADATA
# description: |
#   Why a path refused with rule unresolved is, as a phrase for the
#   refusal's message: the host's marks for a path with two readings
#   (engine/paths.go), a path not in NFC, or none of these.
unresolved_why(path) := sprintf(_why_text.dotdot, [trim_prefix(path, "unresolved-dotdot:")]) if {
	startswith(path, "unresolved-dotdot:")
} else := sprintf(_why_text.unicode, [trim_prefix(path, "unresolved-unicode:")]) if {
	startswith(path, "unresolved-unicode:")
} else := sprintf(_why_text.nfc, [path]) if {
	_absolute_clean(path)
	not nfc(path)
}

_why_text := {
	"dotdot": `path %q names one file when its ".." is applied first and another when the links before it are followed first`,
	"unicode": concat("", [
		"path %q has a component that is not on disk but is equivalent ",
		"under Unicode normalization (NFC) to an entry of its directory",
	]),
	"nfc": "path %q is not in Unicode normalization form C (NFC), so a server may open another file under an equivalent name",
}

# METADATA
# scope: document
# description: p is an absolute path with no empty, . or .. segment, no trailing / and no NUL.
_absolute_clean("/") := true

_absolute_clean(p) if {
	is_string(p)
	startswith(p, "/")
	every segment in array.slice(split(p, "/"), 1, count(p)) {
		_clean_segment(segment)
	}
}

# METADATA
# description: p is a non-empty relative path with no empty, . or .. segment.
_relative_clean(p) if {
	is_string(p)
	not startswith(p, "/")
	every segment in split(p, "/") {
		_clean_segment(segment)
	}
}

_clean_segment(segment) if {
	not segment in {"", ".", ".."}
	not contains(segment, "\u0000")
}

# METADATA
# scope: document
# description: path is root or lies below it, on a segment boundary.
_inside(path, root) if path == root

_inside(path, root) if {
	root == "/"
	startswith(path, "/")
}

_inside(path, root) if startswith(path, concat("", [root, "/"]))

_join("/", relative) := concat("", ["/", relative])

_join(root, relative) := concat("/", [root, relative]) if root != "/"

# METADATA
# description: |
#   What a segment is compared as by the sensitive and excluded checks:
#   its canonical form (NFKC_Casefold) after upper-casing, without
#   trailing dots and spaces. So .SSH, .ſsh (long s), .gıt (dotless i,
#   which a file system that upper-cases to compare treats as .GIT), .ＳＳＨ
#   and ".ssh." (which Windows strips to .ssh) are all .ssh. Undefined
#   for a segment with no canonical form (one longer than 256 characters
#   among them): a written path with one is unresolved.
_segment_key(segment) := trim_right(canonical(upper(segment)), ". ")

# METADATA
# description: The keys of the segments of an absolute path; undefined when a segment has none.
_path_keys(path) := keys if {
	segments := [s | some s in split(path, "/"); s != ""]
	keys := [_segment_key(s) | some s in segments]
	count(keys) == count(segments)
}

# METADATA
# description: The keys of the segments of a relative path; undefined when a segment has none.
_relative_keys(path) := keys if {
	segments := split(path, "/")
	keys := [_segment_key(s) | some s in segments]
	count(keys) == count(segments)
}

# keys has the keys of run as consecutive elements.
_contains_run(keys, run) if {
	count(keys) >= count(run)
	some i in numbers.range(0, count(keys) - count(run))
	array.slice(keys, i, i + count(run)) == run
}

_readable(workspace, path) if _inside(path, workspace.root)

_readable(workspace, path) if {
	some root in workspace.read_roots
	_inside(path, root)
}
