package tooleval.arguments.paths_test

import data.tooleval.arguments.paths
import data.tooleval.configuration

# The first path refusal of a call whose arguments are args, or undefined.
first_refusal(workspace, path_arguments, args) := paths.call_refusals(workspace, path_arguments, {"args": args})[0]

raw_workspace := {"root": "/ws", "read_roots": ["/skills"], "excluded": [".git", "target"], "allow_outside": false}

# compiled is a workspace as the compiled context holds it, with the
# sensitive paths in force.
compiled(raw) := paths.workspace({"workspace": raw}, configuration.sensitive_paths(configuration.config))

workspace := compiled(raw_workspace)

read := {"read"}

write := {"write"}

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
	# A path not in NFC is unresolved: a server that matches names under
	# NFC (the MCP filesystem server) opens another file. U+212A KELVIN
	# SIGN and U+2126 OHM SIGN are K and Ω under NFC; e + U+0301 is é.
	["read", "/ws/\u212adocs/a", "unresolved"],
	["write", "/ws/\u212aeys/authorized_keys", "unresolved"],
	["write", "/ws/\u2126/x", "unresolved"],
	["read", "/ws/cafe\u0301", "unresolved"],
	["read", "/ws/caf\u00e9", "ok"],
	["read", "/ws/Kdocs/a", "ok"],
	["read", "unresolved-dotdot:/ws/L/../x", "unresolved"],
	["read", "unresolved-unicode:/ws/d\u00e9tour/x", "unresolved"],
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
	# Segments compare by their key: case folding, upper-casing first
	# (dotless i), compatibility forms, trailing dots and spaces.
	["write", "/ws/.\u017fsh/authorized_keys", "sensitive"],
	["write", "/ws/.g\u0131t/hooks/pre-commit", "sensitive"],
	["write", "/ws/.\uff33\uff33\uff28/config", "sensitive"],
	["write", "/ws/.ssh./config", "sensitive"],
	["write", "/ws/.ssh /config", "sensitive"],
	["write", "/ws/.s\u200bsh/config", "sensitive"],
	["write", "/ws/.g\u0131t/config", "excluded"],
	["write", "/ws/\uff34arget/app.jar", "excluded"],
	["write", "/ws/.sshx/config", "ok"],
	["write", "/ws/.git-hooks/x", "ok"],
	["write", "/ws/hooks/.git", "ok"],
	["write", "/ws/a/.git/hooks", "sensitive"],
	# A segment with no canonical form cannot be compared: unresolved. (It
	# is not in NFC either, so it is unresolved when read as well.)
	["write", "/ws/a\u0301\u0300\u0323", "unresolved"],
	["read", "/ws/a\u0301\u0300\u0323", "unresolved"],
	# ~ and $VAR are never expanded.
	["write", "~/.bashrc", "unresolved"],
	["read", "$HOME/.bashrc", "unresolved"],
	["write", "~", "unresolved"],
]

# [access, path, rule or "ok"]: the boundaries of the fast path: a
# sibling that starts like the root, the root itself, trailing slashes,
# names that contain a sensitive name, case, segments that are not ASCII
# next to ones that are.
boundary_cases := [
	["read", "/ws2/a", "not_readable"],
	["read", "/skills2/a", "not_readable"],
	["write", "/ws2", "outside_workspace"],
	["write", "/ws", "ok"],
	["write", "/WS/a", "outside_workspace"],
	["write", "/ws/", "unresolved"],
	["read", "/skills/", "unresolved"],
	["write", "/ws/.gitignore/hooks", "ok"],
	["write", "/ws/my.ssh/x", "ok"],
	["write", "/ws/.ssh.bak/x", "ok"],
	["write", "/ws/x/.GIT/HOOKS", "sensitive"],
	["write", "/ws/x/.git/hooks.d", "ok"],
	["write", "/ws/caf\u00e9/.ssh/k", "sensitive"],
	["write", "/ws/caf\u00e9/.git/hooks", "sensitive"],
	["write", "/ws/.ssh/caf\u00e9", "sensitive"],
	["write", "/ws/caf\u00e9/a", "ok"],
	["write", "/ws/\tTarget/x", "excluded"],
	["write", "/ws/target\u00a0/x", "excluded"],
	["write", "/ws/.../x", "ok"],
]

rule_of(access, path) := r.rule if {
	r := first_refusal(workspace, {"path": {access: true}}, {"path": path})
} else := "ok"

test_path_rules if {
	cases := array.concat(rule_cases, boundary_cases)
	mismatches := {[access, path, got, want] |
		some [access, path, want] in cases
		got := rule_of(access, path)
		got != want
	}
	mismatches == set()
	count([c | some c in cases; rule_of(c[0], c[1])]) == count(cases)
}

