# METADATA
# title: Shell reader
# description: |
#   Reading a shell command exactly: the parts a shell would run and the
#   words of each, or why the command cannot be read exactly. What a shell
#   would expand, substitute, redirect or interpret at run time is not
#   guessed: a command that uses any of it is unreadable, so that no rule
#   over its words can allow it (a prefix rule never allows what it
#   cannot read).
package tooleval.arguments.shell

# METADATA
# description: |
#   How a shell would read command: {"parts": [{"words", "wrapper"}, ...],
#   "separators": [...]}, the simple commands it runs in order, split at
#   the control operators (&&, ||, ;, |, |&, & and newline; a trailing ;
#   or newline ends the last one), each with its words as the program
#   receives them (quotes removed: 'a'"b"c is abc) and what it may run
#   (shell_part). Or {"unreadable": why} for anything else: not a string,
#   empty, over max_command_length characters or max_command_parts
#   parts, an empty part (a leading or doubled operator, a trailing &),
#   an assignment in front of a command (any word bash takes for one:
#   NAME=, NAME+=, NAME[...]=, NAME[...]+=), a word starting with an
#   unquoted = (zsh runs =rm as /bin/rm), a tilde bash expands (~ at the
#   start of a word, or right after the first = or after a : of a word
#   NAME= or NAME+=; ~ and ^ elsewhere are ordinary characters: HEAD~1,
#   HEAD^), and any character outside quotes that a shell would read as
#   more than itself ($ and backticks, redirections, \ escapes and line
#   continuations, globs, (, ), { and }, #, !, NUL, control and non-ASCII
#   characters), and $, backticks, \ and ! inside double quotes. Defined
#   for every value.
read_shell(command) := {"unreadable": "the command is not a string"} if {
	not is_string(command)
} else := {"unreadable": sprintf("the command is longer than %d characters", [max_command_length])} if {
	count(command) > max_command_length
} else := {"unreadable": why} if {
	why := _unread(command)[0] # the first character not read
} else := _parts_or_why(_items(_without_end(command)))

# METADATA
# description: The longest command read_shell reads, in characters.
max_command_length := 10000

# METADATA
# description: The most simple commands a command read_shell reads may have.
max_command_parts := 64

# METADATA
# description: |
#   Programs that run a command taken from their own arguments (or read
#   it from their input), and the builtins and keywords shell_builtins
#   says run code: a part whose program is one of these, by the last
#   segment of its path, does not run the words after it as they stand,
#   so no rule over those words may allow it, and every deny or ask
#   command rule bites it.
shell_wrappers := {
	"!", "-", ".", "alias", "arch", "bash", "bind", "builtin", "busybox", "caffeinate", "case", "chroot", "chrt",
	"cmd", "command", "compgen", "complete", "coproc", "csh", "dash", "declare", "do", "doas", "done", "elif", "else",
	"enable", "env", "esac", "eval", "exec", "export", "fc", "fi", "firejail", "fish", "flock", "for",
	"function", "hash", "if", "ionice", "jobs", "ksh", "local", "mapfile", "mksh", "newgrp", "nice", "nocorrect",
	"noglob", "nohup", "nsenter", "parallel", "pkexec", "powershell", "prlimit", "pwsh", "readarray", "readonly",
	"repeat", "runuser", "script", "select", "setpriv", "setsid", "sg", "sh", "source", "ssh",
	"stdbuf", "strace", "su", "sudo", "systemd-run", "taskset", "tcsh", "then", "time", "timeout",
	"trap", "typeset", "unalias", "unshare", "until", "watch", "while", "xargs", "zsh",
	# the keywords that open and close a group: a shell never reads them
	# as a word of a command read exactly ({ and } are not read), listed
	# for shell_builtins
	"{", "}",
}

# A control operator, a word (unquoted characters a shell reads as
# themselves, single-quoted text, double-quoted text without $, backticks,
# \ or !), or blanks. Every other character is left between matches.
# A word starts with anything but an unquoted = (zsh runs =rm as /bin/rm)
# or ~ (a tilde expansion).
_token := concat("", [
	`(&&|\|\||\|&|;|\||&|\n)|(`,
	`(?:[A-Za-z0-9_./:@%+,^-]|'[^'\x00]*'|"[^"$\x60\\!\x00]*")`,
	`(?:[A-Za-z0-9_./:@%+,=~^-]|'[^'\x00]*'|"[^"$\x60\\!\x00]*")*`,
	`)|[ \t]+`,
])

# A piece of a word: unquoted characters, or quoted text (its contents
# as the first or second submatch).
_piece := `[A-Za-z0-9_./:@%+,=~^-]+|'([^']*)'|"([^"]*)"`

# Why command cannot be read, once for each character no token reads:
# what a shell would do with the first of them.
_unread(command) := [_why(gap) |
	some gap in regex.split(_token, command)
	gap != ""
]

_why(gap) := why if {
	some pattern, why in _unread_classes
	regex.match(pattern, gap)
} else := sprintf("character %q outside quotes is not read exactly", [substring(gap, 0, 1)])

_unread_classes := {
	`^[$\x60]`: "an expansion or substitution ($ or a backtick) is not read",
	`^[<>]`: "a redirection or here-document is not read",
	`^\\`: "an escape or a line continuation (\\) is not read",
	`^[*?\[\]]`: "a glob is not read",
	`^[(){}]`: "a subshell, group or brace expansion is not read",
	`^['"]`: "a quote is not closed, or double quotes hold $, a backtick, \\ or !",
	`^~`: "a tilde expansion (~ at the start of a word) is not read",
	`^=`: "a word starting with = is not read (zsh expands =name to the path of a program)",
	`^#`: "a comment is not read",
	`^!`: "a history expansion or negation (!) is not read",
}

