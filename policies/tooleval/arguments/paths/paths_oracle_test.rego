# The path rule as it was written before the keyed fast path (one
# canonical key per segment, runs compared as arrays), kept here as an
# oracle: the rule must give the same answer on every generated path.
package tooleval.arguments.paths_test

import data.tooleval.arguments.paths
import data.tooleval.canonical.canonical
import data.tooleval.canonical.nfc

# The rule the old formulation gives, or "ok". raw is input.workspace.
oracle_rule(raw, sensitive_paths, accesses, path) := rule if {
	rule := _oracle_path_rule(_oracle_workspace(raw, sensitive_paths), accesses, path)
} else := "ok"

_oracle_workspace(raw, sensitive_paths) := {
	"root": raw.root,
	"read_roots": object.get(raw, "read_roots", []),
	"allow_outside": object.get(raw, "allow_outside", false) == true,
	"excluded": [keys |
		some entry in object.get(raw, "excluded", [])
		keys := _oracle_path_keys(_oracle_join(raw.root, entry))
	],
	"sensitive": [keys |
		some p in sensitive_paths
		is_string(p)
		keys := _oracle_relative_keys(p)
	],
}

_oracle_path_rule(workspace, accesses, path) := "unresolved" if {
	not _oracle_absolute_clean(path)
} else := "unresolved" if {
	not nfc(path)
} else := "outside_workspace" if {
	accesses.write
	workspace.allow_outside != true
	not _oracle_inside(path, workspace.root)
} else := "unresolved" if {
	accesses.write
	not _oracle_path_keys(path)
} else := "sensitive" if {
	accesses.write
	keys := _oracle_path_keys(path)
	some run in workspace.sensitive
	_oracle_contains_run(keys, run)
} else := "excluded" if {
	accesses.write
	keys := _oracle_path_keys(path)
	some run in workspace.excluded
	array.slice(keys, 0, count(run)) == run
} else := "not_readable" if {
	accesses.read
	not _oracle_readable(workspace, path)
}

_oracle_absolute_clean("/") := true

_oracle_absolute_clean(p) if {
	is_string(p)
	startswith(p, "/")
	every segment in array.slice(split(p, "/"), 1, count(p)) {
		not segment in {"", ".", ".."}
		not contains(segment, "\u0000")
	}
}

_oracle_inside(path, root) if path == root

_oracle_inside(path, root) if {
	root == "/"
	startswith(path, "/")
}

_oracle_inside(path, root) if startswith(path, concat("", [root, "/"]))

_oracle_readable(workspace, path) if _oracle_inside(path, workspace.root)

_oracle_readable(workspace, path) if {
	some root in workspace.read_roots
	_oracle_inside(path, root)
}

_oracle_join("/", relative) := concat("", ["/", relative])

_oracle_join(root, relative) := concat("/", [root, relative]) if root != "/"

_oracle_segment_key(segment) := trim_right(canonical(upper(segment)), ". ")

_oracle_path_keys(path) := keys if {
	segments := [s | some s in split(path, "/"); s != ""]
	keys := [_oracle_segment_key(s) | some s in segments]
	count(keys) == count(segments)
}

_oracle_relative_keys(path) := keys if {
	segments := split(path, "/")
	keys := [_oracle_segment_key(s) | some s in segments]
	count(keys) == count(segments)
}

_oracle_contains_run(keys, run) if {
	count(keys) >= count(run)
	some i in numbers.range(0, count(keys) - count(run))
	array.slice(keys, i, i + count(run)) == run
}

_repeat(s, n) := concat("", [s | some _ in numbers.range(1, n)])

# The segments paths are generated from: each side of every boundary the
# fast path draws (ASCII or not, white space and dots at either end, 256
# characters or more, case, names that contain a sensitive name), and
# segments that are not clean.
oracle_segments := [
	"ws", "WS", "ws2", "wsx", "src", "main.go", "sub", "x",
	".git", ".GIT", ".gitignore", ".git-hooks", "hooks", "Hooks",
	".ssh", ".SSH", ".ssh.", ".ssh..", ".ssh ", " .ssh", "\t.ssh", ".ssh\t", ".ssh\u000b", ".sshx", "x.ssh",
	".env", "my.env", ".env.local", "target", "TARGET", "targets", "tmp",
	"a b", "a\u0001b", "\u007f", "...", ".a", "..a", "a.", "a..b", "~", "$HOME", "-", "_",
	_repeat("a", 256), _repeat("a", 257), concat("", [_repeat("a", 255), "."]), concat("", [" ", _repeat("a", 255)]),
	".\u017fsh", ".g\u0131t", ".\uff33\uff33\uff28", ".s\u200bsh", "caf\u00e9", "cafe\u0301", "\u212adocs",
	"a\uff0fb", "\u00a0.ssh", ".ssh\u0085", "\u0130", "\ufb01le",
	"", ".", "..", "a\u0000b",
]

# The paths a group of tests runs on. The segments in every position:
# alone (under / or /ws), before hooks, after .git.
_paths_under(prefix, segments) := {concat("/", [prefix, segment]) | some segment in segments}

# The segments in sixths, so that each test stays short.
_sixth(k) := [segment | some i, segment in oracle_segments; i % 6 == k]

