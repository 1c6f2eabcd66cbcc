# Cases from the runtimes' own tests and documentation, ported to
# tooleval's argument rules under the shipped configuration
# (run_shell_command's command is the argument command rules read). Each
# row cites its source:
#
# - Gemini CLI: google-gemini/gemini-cli, packages/core/src/policy/
#   (PE below), at commit 5411f113.
# - Codex: openai/codex, codex-rs/execpolicy/tests/basic.rs (CE),
#   codex-rs/core/src/exec_policy_tests.rs (CT), codex-rs/shell-command/
#   src/bash.rs (SH), and https://developers.openai.com/codex/rules
#   ("codex rules").
#
# A Gemini rule that does not match leaves the call to the default
# decision (ASK_USER); here the layer's allow list does not let it
# through (not_allowed). Codex's prompt is ask, forbidden is deny. Where
# tooleval is stricter than the runtime, the row says so ("stricter").
package tooleval.arguments_test

allow_rules(prefixes) := {"name": "team", "allow": [{"tool": shell, "command_prefix": p} | some p in prefixes]}

# [source, layer, command, expected outcome]
gemini_word_rows := [
	["PE/shell-safety.test.ts: SHOULD match git log exactly", allow_rules(["git log"]), "git log", allowed],
	[
		"PE/shell-safety.test.ts: SHOULD match git log with arguments",
		allow_rules(["git log"]),
		"git log --oneline",
		allowed,
	],
	[
		"PE/shell-safety.test.ts: SHOULD NOT match git logout (strict word boundary)",
		allow_rules(["git log"]),
		"git logout",
		not_allowed("team"),
	],
	["PE/shell-safety.test.ts: && separator", allow_rules(["git log"]), "git log && rm -rf /", not_allowed("team")],
	["PE/shell-safety.test.ts: ; separator", allow_rules(["git log"]), "git log; rm -rf /", not_allowed("team")],
	["PE/shell-safety.test.ts: || separator", allow_rules(["git log"]), "git log || rm -rf /", not_allowed("team")],
	["PE/shell-safety.test.ts: piped commands", allow_rules(["git log"]), "git log | rm -rf /", not_allowed("team")],
	["PE/shell-safety.test.ts: parse failure", allow_rules(["git log"]), "git log &&& rm -rf /", not_allowed("team")],
	["PE/shell-safety.test.ts: command substitution", allow_rules(["echo"]), "echo $(rm -rf /)", not_allowed("team")],
	[
		"PE/shell-safety.test.ts: inner command also allowed (stricter: a substitution is never read)",
		allow_rules(["echo", "git"]),
		"echo $(git log)",
		not_allowed("team"),
	],
]

# [source, layer, command, expected outcome], continued
gemini_compound_rows := [
	[
		"PE/shell-safety.test.ts: generic redirection",
		allow_rules(["git log"]),
		"git log > /tmp/test",
		not_allowed("team"),
	],
	[
		"PE/shell-safety.test.ts: SHOULD match DENY rule even if nested/chained",
		{"name": "team", "deny": [{"tool": shell, "command_prefix": "git push"}]},
		"git commit -m \"msg\" && git push",
		denied("team"),
	],
	[
		"PE/shell-safety-regression.test.ts: echo hi && ls, echo allowed",
		allow_rules(["echo"]),
		"echo hi && ls",
		not_allowed("team"),
	],
	[
		"PE/shell-safety-regression.test.ts: echo hi && ls, echo and ls allowed",
		allow_rules(["echo", "ls"]),
		"echo hi && ls",
		allowed,
	],
	[
		"PE/shell-safety-regression.test.ts: echo hi & ls, echo and ls allowed",
		allow_rules(["echo", "ls"]),
		"echo hi & ls",
		allowed,
	],
	[
		"PE/shell-safety-regression.test.ts: a pipe, echo allowed",
		allow_rules(["echo"]),
		"echo hi | grep \"hi\"",
		not_allowed("team"),
	],
	[
		"PE/shell-safety-regression.test.ts: a pipe, echo and grep allowed",
		allow_rules(["echo", "grep"]),
		"echo hi | grep \"hi\"",
		allowed,
	],
	[
		"PE/policy-engine.test.ts: commands with quotes in commandPrefix",
		allow_rules(["git commit -m \"fix\""]),
		"git commit -m \"fix\"",
		allowed,
	],
	[
		"PE/policy-engine.test.ts: DENY from any sub-command",
		{"name": "team", "allow": [{"tool": shell, "command_prefix": "echo"}], "deny": [{"tool": shell, "command_prefix": "rm"}]},
		"echo hello && rm -rf /",
		denied("team"),
	],
	[
		"PE/policy-engine.test.ts: compound with redirection",
		allow_rules(["mkdir", "echo"]),
		"mkdir -p \"bar\" && echo \"hello\" > bar/test.md",
		not_allowed("team"),
	],
	[
		"PE/policy-engine.test.ts: quoted redirection characters",
		allow_rules(["mkdir", "echo"]),
		"echo \"-> arrow\"",
		allowed,
	],
]