# The common case of call_refusals (one string path, accesses as the
# configuration writes them) gives what the general case gives (accesses
# as a set, which the common case does not read).
test_the_common_case_is_the_general_case if {
	cases := array.concat(rule_cases, boundary_cases)
	mismatches := {[access, path] |
		some [access, path, _] in cases
		common := paths.call_refusals(workspace, {"path": {access: true}}, {"args": {"path": path}})
		general := paths.call_refusals(workspace, {"path": {access}}, {"args": {"path": path}})
		common != general
	}
	mismatches == set()
	call := {"args": {"path": "/etc/x"}}
	both := paths.call_refusals(workspace, {"path": {"read": true, "write": true}}, call)
	both == paths.call_refusals(workspace, {"path": {"read", "write"}}, call)
	both[0].rule == "outside_workspace"
}

# A call's arguments are its args; absent or null, it has none.
test_a_call_without_args_has_no_path_to_refuse if {
	paths.call_refusals(workspace, {"path": {"write": true}}, {"id": "c"}) == []
	paths.call_refusals(workspace, {"path": {"write": true}}, {"args": null}) == []
	paths.call_refusals(workspace, {"path": {"write": true}}, "call") == []
	paths.call_refusals(workspace, {"path": {"write": true}}, {"args": "/etc/x"})[0].rule == "unresolved"
}

# [path, plain]: a plain path's keys are the lower case of its segments.
plain_cases := [
	["/ws/src/main.go", true],
	["/ws/A b/C", true],
	["/ws/a\u0001b", true],
	["/ws/.a", true],
	["/ws", true],
	["/", false],
	["/ws/", false],
	["/ws//a", false],
	["/ws/a.", false],
	["/ws/...", false],
	["/ws/a ", false],
	["/ws/ a", false],
	["/ws/\ta", false],
	["/ws/a\u000b", false],
	["/ws/caf\u00e9", false],
	["/ws/a\u0000b", false],
	["ws/a", false],
]

test_plain_paths if {
	mismatches := {[path, want] |
		some [path, want] in plain_cases
		got := paths._plain_path(path) == true
		got != want
	}
	mismatches == set()
	count([p | some [p, _] in plain_cases; paths._plain_path(p)]) == 5
}

# 256 characters are a segment's most on the fast path; a longer segment
# has no key, and a written path with one is unresolved.
test_plain_segment_length if {
	long := concat("", [c | some _ in numbers.range(1, 256); c := "a"])
	paths._plain_path(concat("/", ["/ws", long]))
	paths._plain_path(concat("/", ["/ws", long, "x"]))
	not paths._plain_path(concat("", ["/ws/", long, "a"]))
	rule_of("write", concat("", ["/ws/", long, "a"])) == "unresolved"
	rule_of("read", concat("", ["/ws/", long, "a"])) == "ok"
	rule_of("write", concat("/", ["/ws", long])) == "ok"
}

# On every plain path the fast keyed form is the one built key by key.
test_keyed_fast_path_is_the_exact_one if {
	plain := {p |
		some set_name, path_set in oracle_path_sets
		some p in path_set
		paths._plain_path(p)
	}
	count(plain) > 50
	mismatches := {p |
		some p in plain
		paths._keyed_path(p) != paths._keyed(paths.path_keys(p))
	}
	mismatches == set()
}

# Relative paths keyed all at once are keyed as one by one.
test_keyed_relatives if {
	lists := [
		[".ssh", ".aws", ".git/hooks"],
		[".SSH", "A b/C\u0001d"],
		[".ssh"],
		[],
		[".ssh", 3],
		[".ssh", ""],
		["a//b"],
		["/a"],
		["a/"],
		[".ssh."],
		["a/\u0080/b"],
		["a\u0080b", "c"],
		["caf\u00e9", ".ssh"],
		["\u0080"],
	]
	mismatches := {[list, got, want] |
		some list in lists
		got := paths._keyed_relatives(list)
		want := [k | some p in list; is_string(p); k := paths._keyed(paths._relative_keys(p))]
		got != want
	}
	mismatches == set()
	paths._keyed_relatives([".ssh", ".git/Hooks"]) == ["\u0000.ssh\u0000", "\u0000.git\u0000hooks\u0000"]
}

# The literal regular expressions are these parts put together.
test_regular_expressions_are_their_parts if {
	clean := `(?:[^/\x00.][^/\x00]*|\.[^/\x00.][^/\x00]*|\.\.[^/\x00]+)`
	paths._absolute_clean_regex == concat("", [`^/$|^(?:/`, clean, `)+$`])
	paths._relative_clean_regex == concat("", ["^", clean, "(?:/", clean, ")*$"])

	# ASCII but NUL and /; the first not white space (tab, LF, VT, FF, CR,
	# space); the last not white space nor a dot.
	inner := `[\x01-\x2e\x30-\x7f]`
	first := `[\x01-\x08\x0e-\x1f\x21-\x2e\x30-\x7f]`
	last := `[\x01-\x08\x0e-\x1f\x21-\x2d\x30-\x7f]`
	plain := concat("", ["(?:", last, "|", first, inner, "{0,254}", last, ")"])
	paths._plain_path_regex == concat("", ["^(?:/", plain, ")+$"])
}