# command without the ;, newlines and blanks that end it.
_without_end(command) := regex.replace(command, `[ \t\n;]+$`, "")

# The operators and words of command, in order (blanks dropped).
_items(command) := [item |
	some m in regex.find_all_string_submatch_n(_token, command, -1)
	item := _item(m)
]

_item(match) := {"separator": match[1]} if match[1] != ""

_item(match) := {"word": match[2]} if match[2] != ""

_parts_or_why(items) := {"unreadable": "the command is empty"} if {
	count(items) == 0
} else := {"unreadable": sprintf("the command has more than %d parts", [max_command_parts])} if {
	count([1 | some item in items; item.separator]) >= max_command_parts
} else := {"unreadable": why} if {
	why := _part_problems(_split(items))[0]
} else := {
	"parts": [_part(words) | some words in _split(items)],
	"separators": [item.separator | some item in items; item.separator],
}

# items split at the operators: the raw words of each part.
_split(items) := [[item.word | some item in array.slice(items, bounds[k] + 1, bounds[k + 1])] |
	some k in numbers.range(0, count(bounds) - 2)
] if {
	operators := [i | some i, item in items; item.separator]
	bounds := array.flatten([-1, operators, count(items)])
}

_part_problems(parts) := [why |
	some words in parts
	why := _part_problem(words)
]

_part_problem(words) := "a control operator has no command on one side (or a trailing & runs one in the background)" if {
	words == []
} else := "an assignment in front of a command (NAME=, NAME+=, NAME[...]=) is not read" if {
	regex.match(`^[A-Za-z_][A-Za-z0-9_]*(\[|\+?=)`, words[0])
} else := "a tilde expansion (~ after the = or a : of a word NAME=) is not read" if {
	some word in words
	regex.match(`^[A-Za-z_][A-Za-z0-9_]*\+?=(~|.*:~)`, word)
}

_part(raw) := shell_part([_word_value(w) | some w in raw])

# A word as the program receives it: its pieces, quotes removed.
_word_value(raw) := concat("", [_piece_value(p) | some p in regex.find_all_string_submatch_n(_piece, raw, -1)])

_piece_value(match) := match[1] if startswith(match[0], "'")

else := substring(match[0], 1, count(match[0]) - 2) if startswith(match[0], "\"")

else := match[0]

# METADATA
# description: |
#   The name a program word is compared by with shell_wrappers: the last
#   segment of its path (split at / and \), in lower case, without a
#   trailing .exe. A file system that ignores case runs BASH as bash, and
#   Windows runs bash.exe as bash.
program_key(program) := trim_suffix(lower(regex.replace(program, `^.*[/\\]`, "")), ".exe")

# METADATA
# description: |
#   A simple command with words (as its program receives them) as the
#   rules judge it: {"words", "wrapper", "exact", "runs", "patterns",
#   "reconfigured"}. wrapper: what it runs is not read, so every deny or
#   ask command rule bites it and no allow matches it: its program is in
#   shell_wrappers, or an evaluating builtin with a word
#   evaluating_words names, or a program not in inert_programs with a
#   later word that holds an expansion a shell may run ($name, ${, $(,
#   $', $", $[, a backtick) or a token that names a wrapper program (not
#   a builtin or keyword: sh, env, xargs ...), or a program of
#   opaque_programs with a word inexact_words names. runs: for a program not
#   in inert_programs, the program keys of the tokens of its later words
#   (word_tokens); patterns: the regular expressions of those tokens that
#   hold glob characters (the program names they may spell).
#   reconfigured: a later word redefines what its words mean
#   (reconfiguring_words). exact: not a wrapper, its program not in
#   never_exact, and no later word inexact_words names for it: only an
#   exact part can be allowed.
shell_part(words) := {
	"words": words,
	"wrapper": wrapper,
	"exact": _exact(key, later, wrapper),
	"runs": {program_key(t) | some t in tokens},
	"patterns": {_glob_regex(program_key(t)) | some t in tokens; regex.match(`[*?\[]`, t)},
	"reconfigured": _matches_some(object.get(reconfiguring_words, key, null), later),
} if {
	key := program_key(words[0])
	later := array.slice(words, 1, count(words))
	tokens := _later_tokens(key in inert_programs, later)
	wrapper := _runs_anything(key, later, tokens)
}

_later_tokens(true, _) := set()

_later_tokens(false, later) := {token |
	some word in later
	some token in word_tokens(word)
}

_runs_anything(key, later, tokens) if {
	_runs_other(key, later, tokens)
} else := false

_runs_other(key, _, _) if key in shell_wrappers

_runs_other(key, later, _) if {
	some word in later
	regex.match(evaluating_words[key], word)
}

_runs_other(key, later, _) if {
	not key in inert_programs
	some word in later
	_expands(word)
}

_runs_other(key, later, _) if {
	key in opaque_programs
	_matches_some(inexact_words[key], later)
}

_runs_other(_, _, tokens) if {
	some token in tokens
	program_key(token) in _token_wrappers
}

# The wrappers a token of a later word is taken to run: the programs,
# not the builtins and keywords (a shell runs those only when its own
# program is named).
_token_wrappers contains name if {
	some name in shell_wrappers
	not shell_builtins[name]
	not name in {"-", "nocorrect", "noglob", "repeat"}
}

_exact(_, _, true) := false

_exact(key, later, false) := false if {
	key in never_exact
} else := false if {
	_matches_some(object.get(inexact_words, key, null), later)
} else := true

_matches_some(expression, words) if {
	is_string(expression)
	some word in words
	regex.match(expression, word)
} else := false
