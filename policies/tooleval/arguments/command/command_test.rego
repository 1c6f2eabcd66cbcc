package tooleval.arguments.command_test

import data.tooleval.arguments_test

# When a deny or ask command rule bites (an over-approximation of what a
# part may run) and when an allow matches (only an exact part). Each row
# is a command bash 5.2 runs as the comment says.
biting_layers := [
	{"name": "team", "allow": [arguments_test.shell]},
	{
		"name": "guard",
		"deny": [
			{"tool": arguments_test.shell, "command_prefix": "rm"},
			{"tool": arguments_test.shell, "command_prefix": "git push"},
			{"tool": arguments_test.shell, "command_prefix": "touch"},
		],
		"ask": [
			{"tool": arguments_test.shell, "command_prefix": "npm publish"},
			{"tool": arguments_test.shell, "command_prefix": "npm uninstall"},
			{"tool": arguments_test.shell, "command_prefix": "cargo publish"},
			{"tool": arguments_test.shell, "command_prefix": "chmod -R"},
		],
	},
]

# [class, command, expected outcome under biting_layers]
biting_rows := [row |
	some rows in [_assignment_rows, _builtin_rows, _program_rows, _alias_rows, _unbitten_rows]
	some row in rows
]

_assignment_rows := [
	# assignments in front of a command: every form bash takes
	["assignment", "X+=1 rm -f f", arguments_test.denied("guard")],
	["assignment", "X=1 rm -f f", arguments_test.denied("guard")],
	["assignment", "_a1+=x rm -f f", arguments_test.denied("guard")],
	["assignment", "a['k']=1 rm -f f", arguments_test.denied("guard")],
	["assignment", "a[1]+=1 rm -f f", arguments_test.denied("guard")],
]

_builtin_rows := [
	# builtins that run a string or a function
	["runs a string", "jobs -x rm f", arguments_test.denied("guard")],
	["runs a string", "compgen -C 'rm f' x", arguments_test.denied("guard")],
	["runs a string", "compgen -W x", arguments_test.denied("guard")],
	["runs a string", "mapfile -C 'rm f' -c 1 a", arguments_test.denied("guard")],
	["runs a string", "readarray -C f -c 1 a", arguments_test.denied("guard")],
	["runs a string", "complete -C 'rm f' x", arguments_test.denied("guard")],
	["runs a string", "bind -x 'x:rm f'", arguments_test.denied("guard")],
	# builtins that evaluate a word as code
	["evaluates", "printf -v 'a[$(touch p)]' x", arguments_test.denied("guard")],
	["evaluates", "read -r 'a[1]'", arguments_test.denied("guard")],
	["evaluates", "unset 'a[1]'", arguments_test.denied("guard")],
	["evaluates", "wait -p 'a[1]'", arguments_test.denied("guard")],
	["evaluates", "printf -v RANDOM x", arguments_test.denied("guard")],
	["evaluates", "read OPTIND", arguments_test.denied("guard")],
	["evaluates", "let x", arguments_test.denied("guard")],
	["evaluates", "set -k", arguments_test.denied("guard")],
	["evaluates", "set -o keyword", arguments_test.denied("guard")],
]

