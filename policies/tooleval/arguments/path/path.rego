# METADATA
# title: Path rules
# description: |
#   Argument rules whose condition is a glob over the paths a call
#   names, matched on the paths the host resolved (the same paths the
#   workspace rules check: absolute, clean, symlinks followed, in NFC).
#
#   A glob is / separated segments: * stands for any characters of a
#   segment, ? for one, a segment ** for any number of segments (none
#   included). An absolute glob (/etc/**) is matched from the file
#   system's root; a relative one (src/**, ./src/**) from the workspace
#   root; a relative glob with no / but a trailing one (*.env, .env) at
#   any depth below the workspace root, as .gitignore reads it. A glob
#   matches a path and everything below it (a glob that names a directory
#   names its files). This is Claude Code's Read and Edit grammar with two
#   differences: its //path is written /path here, and ~/ and a path
#   relative to the settings file have no meaning here (a glob starting
#   with ~ or $ is not valid).
#
#   An allow rule compares the path exactly, a deny or an ask rule segment
#   by segment by key (see paths.segment_key), so that a case-insensitive file
#   system cannot be used to slip past it.
#
#   One of the condition families joined by tooleval.arguments
#   (rules.rego), with the same rules as the others: problem, compile,
#   example, example_reading, bites, permits and lets_through.
package tooleval.arguments.path

import data.tooleval.arguments.paths
import data.tooleval.canonical.nfc
import data.tooleval.shape

# METADATA
# description: |
#   Why value is not a path rule's value, as a code of
#   tooleval.arguments.rule_problem_messages; undefined when it is a
#   glob (valid_glob).
problem(_, value, _) := "invalid_path_rule" if not valid_glob(value) # regal ignore:argument-always-wildcard

# METADATA
# description: A path rule (valid) as matching reads it (its value, no words, its matcher, _path_matcher's).
compile(_, value) := {"value": value, "words": null, "matcher": _path_matcher(value)} # regal ignore:argument-always-wildcard

# METADATA
# description: Whether x is an example a path rule reads (a path).
example(x) if is_string(x)

# METADATA
# description: |
#   An example path read as a call that carries it: relative to the
#   workspace root, which examples take to be /, or absolute.
example_reading(x) := _paths_reading([_absolute_example(x)], "/")

_absolute_example(example) := example if startswith(example, "/")

else := concat("", ["/", trim_prefix(example, "./")])

# METADATA
# scope: document
# description: |
#   Whether a deny or ask path rule bites on a path reading: it is
#   unreadable, or one of its paths matches the glob by key or as written
#   (_matcher_bites).
bites(_, reading) if reading.unreadable

bites(rule, reading) if _matcher_bites(rule.matcher, reading)

# METADATA
# description: |
#   Whether allow path rules (rules) permit a path reading: every path
#   is matched exactly by one of them (_permits_paths).
permits(rules, reading) if {
	count(rules) > 0
	_permits_paths([rule.matcher | some rule in rules], reading)
}

# METADATA
# description: Whether an allow path rule lets a path reading through (permits, of the rule alone).
lets_through(rule, reading) if _permits_paths([rule.matcher], reading)

# METADATA
# description: |
#   value is a valid path glob: a non-empty string in NFC with no [, ],
#   {, }, \ or NUL, not starting with ~ or $, whose segments (after a
#   leading ./ or / and one trailing / are taken off) are not empty, .
#   or .., have ** only as a whole segment, and have a key (see
#   paths.segment_key). / alone is valid (every path); an empty relative glob
#   is not.
valid_glob(value) if {
	is_string(value)
	not regex.match(`[\[\]{}\\\x00]|^[~$]`, value)
	nfc(value)
	segments := _glob_segments(value)
	_some_segment_or_absolute(value, segments)
	every segment in segments {
		_glob_segment(segment)
	}
}

_some_segment_or_absolute(value, _) if startswith(value, "/")