oracle_path_sets := object.union_n([
	{sprintf("under_ws_%d", [k]): _paths_under("/ws", _sixth(k)) | some k in numbers.range(0, 5)},
	{sprintf("at_top_%d", [k]): _paths_under("", _sixth(k)) | some k in numbers.range(0, 5)},
	{
		"before_hooks": {concat("", ["/", segment, "/hooks"]) | some segment in _oracle_run_segments},
		"after_git": {concat("", ["/.git/", segment]) | some segment in _oracle_run_segments},
		"in_root_before_hooks": {concat("", ["/WS/", segment, "/hooks"]) | some segment in _oracle_run_segments},
		"roots": {
			"/ws", "/ws2", "/ws2/sub", "/ws2/subx", "/ws2/sub/a", "/ro", "/rox", "/ro/a", "/", "/wsx", "/WS", "/ws/a",
			"/caf\u00e9", "/caf\u00e9/x", "/caf\u00e9x", "/cafe\u0301/x", "/ws/", "/ws//a", "ws", "", "ws/a", "//ws",
			"/ws/./a", "/ws/../a", "/.git/hooks/", "~/.ssh", "/x", "/x/y", "/.../x",
		},
	},
])

_oracle_run_segments := [
	"ws", ".git", ".GIT", ".gitignore", "hooks", "Hooks", ".ssh.", ".ssh ", "\t.ssh", "target", "tmp",
	".g\u0131t", "a\uff0fb", "...", _repeat("a", 257), "",
]

oracle_sensitive := [
	".ssh", ".aws", ".git/hooks", "my.env", ".ENV", "a\uff0fb", "secrets/prod", "...", "a//b", "",
	"x\u0000y", "\u00e9t\u00e9", 3,
]

oracle_workspaces := {
	"ws": {"root": "/ws", "read_roots": ["/ro", "/ws2/sub"], "excluded": [".git", "target", "a b", "sub/x", "..."]},
	"top": {"root": "/", "excluded": ["tmp", "a\u0000b", "\ufb01le", "x//y"]},
	"everything_excluded": {"root": "/", "excluded": [""]},
	"outside_allowed": {"root": "/WS", "read_roots": ["", "/"], "allow_outside": true, "excluded": ["Target"]},
	"non_ascii_root": {"root": "/caf\u00e9", "read_roots": ["/ws/"], "excluded": ["x", "..."]},
}

# The rule and the oracle agree on every path of a set (of more than
# five), in a workspace for some accesses.
oracle_agrees(workspace_name, access, set_name) if {
	raw := oracle_workspaces[workspace_name]
	ws := paths.workspace({"workspace": raw}, oracle_sensitive)
	path_set := oracle_path_sets[set_name]
	count(path_set) > 5
	mismatches := {[path, got, want] |
		some path in path_set
		got := _new_rule(ws, access, path)
		want := oracle_rule(raw, oracle_sensitive, access, path)
		got != want
	}
	mismatches == set()
}

_new_rule(ws, access, path) := r.rule if {
	# accesses as tooleval.configuration.path_arguments writes them
	r := first_refusal(ws, {"path": {a: true | some a in access}}, {"path": path})
} else := "ok"

test_oracle_writes_under_ws_0 if oracle_agrees("ws", {"write"}, "under_ws_0")

test_oracle_writes_under_ws_1 if oracle_agrees("ws", {"write"}, "under_ws_1")

test_oracle_writes_under_ws_2 if oracle_agrees("ws", {"write"}, "under_ws_2")

test_oracle_writes_under_ws_3 if oracle_agrees("ws", {"write"}, "under_ws_3")

test_oracle_writes_under_ws_4 if oracle_agrees("ws", {"write"}, "under_ws_4")

test_oracle_writes_under_ws_5 if oracle_agrees("ws", {"write"}, "under_ws_5")

test_oracle_writes_at_top_0 if oracle_agrees("top", {"write"}, "at_top_0")

test_oracle_writes_at_top_1 if oracle_agrees("top", {"write"}, "at_top_1")

test_oracle_writes_at_top_2 if oracle_agrees("top", {"write"}, "at_top_2")

test_oracle_writes_at_top_3 if oracle_agrees("top", {"write"}, "at_top_3")

test_oracle_writes_at_top_4 if oracle_agrees("top", {"write"}, "at_top_4")

test_oracle_writes_at_top_5 if oracle_agrees("top", {"write"}, "at_top_5")

test_oracle_writes_before_hooks if oracle_agrees("outside_allowed", {"write"}, "before_hooks")

test_oracle_writes_after_git if oracle_agrees("outside_allowed", {"write"}, "after_git")

test_oracle_writes_in_root_before_hooks if oracle_agrees("outside_allowed", {"write"}, "in_root_before_hooks")

test_oracle_reads_of_roots if oracle_agrees("ws", {"read"}, "roots")

test_oracle_roots_in_ws if oracle_agrees("ws", {"read", "write"}, "roots")

test_oracle_roots_outside_allowed if oracle_agrees("outside_allowed", {"read", "write"}, "roots")

test_oracle_roots_non_ascii_root if oracle_agrees("non_ascii_root", {"read", "write"}, "roots")

test_oracle_roots_everything_excluded if oracle_agrees("everything_excluded", {"write"}, "roots")

test_oracle_reads_at_top if oracle_agrees("ws", {"read"}, "at_top_0")

# The generated cases reach every rule.
test_oracle_covers_every_rule if {
	rules := {oracle_rule(oracle_workspaces[name], oracle_sensitive, access, path) |
		some [name, access, set_name] in [
			["ws", {"read"}, "roots"],
			["ws", {"write"}, "roots"],
			["outside_allowed", {"write"}, "in_root_before_hooks"],
		]
		some path in oracle_path_sets[set_name]
	}
	rules == {"ok", "unresolved", "outside_workspace", "sensitive", "excluded", "not_readable"}
}
