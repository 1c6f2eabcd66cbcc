package tooleval.arguments.paths_test

import data.tooleval.arguments.paths

# input.workspace compiled for the path rules: null when absent, its
# prefixes and keyed lists, and what is dropped when malformed.
test_workspace_normalization if {
	paths.workspace({}, []) == null
	paths.workspace({"workspace": null}, []) == null
	paths.workspace({"workspace": {"root": "/ws"}}, [".git/hooks"]) == {
		"root_prefix": "/ws/", "read_prefixes": ["/ws/"], "excluded": [], "allow_outside": false,
		"sensitive": ["\u0000.git\u0000hooks\u0000"],
	}
	paths.workspace({"workspace": {"root": "/WS", "excluded": ["Target"]}}, []).excluded == ["\u0000ws\u0000target\u0000"]
	paths.workspace({"workspace": {"read_roots": ["/a", 3], "excluded": "x", "allow_outside": "yes"}}, []) == {
		"root_prefix": "/nonexistent/", "read_prefixes": ["/nonexistent/", "/a/"], "excluded": [], "allow_outside": false, "sensitive": [],
	}
	paths.workspace({"workspace": {"root": "/", "read_roots": ["/"]}}, []).read_prefixes == ["/", "/"]
}

# [input, fields of the workspace errors]
workspace_error_cases := [
	[{"workspace": {"root": "/ws"}}, []],
	[{"workspace": {"root": "/", "read_roots": ["/skills"], "excluded": [".git", "build/out"], "allow_outside": true}}, []],
	[{"workspace": "/ws"}, ["workspace"]],
	[{"workspace": {}}, ["workspace.root"]],
	[{"workspace": {"root": "ws"}}, ["workspace.root"]],
	[{"workspace": {"root": "/ws", "read_roots": ["skills"]}}, ["workspace.read_roots"]],
	[{"workspace": {"root": "/ws", "read_roots": "/skills"}}, ["workspace.read_roots"]],
	[{"workspace": {"root": "/ws", "excluded": ["/ws/.git", "../x", "a/./b"]}}, ["workspace.excluded"]],
	[{"workspace": {"root": "/ws", "allow_outside": "true"}}, ["workspace.allow_outside"]],
	[{"workspace": {"root": "/ws", "read_roots": null, "excluded": null, "allow_outside": null, "other": 1}}, []],
	[{"workspace": {"root": null}}, ["workspace.root"]],
	[{"workspace": {"root": "/ws/caf\u00e9", "excluded": ["caf\u00e9"]}}, []],
	[{"workspace": {"root": "/ws/a\u0301\u0300\u0323"}}, ["workspace.root"]],
	[
		{"workspace": {"root": "/", "read_roots": ["/a", 3], "excluded": ["a", "", 3], "allow_outside": 1}},
		["workspace.allow_outside", "workspace.excluded", "workspace.read_roots"],
	],
]

test_workspace_errors if {
	mismatches := {[doc, got, want] |
		some [doc, want] in workspace_error_cases
		got := [e.field | some e in paths.workspace_errors(doc)]
		got != want
	}
	mismatches == set()
}