test_allow_outside_lets_writes_out_but_keeps_blocklists if {
	outside := compiled(object.union(raw_workspace, {"allow_outside": true}))
	not first_refusal(outside, {"path": write}, {"path": "/tmp/out.txt"})
	first_refusal(outside, {"path": write}, {"path": "/home/u/.ssh/config"}).rule == "sensitive"
	first_refusal(outside, {"path": read}, {"path": "/tmp/out.txt"}).rule == "not_readable"
}

test_read_and_write_both_apply if {
	outside := compiled(object.union(raw_workspace, {"allow_outside": true}))
	first_refusal(outside, {"path": {"read", "write"}}, {"path": "/tmp/out.txt"}).rule == "not_readable"
	first_refusal(workspace, {"path": {"read", "write"}}, {"path": "/skills/x"}).rule == "outside_workspace"
	not first_refusal(workspace, {"path": {"read", "write"}}, {"path": "/ws/x"})
}

test_root_workspace if {
	root := compiled({"root": "/", "read_roots": [], "excluded": ["tmp"], "allow_outside": false})
	not first_refusal(root, {"path": write}, {"path": "/etc/x"})
	first_refusal(root, {"path": write}, {"path": "/tmp/x"}).rule == "excluded"
	first_refusal(root, {"path": write}, {"path": "/TMP/x"}).rule == "excluded"
}

test_missing_argument_is_not_checked if {
	not first_refusal(workspace, {"cwd": write}, {"command": "ls"})
}

# A present path argument that is not a string cannot be a path.
test_non_string_arguments_are_unresolved if {
	every value in [null, 42, true, {"p": "/ws/a"}] {
		first_refusal(workspace, {"cwd": write}, {"cwd": value}) == {"rule": "unresolved", "argument": "cwd", "path": null}
	}
}

test_lists_are_checked_element_by_element if {
	args := {"paths": ["/ws/a", "/etc/shadow", "/ws/b"]}
	first_refusal(workspace, {"paths": read}, args) == {"rule": "not_readable", "argument": "paths", "path": "/etc/shadow"}
	not first_refusal(workspace, {"paths": read}, {"paths": ["/ws/a", "/skills/b"]})
	not first_refusal(workspace, {"paths": read}, {"paths": []})
	first_refusal(workspace, {"paths": read}, {"paths": ["/ws/a", null]}) == {"rule": "unresolved", "argument": "paths", "path": null}
	first_refusal(workspace, {"paths": write}, {"paths": [["/ws/.ssh/x"]]}).rule == "unresolved"
	first_refusal(workspace, {"paths": write}, {"paths": ["/ws/a", "/ws/.ssh/k"]}).rule == "sensitive"
}

# Patch text: every file a header names is a written path, wherever the
# header is and however it is indented; text that is not a string cannot
# be read. (OpenClaw's extractor, src/agents/apply-patch-targets.ts, finds
# a subset of these lines: this one can only refuse more.)
patch := {"patch"}

test_patch_paths if {
	text := concat("\n", [
		"*** Begin Patch",
		"*** Add File: /ws/new.go",
		"+package main",
		"  *** Update File: /ws/old.go\r",
		"*** Move to: /ws/renamed.go",
		"@@",
		"-x",
		"+y",
		"*** Delete File:/ws/dead.go",
		"*** End Patch",
	])
	paths.patch_paths(text) == ["/ws/new.go", "/ws/old.go", "/ws/renamed.go", "/ws/dead.go"]
	not first_refusal(workspace, {"input": patch}, {"input": text})
	paths.patch_paths("*** Random Marker: x\n*** add file: /ws/a") == ["/ws/a"]
}

