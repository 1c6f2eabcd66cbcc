# METADATA
# title: Path checks
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
package tooleval.arguments.paths

import data.tooleval.canonical.canonical
import data.tooleval.canonical.nfc
import data.tooleval.shape

# METADATA
# description: |
#   Every path refusal of call, as {rule, argument, path}, in order (the
#   first is the call's), its arguments being call.args (none when that
#   is absent or null). arguments maps each path argument of the tool to
#   its accesses ("read", "write", "patch", "glob"); they are checked in
#   argument-name order. The
#   common case, one path argument given a string, of a tool that only
#   reads or writes it (no patch, no glob), is read without the dispatch
#   of the general case: it is what _path_refusals gives for a string.
call_refusals(workspace, arguments, call) := [{"rule": rule, "argument": name, "path": value} |
	rule := _path_rule(workspace, accesses, value)
] if {
	count(arguments) == 1
	some name, accesses in arguments
	value := call.args[name]
	is_string(value)
	_plain_accesses[accesses]
} else := [r |
	args := shape.field(call, "args", {})
	some name in sort(object.keys(arguments))
	some r in _argument_refusals(workspace, name, arguments[name], args)
]

# The accesses of a path argument that is read, written, or both (as
# tooleval.configuration.path_arguments writes them): neither patch nor
# glob.
_plain_accesses := {{"read": true}, {"write": true}, {"read": true, "write": true}}

# The refusals of an argument, in order, or undefined when the call does
# not have it. Each function below returns a list (empty when nothing is
# refused), so that a branch taken is never left for the next.
_argument_refusals(workspace, name, accesses, args) := [_unresolved(name)] if {
	not is_object(args)
} else := _value_refusals(workspace, name, accesses, args[name])

# Patch text names the files it writes in its headers; a string is one
# path; a list is checked element by element; anything else that is
# present (null included) cannot be a path.
_value_refusals(workspace, name, accesses, value) := _patch_refusals(workspace, name, value) if {
	accesses.patch
} else := _glob_refusals(workspace, name, value) if {
	accesses.glob
} else := _path_refusals(workspace, name, accesses, value)

_unresolved(name) := {"rule": "unresolved", "argument": name, "path": null}

# A glob pattern, or a list of them, each checked (glob_rule); anything
# else that is present cannot be a pattern. The refusal says pattern, for
# its message.
_glob_refusals(workspace, name, value) := [{"rule": rule, "argument": name, "path": value, "pattern": true} |
	rule := glob_rule(workspace, value)
] if {
	is_string(value)
} else := [r |
	some element in value
	r := _glob_element_refusal(workspace, name, element)
] if {
	is_array(value)
} else := [_unresolved(name)]

