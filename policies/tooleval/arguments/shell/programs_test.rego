package tooleval.arguments.shell_test

import data.tooleval.arguments.shell

# What shell_builtins says of itself: every builtin that runs a command
# is a shell wrapper, and every inert one is an inert program; and the
# only builtins inert_programs lists are the inert ones.
test_shell_builtins_agree_with_the_wrappers_and_the_inert if {
	every name, class in shell.shell_builtins {
		class in {"runs", "evaluates", "inert"}
		_agrees(name, class)
	}
	every name in shell.inert_programs {
		object.get(shell.shell_builtins, name, "inert") == "inert"
	}
}

_agrees(name, "runs") if name in shell.shell_wrappers

_agrees(name, "inert") if name in shell.inert_programs

_agrees(name, "evaluates") if shell.evaluating_words[name]

# Programs that can run another program or code are never inert: a deny
# or ask rule of any program must bite a part of them. The ones the
# policy leaves out on purpose, and every program the other tables say
# runs or reads code.
test_nothing_that_runs_code_is_inert if {
	runners := {
		"find", "xargs", "sed", "awk", "git", "make", "npm", "npx", "sort", "tar", "split", "less", "more", "man",
		"env", "sudo", "bash", "sh", "zsh", "nohup", "timeout", "nice", "watch", "ssh", "python", "python3",
		"node", "perl", "ruby", "rsync", "scp", "zip", "vim",
		# bash builtins that run a command, a string or a file as code
		# (bash manual, 4.1 and 4.2), and those that evaluate some words
		".", "bind", "builtin", "command", "compgen", "complete", "coproc", "declare", "enable", "eval", "exec",
		"export", "fc", "jobs", "local", "mapfile", "readarray", "readonly", "source", "time", "trap", "typeset",
		"[", "[[", "getopts", "let", "printf", "read", "set", "test", "unset", "wait",
	}
	tables := (((runners | object.keys(shell.inexact_words)) | shell.opaque_programs) | shell.never_exact) | object.keys(shell.reconfiguring_words)
	tables & shell.inert_programs == set()
}

# An opaque program's inexact words are known, and every expression of
# the tables is a valid regular expression.
test_program_tables_are_well_formed if {
	shell.opaque_programs - object.keys(shell.inexact_words) == set()
	every table in [shell.inexact_words, shell.reconfiguring_words, shell.evaluating_words] {
		every _, expression in table {
			regex.is_valid(expression)
		}
	}
}

# Words that make a program run what its command line does not show are
# inexact; ordinary ones are not.
test_inexact_words if {
	every tc in [
		["find", "-exec", true], ["find", "-execdir", true], ["find", "-name", false],
		["sed", "s/x/id/e", true], ["sed", "-f", true], ["sed", "-n", false],
		["awk", "{system($0)}", true], ["awk", "-f", true], ["awk", "{print $1}", false],
		["git", "-c", true], ["git", "--exec-path=/tmp", true], ["git", "submodule", true], ["git", "status", false],
		["tar", "--to-command=sh", true], ["tar", "-czf", false],
		["rsync", "-e", true], ["rsync", "-av", false],
	] {
		regex.match(shell.inexact_words[tc[0]], tc[1]) == tc[2]
	}
}

# A word that reconfigures git or cargo (aliases included) is one.
test_reconfiguring_words if {
	every tc in [["git", "-c", true], ["git", "--config-env=x", true], ["git", "push", false], ["cargo", "--config", true], ["cargo", "build", false]] {
		regex.match(shell.reconfiguring_words[tc[0]], tc[1]) == tc[2]
	}
}