test_patch_refusals if {
	move := "*** Update File: /ws/a.go\n*** Move to: /ws/.git/hooks/pre-commit"
	first_refusal(workspace, {"input": patch}, {"input": move}) == {"rule": "sensitive", "argument": "input", "path": "/ws/.git/hooks/pre-commit"}
	first_refusal(workspace, {"input": patch}, {"input": "*** Add File: src/x.go"}).rule == "unresolved"
	first_refusal(workspace, {"input": patch}, {"input": "*** Add File: ~/.bashrc"}).rule == "unresolved"
	first_refusal(workspace, {"input": patch}, {"input": "*** Add File: @/etc/passwd"}).rule == "unresolved"
	first_refusal(workspace, {"input": patch}, {"input": "*** Delete File:"}).rule == "unresolved"
	first_refusal(workspace, {"input": patch}, {"input": "*** Add File: /etc/cron.d/x"}).rule == "outside_workspace"
	first_refusal(workspace, {"input": patch}, {"input": ["*** Add File: /ws/a"]}) == {"rule": "unresolved", "argument": "input", "path": null}
	first_refusal(workspace, {"input": patch}, {"input": null}).rule == "unresolved"
	not first_refusal(workspace, {"input": patch}, {"input": "no headers at all"})

	# a marker-like context line inside a hunk counts too (refusing more is
	# safe); a content line (+...) is content
	first_refusal(workspace, {"input": patch}, {"input": "*** Update File: /ws/a\n *** Add File: /etc/x"}).rule == "outside_workspace"
	not first_refusal(workspace, {"input": patch}, {"input": "*** Add File: /ws/a\n+*** Add File: /etc/x"})
}

test_non_object_args_are_unresolved if {
	first_refusal(workspace, {"path": read}, "README.md") == {"rule": "unresolved", "argument": "path", "path": null}
}

test_first_argument_in_name_order if {
	r := first_refusal(workspace, {"target": write, "source": read}, {"source": "/etc/a", "target": "/etc/b"})
	r == {"rule": "not_readable", "argument": "source", "path": "/etc/a"}
}

test_sensitive_paths_are_the_floor_and_the_configuration_additions if {
	ws := paths.workspace({"workspace": raw_workspace}, [".ssh", ".aws", ".git/hooks", ".gnupg", "secrets/prod"])
	first_refusal(ws, {"path": write}, {"path": "/ws/.GnuPG/x"}).rule == "sensitive"
	first_refusal(ws, {"path": write}, {"path": "/ws/a/Secrets/PROD/key"}).rule == "sensitive"
	not first_refusal(ws, {"path": write}, {"path": "/ws/secrets/dev/key"})
}

# METADATA
# description: The message of an unresolved path says why, where it can.
test_unresolved_why if {
	contains(paths.unresolved_why("unresolved-dotdot:/ws/L/../x"), `path "/ws/L/../x" names one file when its ".." is applied first`)
	contains(paths.unresolved_why("unresolved-unicode:/ws/d\u00e9tour/x"), "equivalent under Unicode normalization (NFC) to an entry")
	contains(paths.unresolved_why("/ws/\u212adocs/a"), "is not in Unicode normalization form C (NFC)")
	not paths.unresolved_why("/ws/a")
	not paths.unresolved_why("ws/a")
	not paths.unresolved_why(null)
}

# [pattern, rule or "ok"]: a glob pattern of files read is judged as
# written: nothing that could leave its directory, an absolute pattern
# only under the root or a read root.
glob_cases := [
	["**/*.go", "ok"],
	["src/*.[ch]", "ok"],
	["/ws/src/**/*.ts", "ok"],
	["/skills/*/SKILL.md", "ok"],
	["/ws", "ok"],
	["../**/*", "unresolved"],
	["src/../../etc/*", "unresolved"],
	["/ws/../etc/*", "unresolved"],
	["*.{ts,tsx}", "unresolved"],
	["{..,x}/secret", "unresolved"],
	["[.][.]/secret", "unresolved"],
	["\\.\\./secret", "unresolved"],
	["[!a][!a]/secret", "unresolved"],
	["[--0][--0]/x", "unresolved"],
	["[[:punct:]]*", "unresolved"],
	["~/.ssh/*", "unresolved"],
	["$HOME/*", "unresolved"],
	["", "unresolved"],
	["\u212a*", "unresolved"],
	["/etc/*", "not_readable"],
	["/*", "not_readable"],
	["/wsx/*", "not_readable"],
	["/**/passwd", "not_readable"],
]

glob_rule_of(pattern) := r.rule if {
	r := first_refusal(workspace, {"pattern": {"glob"}}, {"pattern": pattern})
} else := "ok"

test_glob_rules if {
	mismatches := {[pattern, got, want] |
		some [pattern, want] in glob_cases
		got := glob_rule_of(pattern)
		got != want
	}
	mismatches == set()
}

test_glob_lists_and_other_values if {
	refused := first_refusal(workspace, {"paths": {"glob"}}, {"paths": ["src/*.go", "../x"]})
	refused == {"rule": "unresolved", "argument": "paths", "path": "../x", "pattern": true}
	not first_refusal(workspace, {"paths": {"glob"}}, {"paths": ["src/*.go", "/ws/README.md"]})
	first_refusal(workspace, {"paths": {"glob"}}, {"paths": [7]}).rule == "unresolved"
	first_refusal(workspace, {"paths": {"glob"}}, {"paths": null}).rule == "unresolved"
	not first_refusal(workspace, {"paths": {"glob"}}, {})
}