_glob_element_refusal(workspace, name, element) := {"rule": rule, "argument": name, "path": element, "pattern": true} if {
	is_string(element)
	rule := glob_rule(workspace, element)
} else := _unresolved(name) if {
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
	not _under(_glob_root(pattern), workspace.read_prefixes)
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

_path_refusals(workspace, name, accesses, value) := [{"rule": rule, "argument": name, "path": value} |
	rule := _path_rule(workspace, accesses, value)
] if {
	is_string(value)
} else := [r |
	some element in value
	r := _element_refusal(workspace, name, accesses, element)
] if {
	is_array(value)
} else := [_unresolved(name)]

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
_patch_refusals(workspace, name, text) := [{"rule": rule, "argument": name, "path": path} |
	some path in patch_paths(text)
	rule := _path_rule(workspace, {"write"}, path)
] if {
	is_string(text)
} else := [_unresolved(name)]

_element_refusal(workspace, name, accesses, element) := {"rule": rule, "argument": name, "path": element} if {
	is_string(element)
	rule := _path_rule(workspace, accesses, element)
} else := _unresolved(name) if {
	not is_string(element)
}

# The rule a path breaks, or undefined when it breaks none: a path that
# is neither plain nor resolved breaks unresolved; a written path is
# checked first (write_rule), then a read one.
_path_rule(workspace, accesses, path) := "unresolved" if {
	not regex.match(_plain_path_regex, path) # not _plain_path(path), read without a call
	not resolved(path)
} else := rule if {
	accesses.write
	rule := _write_rule(workspace, path)
} else := "not_readable" if {
	accesses.read
	not strings.any_prefix_match(concat("", [path, "/"]), workspace.read_prefixes) # not _under(path, read_prefixes)
}

# The rule a resolved written path breaks, or undefined. It is compared by
# its keyed form (see keyed_path): a run of sensitive segments anywhere
# in it, an excluded path at its start.
_write_rule(workspace, path) := "outside_workspace" if {
	workspace.allow_outside != true
	not strings.any_prefix_match(concat("", [path, "/"]), workspace.root_prefix) # not _under(path, [root_prefix])
} else := "unresolved" if {
	not _keyed_path(path)
} else := "sensitive" if {
	keyed := _keyed_path(path)
	some run in workspace.sensitive
	contains(keyed, run)
} else := "excluded" if {
	strings.any_prefix_match(_keyed_path(path), workspace.excluded)
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
# description: p is an absolute path with no empty, . or .. segment, no trailing / and no NUL.
_absolute_clean(p) if {
	is_string(p)
	regex.match(_absolute_clean_regex, p)
}

# METADATA
# description: p is a non-empty relative path with no empty, . or .. segment and no NUL.
_relative_clean(p) if {
	is_string(p)
	regex.match(_relative_clean_regex, p)
}

# A clean segment: not empty, no / or NUL, not . or .. (a segment that
# starts with a dot has another character that is not one, or a third).
# The regular expressions are literal, so that no query builds them;
# arguments_test checks them against their parts.
_absolute_clean_regex := `^/$|^(?:/(?:[^/\x00.][^/\x00]*|\.[^/\x00.][^/\x00]*|\.\.[^/\x00]+))+$`

_relative_clean_regex := `^(?:[^/\x00.][^/\x00]*|\.[^/\x00.][^/\x00]*|\.\.[^/\x00]+)(?:/(?:[^/\x00.][^/\x00]*|\.[^/\x00.][^/\x00]*|\.\.[^/\x00]+))*$`

# METADATA
# description: |
#   A path is resolved when it is absolute, clean and in NFC (a plain
#   path, see _plain_path, is all three).
resolved(path) if {
	_absolute_clean(path)
	nfc(path)
}

# METADATA
# description: |
#   path is absolute, clean and ASCII, and each of its segments is 1 to
#   256 characters with no white space at either end and no dot at its
#   end: a path whose segment keys (see segment_key) are the lower case of
#   its segments, so that lower(path) is its keys joined by "/". It is
#   also in NFC (it is ASCII). Its characters are those of ASCII but NUL
#   and /; a segment's first is none of the white space trim_space trims
#   (tab, LF, VT, FF, CR, space), its last none of these nor a dot.
_plain_path(path) if regex.match(_plain_path_regex, path)

# A plain segment: 1 to 256 characters of ASCII but NUL and /, the first
# none of tab, LF, VT, FF, CR and space, the last none of these nor a dot.
# regal ignore:line-length
_plain_path_regex := `^(?:/(?:[\x01-\x08\x0e-\x1f\x21-\x2d\x30-\x7f]|[\x01-\x08\x0e-\x1f\x21-\x2e\x30-\x7f][\x01-\x2e\x30-\x7f]{0,254}[\x01-\x08\x0e-\x1f\x21-\x2d\x30-\x7f]))+$`

# METADATA
# description: |
#   The keyed form of a resolved absolute path: the keys of its segments
#   (see segment_key), each after a NUL, and a NUL at the end ("\x00ws\x00
#   src\x00" for /ws/SRC; "\x00" for /). No key has a NUL in it (a
#   segment has none and no canonical form adds one), so a run of keys is
#   a run of the path's segments exactly when its keyed form is a
#   substring of the path's, and its first segments exactly when a prefix.
#   A plain path's is its lower case with NUL for /; any other's is built
#   key by key. Undefined when a segment has no key.
_keyed_path(path) := concat("", [replace(lower(path), "/", "\u0000"), "\u0000"]) if {
	_plain_path(path)
} else := _keyed(path_keys(path))

# A resolved absolute path whose segments all have a key.
_has_keys(path) if _plain_path(path)

_has_keys(path) if {
	not _plain_path(path)
	path_keys(path)
}

# METADATA
# description: |
#   The keyed form of a list of keys (see keyed_path), undefined when a
#   key has a NUL: such a key matches no segment, and its keyed form
#   could be read as two keys.
_keyed(keys) := concat("\u0000", array.flatten(["", keys, ""])) if {
	every key in keys {
		not contains(key, "\u0000")
	}
}

# path (absolute) is one of roots or lies below it, on a segment boundary,
# where prefixes are those roots' prefixes (see root_prefix): path with a
# "/" appended starts with "/ws/" exactly when path is /ws or under it.
_under(path, prefixes) if strings.any_prefix_match(concat("", [path, "/"]), prefixes)

# METADATA
# description: |
#   What a path under root starts with, root itself with a "/" appended:
#   root followed by "/" ("/" for the root "/").
_root_prefix("/") := "/"

_root_prefix(root) := concat("", [root, "/"]) if root != "/"

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
segment_key(segment) := trim_right(canonical(upper(segment)), ". ")

# METADATA
# description: The keys of the segments of an absolute path; undefined when a segment has none.
path_keys(path) := keys if {
	segments := [s | some s in split(path, "/"); s != ""]
	keys := [segment_key(s) | some s in segments]
	count(keys) == count(segments)
}

# METADATA
# description: The keys of the segments of a relative path; undefined when a segment has none.
_relative_keys(path) := keys if {
	segments := split(path, "/")
	keys := [segment_key(s) | some s in segments]
	count(keys) == count(segments)
}
