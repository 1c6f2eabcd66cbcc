package tooleval.paths_test

import data.tooleval.paths

workspace := {"root": "/ws", "read_roots": ["/skills"], "excluded": [".git", "target"], "allow_outside": false}

# [access, path, rule or "ok"]
rule_cases := [
	["read", "/ws/README.md", "ok"],
	["read", "/ws", "ok"],
	["read", "/skills/pdf/SKILL.md", "ok"],
	["read", "/etc/passwd", "not_readable"],
	["read", "/wsx/a", "not_readable"],
	["read", "/ws/.ssh/id_rsa", "ok"],
	["read", "/ws/.git/hooks/pre-commit", "ok"],
	["read", "ws/a", "unresolved"],
	["read", "/ws/../etc", "unresolved"],
	["read", "/ws/./a", "unresolved"],
	["read", "/ws//a", "unresolved"],
	["read", "/ws/a/", "unresolved"],
	["read", "", "unresolved"],
	["read", "/ws/a\u0000b", "unresolved"],
	["read", 42, "unresolved"],
	["write", "/ws/src/main.go", "ok"],
	["write", "/ws/.gitignore", "ok"],
	["write", "/ws/.github/workflows/ci.yml", "ok"],
	["write", "/wsx/a", "outside_workspace"],
	["write", "/skills/pdf/SKILL.md", "outside_workspace"],
	["write", "/", "outside_workspace"],
	["write", "/ws/.ssh/authorized_keys", "sensitive"],
	["write", "/ws/home/.AWS/credentials", "sensitive"],
	["write", "/ws/.git/hooks", "sensitive"],
	["write", "/ws/sub/.Git/Hooks/post-merge", "sensitive"],
	["write", "/ws/.git/config", "excluded"],
	["write", "/ws/.git", "excluded"],
	["write", "/ws/target/app.jar", "excluded"],
	["write", "/ws/TARGET/app.jar", "excluded"],
	["write", "/ws/targets/app.jar", "ok"],
	["write", "/ws/src/target/x", "ok"],
]

rule_of(access, path) := r.rule if {
	r := paths.refusal(workspace, {"path": access}, {"path": path})
} else := "ok"

test_path_rules if {
	mismatches := {[access, path, got, want] |
		some [access, path, want] in rule_cases
		got := rule_of(access, path)
		got != want
	}
	mismatches == set()
	count([c | some c in rule_cases; rule_of(c[0], c[1])]) == count(rule_cases)
}

test_allow_outside_lets_writes_out_but_keeps_blocklists if {
	outside := object.union(workspace, {"allow_outside": true})
	not paths.refusal(outside, {"path": "write"}, {"path": "/tmp/out.txt"})
	paths.refusal(outside, {"path": "write"}, {"path": "/home/u/.ssh/config"}).rule == "sensitive"
	paths.refusal(outside, {"path": "read"}, {"path": "/tmp/out.txt"}).rule == "not_readable"
}

test_root_workspace if {
	root := {"root": "/", "read_roots": [], "excluded": ["tmp"], "allow_outside": false}
	not paths.refusal(root, {"path": "write"}, {"path": "/etc/x"})
	paths.refusal(root, {"path": "write"}, {"path": "/tmp/x"}).rule == "excluded"
}

test_missing_argument_is_not_checked if {
	not paths.refusal(workspace, {"cwd": "write"}, {"command": "ls"})
	not paths.refusal(workspace, {"cwd": "write"}, {"cwd": null})
}

test_non_object_args_are_unresolved if {
	paths.refusal(workspace, {"path": "read"}, "README.md") == {"rule": "unresolved", "argument": "path", "path": null}
}

test_first_argument_in_name_order if {
	r := paths.refusal(workspace, {"target": "write", "source": "read"}, {"source": "/etc/a", "target": "/etc/b"})
	r == {"rule": "not_readable", "argument": "source", "path": "/etc/a"}
}

test_workspace_normalization if {
	paths.workspace({}) == null
	paths.workspace({"workspace": null}) == null
	paths.workspace({"workspace": {"root": "/ws"}}) == {"root": "/ws", "read_roots": [], "excluded": [], "allow_outside": false}
	paths.workspace({"workspace": {"read_roots": ["/a", 3], "excluded": "x", "allow_outside": "yes"}}) == {
		"root": "/nonexistent", "read_roots": ["/a"], "excluded": [], "allow_outside": false,
	}
}

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
]

test_workspace_errors if {
	mismatches := {[doc, got, want] |
		some [doc, want] in workspace_error_cases
		got := [e.field | some e in paths.workspace_errors(doc)]
		got != want
	}
	mismatches == set()
}

test_path_argument_config_errors if {
	paths.config_errors({}) == []
	paths.config_errors({"path_arguments": {"read_file": {"path": "read"}}}) == []
	[e.message | some e in paths.config_errors({"path_arguments": []})] == ["config.path_arguments must be an object"]
	[e.tool | some e in paths.config_errors({"path_arguments": {"Read_File": {"path": "read"}, "x": {"p": "exec"}, "y": "read"}})] == ["Read_File", "x", "y"]
}
