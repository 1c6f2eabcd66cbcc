# METADATA
# title: Argument vector reader
# description: |
#   Reading a command given as an argument vector: the words a program is
#   started with, as exec(3) receives them (Codex's shell tool:
#   ["bash", "-lc", "git status"], or ["git", "status"]). A tool's command
#   is read this way only when the configuration says its argument holds
#   one (rule_arguments: {"argv": NAME}): a runtime that joins a list with
#   spaces and hands it to a shell runs something else, so a list is never
#   read as an argument vector by default.
package tooleval.arguments.argv

import data.tooleval.arguments.shell

# METADATA
# description: |
#   How exec would read argv, in shell.read_shell's form: a list of one to
#   max_argv_words strings, none empty or holding NUL, of at most
#   shell.max_command_length characters together. A shell started on a script
#   (exactly three words: sh, bash or zsh, by name or in a system
#   directory (script_shells), then -c or -lc, then the script) runs the
#   script, read as shell.read_shell
#   reads it (Codex reads such a vector the same way). Any other vector is
#   one simple command whose words are the vector's, a wrapper when its
#   program is one (shell.shell_wrappers: bash -c with more words, env, sudo,
#   ...). Anything else is {"unreadable": why}. Defined for every value.
read_argv(argv) := {"unreadable": "the command is not a list of strings"} if {
	not string_list(argv)
} else := {"unreadable": "the command is an empty list"} if {
	count(argv) == 0
} else := {"unreadable": sprintf("the command has more than %d words", [max_argv_words])} if {
	count(argv) > max_argv_words
} else := {"unreadable": sprintf("the command is longer than %d characters", [shell.max_command_length])} if {
	sum([count(word) | some word in argv]) > shell.max_command_length
} else := {"unreadable": "a word of the command is empty or holds NUL"} if {
	some word in argv
	_unpassable(word)
} else := shell.read_shell(argv[2]) if {
	_shell_script(argv)
} else := {"parts": [shell.shell_part(argv)], "separators": []}

# METADATA
# description: The most words an argument vector read_argv reads may have.
max_argv_words := 1024

# METADATA
# description: Whether argv is a list of strings (an argument vector, or an example of one).
string_list(argv) if {
	is_array(argv)
	every word in argv {
		is_string(word)
	}
}

_unpassable("")

_unpassable(word) if contains(word, "\u0000")

_shell_script(argv) if {
	count(argv) == 3
	argv[0] in script_shells
	argv[1] in {"-c", "-lc"}
}

# METADATA
# description: |
#   The spellings of a shell that read_argv takes to run its script: sh,
#   bash and zsh by name (found on the PATH) or in the system's
#   directories. Another path to a file of that name (./bash,
#   node_modules/.bin/sh) may be any program: such a vector is a wrapper.
script_shells contains concat("", [dir, name]) if {
	some name in ["sh", "bash", "zsh"]
	some dir in ["", "/bin/", "/usr/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"]
}
