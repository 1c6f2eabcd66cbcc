package tooleval.arguments.shell_test

import data.tooleval.arguments.shell

# Commands a shell reads exactly, and the parts and words read_shell
# gives. Sources: [cc] Claude Code's permissions page
# (https://code.claude.com/docs/en/permissions: exact and prefix Bash
# rules, compound commands split at their operators, each part checked);
# [sh] POSIX Shell Command Language, 2.2 Quoting and 2.9 Shell Commands
# (https://pubs.opengroup.org/onlinepubs/9799919799/utilities/V3_chap02.html).
readable_commands := [
	# [cc] Bash(npm run build) matches exactly this command
	["npm run build", [["npm", "run", "build"]], []],
	# [cc] Bash(npm run test:*) matches the commands that start with npm run test
	["npm run test:unit --watch", [["npm", "run", "test:unit", "--watch"]], []],
	# [cc] a prefix rule Bash(safe-cmd:*) does not allow safe-cmd && other-cmd: two parts
	["safe-cmd && other-cmd", [["safe-cmd"], ["other-cmd"]], ["&&"]],
	# [cc] the operators that split a compound command: ;, &&, ||, |, |&, & and newlines
	["a; b || c | d |& e & f\ng", [["a"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g"]], [";", "||", "|", "|&", "&", "\n"]],
	["a;b&&c", [["a"], ["b"], ["c"]], [";", "&&"]],
	# [cc] curl -X GET http://github.com/... is read, its words as given
	["curl -X GET http://github.com/x", [["curl", "-X", "GET", "http://github.com/x"]], []],
	# [sh] 2.2.2 single quotes keep every character literally, operators included
	["echo 'a; b && $(c) `d` > e'", [["echo", "a; b && $(c) `d` > e"]], []],
	# [sh] 2.2.3 double quotes without $, backquote or backslash keep their text
	["grep \"a && b | c\" f.txt", [["grep", "a && b | c", "f.txt"]], []],
	# [sh] 2.2 quoted pieces next to each other are one word: the program is rm
	["r''m -rf /", [["rm", "-rf", "/"]], []],
	["\"rm\" -rf /tmp/x", [["rm", "-rf", "/tmp/x"]], []],
	["git commit -m 'fix: a \"quoted\" word'", [["git", "commit", "-m", "fix: a \"quoted\" word"]], []],
	# a trailing ; or newline ends the last command
	["ls -la;", [["ls", "-la"]], []],
	["make test\n\n", [["make", "test"]], []],
	["  go test ./...  ", [["go", "test", "./..."]], []],
	# = inside an argument is a word character
	["go build -ldflags=-s -o=bin/x", [["go", "build", "-ldflags=-s", "-o=bin/x"]], []],
	# a quoted = starts no expansion
	["echo '=rm' \"=x\"", [["echo", "=rm", "=x"]], []],
	# quoted text may hold any character, non-ASCII included
	["echo 'ｒｍ；'", [["echo", "ｒｍ；"]], []],
]

test_readable_commands if {
	every row in readable_commands {
		reading := shell.read_shell(row[0])
		[p.words | some p in reading.parts] == row[1]
		reading.separators == row[2]
	}
}

# A part whose program runs a command from its arguments is a wrapper,
# by the last segment of its path. [cc] notes that Claude Code strips
# timeout, nice and nohup before matching; tooleval does not guess what
# they run.
test_wrappers if {
	every command in [
		"sh -c 'rm -rf /'", "bash -c ls", "/bin/bash -c ls", "/usr/bin/env ls", "env ls", "eval 'rm x'",
		"xargs rm", "sudo rm x", "timeout 5 rm x", "nice rm x", "nohup rm x", "exec rm x", ". ./x.sh",
		"source x.sh", "command rm x", "busybox rm x", "zsh -c x",
	] {
		reading := shell.read_shell(command)
		count(reading.parts) == 1
		reading.parts[0].wrapper == true
	}
	[[p.words, p.wrapper] | some p in shell.read_shell("ls && sudo rm x").parts] == [
		[["ls"], false],
		[["sudo", "rm", "x"], true],
	]
	shell.read_shell("shx -c ls").parts[0].wrapper == false
}

# Commands a shell would not run as they read: each is unreadable, so
# that no rule over its words can allow it. Sources: [cc] the bypasses the
# permissions page lists for Bash(curl http://github.com/:*); the classes
# of unreadable commands (command and process substitution, redirections, assignments
# in front of a command, escapes and line continuations, here-documents,
# globs, unbalanced quotes, look-alike separators, NUL, very long commands).
unreadable_commands := [
	# [cc] URL=http://github.com && curl $URL
	["URL=http://github.com && curl $URL", "expansion"],
	["FOO=bar make", "assignment"],
	["ls && FOO=bar make", "assignment"],
	# zsh runs =rm as /bin/rm (EQUALS expansion); quoted it is a word
	["=rm -rf /", "equals"],
	["ls && =rm x", "equals"],
	["git log =x", "equals"],
	["echo $(whoami)", "expansion"],
	["echo `whoami`", "expansion"],
	["echo \"$(whoami)\"", "quote"],
	["echo \"`id`\"", "quote"],
	["echo \"$HOME\"", "quote"],
	["echo ${HOME}", "expansion"],
	["diff <(ls a) <(ls b)", "redirection"],
	["echo x > /etc/passwd", "redirection"],
	["cat < /etc/shadow", "redirection"],
	["cat <<EOF\nrm -rf /\nEOF", "redirection"],
	["ls 2>&1", "redirection"],
	["echo a \\; rm -rf /", "escape"],
	["rm -rf \\\n/", "escape"],
	["echo \"a\\\"b\"", "quote"],
	["ls *.go", "glob"],
	["/bin/r? -rf /", "glob"],
	["[ -f x ]", "glob"],
	["(cd /; rm -rf x)", "subshell"],
	["{ rm x; }", "subshell"],
	["echo {a,b}", "subshell"],
	["cat ~/.ssh/id_rsa", "tilde"],
	["ls # rm -rf /", "comment"],
	["! ls", "history"],
	["echo \"!!\"", "quote"],
	["echo 'unterminated", "quote"],
	["echo \"unterminated", "quote"],
	["ls ； rm -rf /", "character"],
	["ls\u0000rm", "character"],
	["ls\rrm", "character"],
	["ls\u000brm", "character"],
	["ls &", "operator"],
	["&& ls", "operator"],
	["ls && && rm", "operator"],
	["ls || ; rm", "operator"],
	[";", "empty"],
	["", "empty"],
	["   \n ", "empty"],
]

test_unreadable_commands if {
	every row in unreadable_commands {
		contains(shell.read_shell(row[0]).unreadable, _unread_words[row[1]])
	}
}

_unread_words := {
	"expansion": "expansion or substitution",
	"assignment": "assignment",
	"equals": "starting with =",
	"quote": "quote is not closed",
	"redirection": "redirection",
	"escape": "escape",
	"glob": "glob",
	"subshell": "subshell",
	"tilde": "tilde",
	"comment": "comment",
	"history": "history",
	"character": "outside quotes is not read exactly",
	"operator": "control operator has no command",
	"empty": "empty",
}

# Every value has a reading: a command that is not a string, too long or
# of too many parts is unreadable.
test_unreadable_values_and_sizes if {
	every value in [null, 1, true, ["ls"], {"command": "ls"}] {
		shell.read_shell(value).unreadable == "the command is not a string"
	}
	long := concat("", ["a" | some _ in numbers.range(1, shell.max_command_length + 1)])
	contains(shell.read_shell(long).unreadable, "longer than")
	many := concat(";", ["a" | some _ in numbers.range(1, shell.max_command_parts + 1)])
	contains(shell.read_shell(many).unreadable, "more than")
	most := concat(";", ["a" | some _ in numbers.range(1, shell.max_command_parts)])
	count(shell.read_shell(most).parts) == shell.max_command_parts
}

# Shell keywords, builtins that run or redefine commands, zsh's
# precommand modifiers and programs that run a command of their own
# arguments: each part they start runs something that is not its words,
# in any case and with .exe, so deny rules bite and allow rules never do.
test_keywords_and_command_runners_are_wrappers if {
	every command in [
		"if true; then rm -rf /; fi",
		"for f in x; do rm -rf /; done",
		"while true; do rm x; done",
		"coproc rm -rf /",
		"trap 'rm -rf /' EXIT",
		"hash -p /bin/rm ls; ls -rf /",
		"alias ls='rm -rf /'; ls",
		"export PATH=/tmp/evil; git status",
		"- rm -rf /",
		"noglob rm -rf /",
		"nocorrect rm x",
		"repeat 1 rm -rf /",
		"SUDO rm x",
		"Bash -c 'rm x'",
		"pkexec rm x",
		"systemd-run rm x",
		"ssh host rm -rf /",
	] {
		some part in shell.read_shell(command).parts
		part.wrapper
	}
}

test_program_key if {
	shell.program_key("/usr/bin/BASH") == "bash"
	shell.program_key(`C:\Windows\System32\cmd.exe`) == "cmd"
	shell.program_key("git") == "git"
}

# ~ and ^ as bash 5.2 reads them (HOME=/HOME bash -c 'echo ...' prints
# the words): ~ expands at the start of a word, and in a word NAME= or
# NAME+= right after the first = or after a :; elsewhere ~ and ^ are
# ordinary characters.
test_tilde_and_caret_where_bash_leaves_them if {
	every row in [
		["git diff HEAD~1", ["git", "diff", "HEAD~1"]],
		["git show HEAD^ ^x", ["git", "show", "HEAD^", "^x"]],
		["echo --x=~ a==~ a=x=~ x:~ ab:~ a=b~ a,~", ["echo", "--x=~", "a==~", "a=x=~", "x:~", "ab:~", "a=b~", "a,~"]],
		["echo 'a'=~ a'=~'", ["echo", "a=~", "a=~"]],
	] {
		shell.read_shell(row[0]).parts[0].words == row[1]
	}
	every command in ["echo ~", "echo ~/x", "echo ~root", "echo a=~", "echo a+=~", "echo a=x:~", "echo _a1=y:~/b", "echo a='x':~"] {
		contains(shell.read_shell(command).unreadable, "tilde expansion")
	}
}

# Every form of assignment bash takes in front of a command is
# unreadable, and the reason says so; a quoted name is a program.
test_assignment_forms if {
	every command in ["X=1 rm f", "X+=1 rm f", "_x9+= rm f"] {
		contains(shell.read_shell(command).unreadable, "an assignment in front of a command")
	}
	every command in ["a[1]=x rm f", "a['k']+=1 rm f"] {
		shell.read_shell(command).unreadable # [ is a glob character
	}
	shell.read_shell("'X'=1 rm").parts[0].words == ["X=1", "rm"]
}

# shell_part: what each part may run, [words, wrapper, exact,
# reconfigured, a program key among runs (or null for none)].
shell_part_rows := [
	[["ls", "rm"], false, true, false, null],
	[["git", "status"], false, true, false, "status"],
	[["setarch", "x86_64", "/bin/RM.exe"], false, true, false, "rm"],
	[["sed", "1e r\"\"m x"], true, false, false, "rm"],
	[["find", ".", "-exec", "r\"\"m", "x", ";"], false, false, false, "rm"],
	[["sed", "s/x/id/ep"], true, false, false, "id"],
	[["sed", "-n", "1p", "f"], false, true, false, "1p"],
	[["find", ".", "-exec", "sh", ";"], true, false, false, "sh"],
	[["find", ".", "-name", "$x"], true, false, false, "x"],
	[["git", "-c", "alias.p=push", "p"], false, false, true, "push"],
	[["cargo", "--config", "x", "b"], false, true, true, "b"],
	[["printf", "-v", "a[1]", "x"], true, false, false, "a[1]"],
	[["printf", "-v", "x", "y"], false, true, false, "x"],
	[["read", "OPTIND"], true, false, false, "optind"],
	[["let", "x"], true, false, false, "x"],
	[["set", "-ek"], true, false, false, "-ek"],
	[["set", "-e"], false, true, false, "-e"],
	[["less", "f"], false, false, false, "f"],
	[["jobs", "-x", "rm"], true, false, false, "rm"],
	[["echo", "$x", "`rm`"], false, true, false, null],
]

test_shell_part if {
	failures := [row |
		some row in shell_part_rows
		part := shell.shell_part(row[0])
		[part.wrapper, part.exact, part.reconfigured] != array.slice(row, 1, 4)
	]
	failures == []
	every row in shell_part_rows {
		_runs_as(shell.shell_part(row[0]).runs, row[4])
	}
}

_runs_as(runs, null) if count(runs) == 0

_runs_as(runs, key) if key in runs

# Glob tokens spell the program names they may match.
test_glob_tokens if {
	part := shell.shell_part(["sed", "1e /bin/r? x; /usr/[a-z]in/c* y; r{m,} z"])
	every name in ["rm", "cat", "rmdir"] {
		some pattern in part.patterns
		regex.match(pattern, name)
	}
	[pattern | some pattern in part.patterns; regex.match(pattern, "git")] == []
}