_program_rows := [
	# programs that run their arguments: P as any later word
	["runs its arguments", "setarch x86_64 rm f", arguments_test.denied("guard")],
	["runs its arguments", "fakeroot rm f", arguments_test.denied("guard")],
	["runs its arguments", "dbus-run-session -- rm f", arguments_test.denied("guard")],
	["runs its arguments", "x86_64 ./sbin/git push", arguments_test.denied("guard")],
	["runs its arguments", "linux64 sbin/GIT.exe status", arguments_test.denied("guard")],
	["runs its arguments", "find . -exec rm '{}' +", arguments_test.denied("guard")],
	# P inside a string a program may run as a command
	["string", "sed '1e rm x' f", arguments_test.denied("guard")],
	["string", "sed -n 's/x/rm/ep' f", arguments_test.denied("guard")],
	["string", "sed 'e rm f' f", arguments_test.denied("guard")],
	["string", "awk 'BEGIN{system(\"rm x\")}'", arguments_test.denied("guard")],
	["string", "git -c alias.p='!rm x' p", arguments_test.denied("guard")],
	["string", "sed '1e /usr/bin/rm x' f", arguments_test.denied("guard")],
	["string", "sed '1e r\"\"m x' f", arguments_test.denied("guard")],
	["string", "sed '1e r\\m x' f", arguments_test.denied("guard")],
	["string", "sed '1e /bin/r? x' f", arguments_test.denied("guard")],
	["string", "sed '1e /bin/[r]m x' f", arguments_test.denied("guard")],
	["string", "sed '1e r{m,} x' f", arguments_test.denied("guard")],
	["string", "sed '1e r{l..n} x' f", arguments_test.denied("guard")],
	["string", "sed '1e $x' f", arguments_test.denied("guard")],
	["string", "sed '1e `x`' f", arguments_test.denied("guard")],
	["string", "find . -exec sh ';'", arguments_test.denied("guard")],
	# tmux new-session runs its string with a shell
	["string, not opaque", "tmux new-session '/bin/r? x'", arguments_test.denied("guard")],
	["string, not opaque", "tmux new-session '/bin/[r]m x'", arguments_test.denied("guard")],
	["string, not opaque", "tmux new-session 'r{m,} x'", arguments_test.denied("guard")],
	["string, not opaque", "tmux new-session '$x'", arguments_test.denied("guard")],
	["string, not opaque", "tmux new-session 'r\\m x'", arguments_test.denied("guard")],
	["string, not opaque", "tmux new-session 'r\"\"m x'", arguments_test.denied("guard")],
	["string, not opaque", "tmux new-session 'ls /bin'", arguments_test.allowed],
	["code from input or a file", "sed -n e s", arguments_test.denied("guard")],
	["code from input or a file", "sed -n '1e' s", arguments_test.denied("guard")],
	["code from input or a file", "sed 's/^/r/e' s", arguments_test.denied("guard")],
	["code from input or a file", "sed -f e.sed f", arguments_test.denied("guard")],
	["code from input or a file", "awk '{system($0)}' s", arguments_test.denied("guard")],
	["code from input or a file", "awk -f a.awk f", arguments_test.denied("guard")],
	["string", "find . -exec xargs ';'", arguments_test.denied("guard")],
]

_alias_rows := [
	# aliases, abbreviations and redefinitions of a program's commands
	["alias", "git -c alias.p=push p", arguments_test.denied("guard")],
	["alias", "git -c help.autocorrect=1 psuh", arguments_test.denied("guard")],
	["alias", "git --config-env=alias.p=V p", arguments_test.denied("guard")],
	["alias", "git pus origin", arguments_test.denied("guard")],
	["alias", "npm pu", arguments_test.asked("guard")],
	["alias", "npm publis --tag x", arguments_test.asked("guard")],
	["alias", "npm r left-pad", arguments_test.asked("guard")],
	["alias and a later word of a program not known to be inert", "npm rm left-pad", arguments_test.denied("guard")],
	["alias", "npm rem left-pad", arguments_test.asked("guard")],
	["alias", "npm un left-pad", arguments_test.asked("guard")],
	["alias", "cargo --config alias.x=publish x", arguments_test.asked("guard")],
	["options", "chmod -R 755 d", arguments_test.asked("guard")],
	["options", "chmod -vR 755 d", arguments_test.asked("guard")],
	["options", "chmod -v -R 755 d", arguments_test.asked("guard")],
]

_unbitten_rows := [
	# not bitten: an inert program's words, other commands
	["inert", "ls rm git push", arguments_test.allowed],
	["inert", "echo 'rm -rf /'", arguments_test.allowed],
	["inert", "grep -r rm .", arguments_test.allowed],
	["other words", "git status", arguments_test.allowed],
	["other words", "git log -p", arguments_test.allowed],
	["other words", "npm test", arguments_test.allowed],
	["other words", "npm install", arguments_test.allowed],
	["other words", "chmod 755 d", arguments_test.allowed],
	["other words", "awk '{print $1}' f", arguments_test.allowed],
	["other words", "sed -n 1p f", arguments_test.allowed],
	["other words", "printf '%s\\n' x", arguments_test.allowed],
	["other words", "read -r x", arguments_test.allowed],
	["other words", "set -e", arguments_test.allowed],
	["other program", "rmdir x", arguments_test.allowed],
	# ~ and ^ that bash leaves as they are
	["tilde", "git diff HEAD~1", arguments_test.allowed],
	["tilde", "git show HEAD^", arguments_test.allowed],
	["tilde", "echo --x=~ a==~ a=x=~ x~", arguments_test.allowed],
]