_some_segment_or_absolute(_, segments) if count(segments) > 0

_glob_segment(segment) if {
	not segment in {"", ".", ".."}
	_whole_double_star(segment)
	paths.segment_key(segment)
}

_whole_double_star("**")

_whole_double_star(segment) if not contains(segment, "**")

# The segments of a glob, a leading / or ./ and one trailing / taken
# off.
_glob_segments(value) := [] if {
	_glob_body(value) == ""
} else := split(_glob_body(value), "/")

_glob_body(value) := trim_suffix(trim_prefix(value, "/"), "/") if {
	startswith(value, "/")
} else := trim_suffix(trim_prefix(value, "./"), "/")

# What a path glob (valid, see glob) is matched with: {relative,
# allows, bites}, relative whether it is anchored at the workspace
# root, allows the regular expression its segments make for the path
# exactly, bites the one their keys make for the path's keys. A
# relative glob of one segment matches at any depth (** before it).
_path_matcher(value) := {
	"relative": relative,
	"allows": concat("", [_segment_regex(s) | some s in segments]),
	"bites": concat("", [_key_segment_regex(_glob_segment_key(s)) | some s in segments]),
} if {
	relative := _relative(value)
	segments := _anchored_segments(relative, _glob_segments(value), value)
}

_relative(value) := false if {
	startswith(value, "/")
} else := true

_anchored_segments(true, segments, value) := array.concat(["**"], segments) if {
	count(segments) == 1
	not contains(trim_suffix(trim_prefix(value, "./"), "/"), "/")
	not startswith(value, "./")
} else := segments

_anchored_segments(false, segments, _) := segments

_glob_segment_key("**") := "**"

_glob_segment_key(segment) := paths.segment_key(segment) if segment != "**"

# A segment's key is compared with NUL between keys (a key may hold a /:
# a full-width solidus folds to one), ? and * standing for any characters
# (a key may be longer or shorter than its segment: ß folds to ss, a soft
# hyphen to nothing), ** for any keys, empty ones included.
_key_segment_regex("**") := `(?:\x00[^\x00]*)*`

_key_segment_regex(key) := concat("", [`\x00`, replace(replace(regex.replace(key, `[\\.+()|\[\]{}^$]`, `\${0}`), "*", `[^\x00]*`), "?", `[^\x00]*`)]) if {
	key != "**"
}

_segment_regex("**") := `(?:/[^/]+)*`

_segment_regex(segment) := concat("", ["/", replace(replace(regex.replace(segment, `[\\.+()|\[\]{}^$]`, `\${0}`), "*", "[^/]*"), "?", "[^/]")]) if {
	segment != "**"
}

# The regular expression of a glob's segments (suffix) under anchor
# ("" for the file system's root, the workspace root's text for a
# relative glob): the path, or one below it (. matching a newline too:
# a file name may hold one).
_path_regex(suffix, anchor) := concat("", ["^", _quoted(anchor), suffix, `(?s:/.*)?$`])

# What a glob is anchored at: the workspace root (as text reads it) for
# a relative glob, the file system's root otherwise.
_anchor(false, _, _) := ""

_anchor(true, root, "allows") := _text(root)

_anchor(true, root, "bites") := _key_text(root)

# A path as the regular expressions read it: "" for /.
_text("/") := ""

_text(path) := path if path != "/"

# A path's keys as the key regular expressions read them: NUL before
# each; undefined when a segment has no key.
_key_text("/") := ""

_key_text(path) := concat("", ["\u0000", concat("\u0000", keys)]) if {
	path != "/"
	keys := paths.path_keys(path)
}

# The regular expression of a glob's keys (suffix) under anchor (keys
# text): the path's keys, or those of one below it.
_key_regex(suffix, anchor) := concat("", ["^", replace(_quoted(anchor), "\u0000", `\x00`), suffix, `(?s:\x00.*)?$`])

