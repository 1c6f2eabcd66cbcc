package tooleval.arguments.argv_test

import data.tooleval.arguments.argv
import data.tooleval.arguments.shell

test_read_argv if {
	every case in _argv_cases {
		_projected(argv.read_argv(case.argv)) == _projected(case.want)
	}
}

# A reading with each part's words and wrapper only (the other members
# of a part are shell.shell_part's, tested in shell_test.rego).
_projected(reading) := object.union(reading, {"parts": [{"words": p.words, "wrapper": p.wrapper} | some p in reading.parts]}) if {
	reading.parts
} else := reading

_words(words) := {"parts": [{"words": words, "wrapper": false}], "separators": []}

_argv_cases := [
	# a vector is the words exec receives: no quoting, no expansion
	{"argv": ["git", "status"], "want": _words(["git", "status"])},
	{"argv": ["echo", "a;rm -rf /", "$HOME"], "want": _words(["echo", "a;rm -rf /", "$HOME"])},
	{"argv": ["/usr/bin/git", "log"], "want": _words(["/usr/bin/git", "log"])},
	# a shell on a script runs the script, read as a shell reads it
	{"argv": ["bash", "-lc", "git status && ls"], "want": shell.read_shell("git status && ls")},
	{"argv": ["/bin/zsh", "-c", "ls -la"], "want": _words(["ls", "-la"])},
	{"argv": ["sh", "-c", "echo $HOME"], "want": shell.read_shell("echo $HOME")},
	{"argv": ["bash", "-lc", "a > b"], "want": {"unreadable": "a redirection or here-document is not read"}},
	# any other shell or wrapper vector runs a command that is not its words
	{"argv": ["bash", "-c", "ls", "x"], "want": {"parts": [{"words": ["bash", "-c", "ls", "x"], "wrapper": true}], "separators": []}},
	{"argv": ["bash", "-x", "ls"], "want": {"parts": [{"words": ["bash", "-x", "ls"], "wrapper": true}], "separators": []}},
	{"argv": ["fish", "-c", "ls"], "want": {"parts": [{"words": ["fish", "-c", "ls"], "wrapper": true}], "separators": []}},
	# a shell by another path may be any program; another case or .exe is still a wrapper
	{"argv": ["./bash", "-c", "ls"], "want": {"parts": [{"words": ["./bash", "-c", "ls"], "wrapper": true}], "separators": []}},
	{"argv": ["node_modules/.bin/sh", "-lc", "ls"], "want": {"parts": [{"words": ["node_modules/.bin/sh", "-lc", "ls"], "wrapper": true}], "separators": []}},
	{"argv": ["BASH", "-lc", "ls"], "want": {"parts": [{"words": ["BASH", "-lc", "ls"], "wrapper": true}], "separators": []}},
	{"argv": ["C:\\tools\\bash.exe", "-c", "ls"], "want": {"parts": [{"words": ["C:\\tools\\bash.exe", "-c", "ls"], "wrapper": true}], "separators": []}},
	{"argv": ["/usr/bin/bash", "-lc", "ls"], "want": _words(["ls"])},
	{"argv": ["/usr/bin/env", "git"], "want": {"parts": [{"words": ["/usr/bin/env", "git"], "wrapper": true}], "separators": []}},
	# what exec cannot receive, or is not a vector, is unreadable
	{"argv": [], "want": {"unreadable": "the command is an empty list"}},
	{"argv": ["git", ""], "want": {"unreadable": "a word of the command is empty or holds NUL"}},
	{"argv": ["git", "a\u0000b"], "want": {"unreadable": "a word of the command is empty or holds NUL"}},
	{"argv": ["git", 1], "want": {"unreadable": "the command is not a list of strings"}},
	{"argv": "git status", "want": {"unreadable": "the command is not a list of strings"}},
	{"argv": null, "want": {"unreadable": "the command is not a list of strings"}},
	{"argv": {"0": "git"}, "want": {"unreadable": "the command is not a list of strings"}},
	{"argv": [concat("", [sprintf("%d", [x]) | some x in numbers.range(1, 3000)])], "want": {"unreadable": "the command is longer than 10000 characters"}},
	{"argv": [sprintf("%d", [x]) | some x in numbers.range(1, 1025)], "want": {"unreadable": "the command has more than 1024 words"}},
]