test_deny_and_ask_rules_bite_what_a_part_may_run if {
	got := arguments_test.rule_outcomes(biting_layers, [arguments_test.cmd(row[1]) | some row in biting_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in biting_rows; got[i] != row[2]] == []
}

exact_layer := {"name": "team", "allow": [
	{"tool": arguments_test.shell, "command_prefix": "find"},
	{"tool": arguments_test.shell, "command_prefix": "sed"},
	{"tool": arguments_test.shell, "command_prefix": "awk"},
	{"tool": arguments_test.shell, "command_prefix": "git"},
	{"tool": arguments_test.shell, "command_prefix": "printf"},
	{"tool": arguments_test.shell, "command_prefix": "read"},
	{"tool": arguments_test.shell, "command_prefix": "test"},
	{"tool": arguments_test.shell, "command_prefix": "let"},
	{"tool": arguments_test.shell, "command_prefix": "unset"},
	{"tool": arguments_test.shell, "command_prefix": "less"},
	{"tool": arguments_test.shell, "command_prefix": "tar"},
]}

# [command, expected outcome under exact_layer]: an allow matches only a
# part that runs exactly its words and evaluates none of them as code.
exact_rows := [
	["find . -name x", arguments_test.allowed],
	["find . -exec ls ';'", arguments_test.not_allowed("team")],
	["find . -okdir ls ';'", arguments_test.not_allowed("team")],
	["sed -n 1p f", arguments_test.allowed],
	["sed -e s/a/b/ f", arguments_test.allowed],
	["sed '1e ls' f", arguments_test.not_allowed("team")],
	["sed -n 'e ls' f", arguments_test.not_allowed("team")],
	["sed -n 's/x/id/ep' f", arguments_test.not_allowed("team")],
	["awk 'system(\"ls\")' f", arguments_test.not_allowed("team")],
	["sed s/a/b/e f", arguments_test.not_allowed("team")],
	["sed -f script f", arguments_test.not_allowed("team")],
	["sed -nf script f", arguments_test.not_allowed("team")],
	["awk '{print $1}' f", arguments_test.allowed],
	["awk 'BEGIN{system(\"ls\")}'", arguments_test.not_allowed("team")],
	["awk '{print | \"sort\"}' f", arguments_test.not_allowed("team")],
	["awk -f prog f", arguments_test.not_allowed("team")],
	["git status", arguments_test.allowed],
	["git diff HEAD~1", arguments_test.allowed],
	["git -c core.pager=ls log", arguments_test.not_allowed("team")],
	["git --config-env=core.pager=V log", arguments_test.not_allowed("team")],
	["git rebase -x ls main", arguments_test.not_allowed("team")],
	["git difftool", arguments_test.not_allowed("team")],
	["printf '%s' x", arguments_test.allowed],
	["printf -v x '%s' y", arguments_test.allowed],
	["printf -v 'a[$(touch p)]' x", arguments_test.not_allowed("team")],
	["printf -v SRANDOM x", arguments_test.not_allowed("team")],
	["read -r x", arguments_test.allowed],
	["read -r 'a[1]'", arguments_test.not_allowed("team")],
	["read HISTCMD", arguments_test.not_allowed("team")],
	["test -f x", arguments_test.allowed],
	["test -v 'a[$(touch p)]'", arguments_test.not_allowed("team")],
	["let x", arguments_test.not_allowed("team")],
	["unset x", arguments_test.allowed],
	["unset -v 'a[1]'", arguments_test.not_allowed("team")],
	["less f", arguments_test.not_allowed("team")],
	["tar -xzf a.tgz", arguments_test.allowed],
	["tar -xz --to-command=ls -f a.tgz", arguments_test.not_allowed("team")],
	["tar -I zstd -xf a.tar", arguments_test.not_allowed("team")],
]

test_allows_match_only_exact_parts if {
	got := arguments_test.rule_outcomes([exact_layer], [arguments_test.cmd(row[0]) | some row in exact_rows])
	[[row[0], got[i], row[1]] | some i, row in exact_rows; got[i] != row[1]] == []
}