# METADATA
# description: |
#   The paths of call that path rules read, under workspace (compiled,
#   or null): {paths, root} with every path resolved (absolute, clean,
#   in NFC) and root the workspace root; or {unreadable} when there is no
#   workspace (the host resolves paths only under one), when the tool has
#   no path arguments (arguments: its entry of path_arguments), when the
#   call names no path, when an argument is a glob pattern (it names many
#   files), is neither a string nor a list of strings, or names a path
#   that is not resolved. A patch's paths are those it names
#   (paths.patch_paths).
reading(workspace, arguments, call) := _unread_path("path rules match the paths the host resolved under a workspace, and the request has none") if {
	workspace == null
} else := _unread_path("the tool has no path argument (see the configuration's path_arguments)") if {
	count(arguments) == 0
} else := _unread_path("the call's arguments are not an object") if {
	not is_object(shape.field(call, "args", {}))
} else := unread if {
	unread := [item | some item in _argument_paths(arguments, shape.field(call, "args", {})); item.unreadable][0]
} else := _paths_reading(
	array.flatten([item.paths | some item in _argument_paths(arguments, shape.field(call, "args", {}))]),
	_root(workspace.root_prefix),
)

_argument_paths(arguments, args) := [_paths_of(name, arguments[name], value) |
	some name in sort(object.keys(arguments))
	value := args[name]
]

_paths_of(name, accesses, value) := _unread_path(sprintf("argument %q is a glob pattern, which names many files", [name])) if {
	accesses.glob
} else := {"paths": paths.patch_paths(value)} if {
	accesses.patch
	is_string(value)
} else := {"paths": [value]} if {
	not accesses.patch
	is_string(value)
} else := {"paths": value} if {
	not accesses.patch
	is_array(value)
	every p in value {
		is_string(p)
	}
} else := _unread_path(sprintf("argument %q is not a path or a list of paths", [name]))

_root(root_prefix) := "/" if {
	root_prefix == "/"
} else := trim_suffix(root_prefix, "/")

_unread_path(why) := {"unreadable": why}

# The reading of paths under the workspace root root: {paths, root},
# or {unreadable} when there is none or one is not resolved.
_paths_reading(named, root) := _unread_path("the call names no path") if {
	count(named) == 0
} else := _unread_path(sprintf("path %q is not resolved (absolute, clean, in NFC)", [path])) if {
	path := [p | some p in named; not paths.resolved(p)][0] # the first
} else := {"paths": named, "root": root}

# Whether a path rule (matcher: _path_matcher's) bites on a path reading
# (readable): one of its paths matches by key or as written, or cannot
# be keyed, or the rule is relative and the workspace root cannot be
# keyed.
_matcher_bites(_, reading) if {
	some path in reading.paths
	not _key_text(path)
}

_matcher_bites(matcher, reading) if {
	matcher.relative
	not _key_text(reading.root)
}

_matcher_bites(matcher, reading) if {
	expression := _key_regex(matcher.bites, _anchor(matcher.relative, reading.root, "bites"))
	some path in reading.paths
	regex.match(expression, _key_text(path))
}

_matcher_bites(matcher, reading) if {
	some path in reading.paths
	regex.match(_path_regex(matcher.allows, _anchor(matcher.relative, reading.root, "allows")), _text(path))
}

# Whether allow path rules (matchers: _path_matcher's) permit every path
# of a path reading, each matched exactly by one of them; never for an
# unreadable reading.
_permits_paths(matchers, reading) if {
	count(reading.paths) > 0
	every path in reading.paths {
		_permitted(matchers, path, reading.root)
	}
}

_permitted(matchers, path, root) if {
	some matcher in matchers
	regex.match(_path_regex(matcher.allows, _anchor(matcher.relative, root, "allows")), _text(path))
}

_quoted(word) := regex.replace(word, `[\\.+*?()|\[\]{}^$]`, `\${0}`)