test_gemini_rows if {
	rows := array.concat(gemini_word_rows, gemini_compound_rows)
	got := [rule_outcomes([row[1]], [cmd(row[2])])[0] | some row in rows]
	[[row[0], row[2], got[i], row[3]] | some i, row in rows; got[i] != row[3]] == []
}

# Gemini's argsPattern is matched against the arguments as a stable JSON
# string, whatever the order of their members
# (PE/policy-engine.test.ts: should match args pattern regardless of
# property order; docs/reference/policy-engine.md).
test_gemini_args_pattern_rows if {
	layer := {"name": "team", "deny": [{"tool": shell, "args_pattern": `"command":"rm[^"]*-rf`}]}
	rule_outcomes([layer], [
		[shell, {"command": "rm -rf /", "path": "/home"}],
		[shell, {"path": "/home", "command": "rm -rf /"}],
		[shell, {"command": "ls -la", "path": "/home"}],
	]) == [denied("team"), denied("team"), allowed]
}

codex_prompt_git := {
	"name": "team",
	"deny": [{"tool": shell, "command_prefix": "git commit"}],
	"ask": [{"tool": shell, "command_prefix": "git"}],
}

# [source, layer, command, expected outcome]
codex_rows := [
	["CE basic_match", allow_rules(["git status"]), "git status", allowed],
	["CE strictest_decision_wins_across_matches", codex_prompt_git, "git status", asked("team")],
	["CE strictest_decision_wins_across_matches", codex_prompt_git, "git commit -m hi", denied("team")],
	[
		"CE strictest_decision_across_multiple_commands",
		codex_prompt_git,
		"git status && git commit -m hi",
		denied("team"),
	],
	[
		"CE match_and_not_match_examples_are_enforced",
		allow_rules(["git status"]),
		"git --config color.status=always status",
		not_allowed("team"),
	],
	[
		"codex rules: gh pr view",
		{"name": "team", "ask": [{"tool": shell, "command_prefix": "gh pr view"}]},
		"gh pr view 7888 --json title,body,comments",
		asked("team"),
	],
	[
		"codex rules: not an exact prefix (stricter: a deny or ask finds its words in order)",
		{"name": "team", "ask": [{"tool": shell, "command_prefix": "gh pr view"}]},
		"gh pr --repo openai/codex view 7888",
		asked("team"),
	],
	[
		"CE example.codexpolicy: git reset --hard not_match",
		{"name": "team", "deny": [{"tool": shell, "command_prefix": "git reset --hard"}]},
		"git reset --keep",
		allowed,
	],
	[
		"CT evaluates_bash_lc_inner_commands (stricter: a wrapper is never read)",
		{"name": "team", "deny": [{"tool": shell, "command_prefix": "rm"}]},
		"bash -lc 'rm -rf /some/important/folder'",
		denied("team"),
	],
	["codex rules: shell wrappers", allow_rules(["git add"]), "bash -lc 'git add . && rm -rf /'", not_allowed("team")],
	[
		"SH accepts_multiple_commands_with_allowed_operators",
		allow_rules(["ls", "pwd", "echo", "wc"]),
		"ls && pwd; echo 'hi there' | wc -l",
		allowed,
	],
	["SH rejects redirection", allow_rules(["ls"]), "ls > out.txt", not_allowed("team")],
	["SH rejects command substitution", allow_rules(["echo", "pwd"]), "echo $(pwd)", not_allowed("team")],
	["SH rejects variable expansion", allow_rules(["echo"]), "echo $HOME", not_allowed("team")],
	["SH rejects an assignment in front", allow_rules(["ls"]), "FOO=bar ls", not_allowed("team")],
	["SH rejects a subshell", allow_rules(["ls"]), "(ls)", not_allowed("team")],
	["SH rejects a trailing operator", allow_rules(["ls"]), "ls &&", not_allowed("team")],
	[
		"SH rejects & (tooleval reads both parts of a background command)",
		allow_rules(["echo"]),
		"echo hi & echo bye",
		allowed,
	],
]

test_codex_rows if {
	got := [rule_outcomes([row[1]], [cmd(row[2])])[0] | some row in codex_rows]
	[[row[0], row[2], got[i], row[3]] | some i, row in codex_rows; got[i] != row[3]] == []
}
