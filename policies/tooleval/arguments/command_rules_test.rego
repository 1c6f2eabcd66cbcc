package tooleval.arguments_test

# When a deny or ask command rule bites (an over-approximation of what a
# part may run) and when an allow matches (only an exact part). Each row
# is a command bash 5.2 runs as the comment says.
biting_layers := [
	{"name": "team", "allow": [shell]},
	{
		"name": "guard",
		"deny": [
			{"tool": shell, "command_prefix": "rm"},
			{"tool": shell, "command_prefix": "git push"},
			{"tool": shell, "command_prefix": "touch"},
		],
		"ask": [
			{"tool": shell, "command_prefix": "npm publish"},
			{"tool": shell, "command_prefix": "npm uninstall"},
			{"tool": shell, "command_prefix": "cargo publish"},
			{"tool": shell, "command_prefix": "chmod -R"},
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
	["assignment", "X+=1 rm -f f", denied("guard")],
	["assignment", "X=1 rm -f f", denied("guard")],
	["assignment", "_a1+=x rm -f f", denied("guard")],
	["assignment", "a['k']=1 rm -f f", denied("guard")],
	["assignment", "a[1]+=1 rm -f f", denied("guard")],
]

_builtin_rows := [
	# builtins that run a string or a function
	["runs a string", "jobs -x rm f", denied("guard")],
	["runs a string", "compgen -C 'rm f' x", denied("guard")],
	["runs a string", "compgen -W x", denied("guard")],
	["runs a string", "mapfile -C 'rm f' -c 1 a", denied("guard")],
	["runs a string", "readarray -C f -c 1 a", denied("guard")],
	["runs a string", "complete -C 'rm f' x", denied("guard")],
	["runs a string", "bind -x 'x:rm f'", denied("guard")],
	# builtins that evaluate a word as code
	["evaluates", "printf -v 'a[$(touch p)]' x", denied("guard")],
	["evaluates", "read -r 'a[1]'", denied("guard")],
	["evaluates", "unset 'a[1]'", denied("guard")],
	["evaluates", "wait -p 'a[1]'", denied("guard")],
	["evaluates", "printf -v RANDOM x", denied("guard")],
	["evaluates", "read OPTIND", denied("guard")],
	["evaluates", "let x", denied("guard")],
	["evaluates", "set -k", denied("guard")],
	["evaluates", "set -o keyword", denied("guard")],
]

_program_rows := [
	# programs that run their arguments: P as any later word
	["runs its arguments", "setarch x86_64 rm f", denied("guard")],
	["runs its arguments", "fakeroot rm f", denied("guard")],
	["runs its arguments", "dbus-run-session -- rm f", denied("guard")],
	["runs its arguments", "x86_64 ./sbin/git push", denied("guard")],
	["runs its arguments", "linux64 sbin/GIT.exe status", denied("guard")],
	["runs its arguments", "find . -exec rm '{}' +", denied("guard")],
	# P inside a string a program may run as a command
	["string", "sed '1e rm x' f", denied("guard")],
	["string", "sed -n 's/x/rm/ep' f", denied("guard")],
	["string", "sed 'e rm f' f", denied("guard")],
	["string", "awk 'BEGIN{system(\"rm x\")}'", denied("guard")],
	["string", "git -c alias.p='!rm x' p", denied("guard")],
	["string", "sed '1e /usr/bin/rm x' f", denied("guard")],
	["string", "sed '1e r\"\"m x' f", denied("guard")],
	["string", "sed '1e r\\m x' f", denied("guard")],
	["string", "sed '1e /bin/r? x' f", denied("guard")],
	["string", "sed '1e /bin/[r]m x' f", denied("guard")],
	["string", "sed '1e r{m,} x' f", denied("guard")],
	["string", "sed '1e r{l..n} x' f", denied("guard")],
	["string", "sed '1e $x' f", denied("guard")],
	["string", "sed '1e `x`' f", denied("guard")],
	["string", "find . -exec sh ';'", denied("guard")],
	# tmux new-session runs its string with a shell
	["string, not opaque", "tmux new-session '/bin/r? x'", denied("guard")],
	["string, not opaque", "tmux new-session '/bin/[r]m x'", denied("guard")],
	["string, not opaque", "tmux new-session 'r{m,} x'", denied("guard")],
	["string, not opaque", "tmux new-session '$x'", denied("guard")],
	["string, not opaque", "tmux new-session 'r\\m x'", denied("guard")],
	["string, not opaque", "tmux new-session 'r\"\"m x'", denied("guard")],
	["string, not opaque", "tmux new-session 'ls /bin'", allowed],
	["code from input or a file", "sed -n e s", denied("guard")],
	["code from input or a file", "sed -n '1e' s", denied("guard")],
	["code from input or a file", "sed 's/^/r/e' s", denied("guard")],
	["code from input or a file", "sed -f e.sed f", denied("guard")],
	["code from input or a file", "awk '{system($0)}' s", denied("guard")],
	["code from input or a file", "awk -f a.awk f", denied("guard")],
	["string", "find . -exec xargs ';'", denied("guard")],
]

_alias_rows := [
	# aliases, abbreviations and redefinitions of a program's commands
	["alias", "git -c alias.p=push p", denied("guard")],
	["alias", "git -c help.autocorrect=1 psuh", denied("guard")],
	["alias", "git --config-env=alias.p=V p", denied("guard")],
	["alias", "git pus origin", denied("guard")],
	["alias", "npm pu", asked("guard")],
	["alias", "npm publis --tag x", asked("guard")],
	["alias", "npm r left-pad", asked("guard")],
	["alias and a later word of a program not known to be inert", "npm rm left-pad", denied("guard")],
	["alias", "npm rem left-pad", asked("guard")],
	["alias", "npm un left-pad", asked("guard")],
	["alias", "cargo --config alias.x=publish x", asked("guard")],
	["options", "chmod -R 755 d", asked("guard")],
	["options", "chmod -vR 755 d", asked("guard")],
	["options", "chmod -v -R 755 d", asked("guard")],
]

_unbitten_rows := [
	# not bitten: an inert program's words, other commands
	["inert", "ls rm git push", allowed],
	["inert", "echo 'rm -rf /'", allowed],
	["inert", "grep -r rm .", allowed],
	["other words", "git status", allowed],
	["other words", "git log -p", allowed],
	["other words", "npm test", allowed],
	["other words", "npm install", allowed],
	["other words", "chmod 755 d", allowed],
	["other words", "awk '{print $1}' f", allowed],
	["other words", "sed -n 1p f", allowed],
	["other words", "printf '%s\\n' x", allowed],
	["other words", "read -r x", allowed],
	["other words", "set -e", allowed],
	["other program", "rmdir x", allowed],
	# ~ and ^ that bash leaves as they are
	["tilde", "git diff HEAD~1", allowed],
	["tilde", "git show HEAD^", allowed],
	["tilde", "echo --x=~ a==~ a=x=~ x~", allowed],
]

test_deny_and_ask_rules_bite_what_a_part_may_run if {
	got := rule_outcomes(biting_layers, [cmd(row[1]) | some row in biting_rows])
	[[row[0], row[1], got[i], row[2]] | some i, row in biting_rows; got[i] != row[2]] == []
}

exact_layer := {"name": "team", "allow": [
	{"tool": shell, "command_prefix": "find"},
	{"tool": shell, "command_prefix": "sed"},
	{"tool": shell, "command_prefix": "awk"},
	{"tool": shell, "command_prefix": "git"},
	{"tool": shell, "command_prefix": "printf"},
	{"tool": shell, "command_prefix": "read"},
	{"tool": shell, "command_prefix": "test"},
	{"tool": shell, "command_prefix": "let"},
	{"tool": shell, "command_prefix": "unset"},
	{"tool": shell, "command_prefix": "less"},
	{"tool": shell, "command_prefix": "tar"},
]}

# [command, expected outcome under exact_layer]: an allow matches only a
# part that runs exactly its words and evaluates none of them as code.
exact_rows := [
	["find . -name x", allowed],
	["find . -exec ls ';'", not_allowed("team")],
	["find . -okdir ls ';'", not_allowed("team")],
	["sed -n 1p f", allowed],
	["sed -e s/a/b/ f", allowed],
	["sed '1e ls' f", not_allowed("team")],
	["sed -n 'e ls' f", not_allowed("team")],
	["sed -n 's/x/id/ep' f", not_allowed("team")],
	["awk 'system(\"ls\")' f", not_allowed("team")],
	["sed s/a/b/e f", not_allowed("team")],
	["sed -f script f", not_allowed("team")],
	["sed -nf script f", not_allowed("team")],
	["awk '{print $1}' f", allowed],
	["awk 'BEGIN{system(\"ls\")}'", not_allowed("team")],
	["awk '{print | \"sort\"}' f", not_allowed("team")],
	["awk -f prog f", not_allowed("team")],
	["git status", allowed],
	["git diff HEAD~1", allowed],
	["git -c core.pager=ls log", not_allowed("team")],
	["git --config-env=core.pager=V log", not_allowed("team")],
	["git rebase -x ls main", not_allowed("team")],
	["git difftool", not_allowed("team")],
	["printf '%s' x", allowed],
	["printf -v x '%s' y", allowed],
	["printf -v 'a[$(touch p)]' x", not_allowed("team")],
	["printf -v SRANDOM x", not_allowed("team")],
	["read -r x", allowed],
	["read -r 'a[1]'", not_allowed("team")],
	["read HISTCMD", not_allowed("team")],
	["test -f x", allowed],
	["test -v 'a[$(touch p)]'", not_allowed("team")],
	["let x", not_allowed("team")],
	["unset x", allowed],
	["unset -v 'a[1]'", not_allowed("team")],
	["less f", not_allowed("team")],
	["tar -xzf a.tgz", allowed],
	["tar -xz --to-command=ls -f a.tgz", not_allowed("team")],
	["tar -I zstd -xf a.tar", not_allowed("team")],
]

test_allows_match_only_exact_parts if {
	got := rule_outcomes([exact_layer], [cmd(row[0]) | some row in exact_rows])
	[[row[0], got[i], row[1]] | some i, row in exact_rows; got[i] != row[1]] == []
}
