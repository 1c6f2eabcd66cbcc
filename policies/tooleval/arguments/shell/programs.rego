# What programs do with their words: the tables a part of a command is
# judged by (see shell_part). A deny or ask rule over-approximates what a
# part may run; an allow matches only a part that runs exactly its words.
package tooleval.arguments.shell

# METADATA
# description: |
#   Every builtin and keyword of bash 5.2 (bash -c 'compgen -b' and
#   'compgen -k'), by what it does with its words: "runs" (runs a
#   command, a string or a file as code: eval, source, exec, jobs -x,
#   compgen -C/-F/-W, mapfile -C, complete -C/-F, bind -x, enable -f,
#   trap, the declaration builtins, which evaluate name[subscript]= and
#   integer values, and the keywords, whose part is only a piece of a
#   compound command), "evaluates" (evaluates some words as code: an
#   array subscript in a name, arithmetic; see evaluating_words) or
#   "inert" (runs nothing whatever its words). Found by running each
#   builtin with every option of its synopsis (help -s) and the payloads
#   'a[$(touch f)]', 'touch f' and a function name in each position, and
#   from the bash manual (https://www.gnu.org/software/bash/manual/bash.html,
#   4.1 and 4.2 Builtin Commands). Every "runs" name is in
#   shell_wrappers and every "inert" one in inert_programs.
shell_builtins := {
	".": "runs", ":": "inert", "[": "evaluates", "alias": "runs", "bg": "inert", "bind": "runs",
	"break": "inert", "builtin": "runs", "caller": "inert", "cd": "inert", "command": "runs",
	"compgen": "runs", "complete": "runs", "compopt": "inert", "continue": "inert", "declare": "runs",
	"dirs": "inert", "disown": "inert", "echo": "inert", "enable": "runs", "eval": "runs", "exec": "runs",
	"exit": "inert", "export": "runs", "false": "inert", "fc": "runs", "fg": "inert", "getopts": "evaluates",
	"hash": "runs", "help": "inert", "history": "inert", "jobs": "runs", "kill": "inert", "let": "evaluates",
	"local": "runs", "logout": "inert", "mapfile": "runs", "popd": "inert", "printf": "evaluates",
	"pushd": "inert", "pwd": "inert", "read": "evaluates", "readarray": "runs", "readonly": "runs",
	"return": "inert", "set": "evaluates", "shift": "inert", "shopt": "inert", "source": "runs",
	"suspend": "inert", "test": "evaluates", "times": "inert", "trap": "runs", "true": "inert",
	"type": "inert", "typeset": "runs", "ulimit": "inert", "umask": "inert", "unalias": "runs",
	"unset": "evaluates", "wait": "evaluates",
	# keywords
	"!": "runs", "[[": "evaluates", "]]": "inert", "case": "runs", "coproc": "runs", "do": "runs",
	"done": "runs", "elif": "runs", "else": "runs", "esac": "runs", "fi": "runs", "for": "runs",
	"function": "runs", "if": "runs", "in": "inert", "select": "runs", "then": "runs", "time": "runs",
	"until": "runs", "while": "runs", "{": "runs", "}": "runs",
}

# METADATA
# description: |
#   The variables bash assigns by evaluating the value as arithmetic
#   (an expression, which may name an array element whose subscript runs
#   a command): printf -v NAME and read NAME into one of them run code.
#   Found by assigning 'a[$(touch f)]' to each variable of
#   bash -c 'compgen -v' with printf -v and with read.
arithmetic_variables := {"HISTCMD", "OPTIND", "RANDOM", "SRANDOM"}

# METADATA
# description: |
#   Per evaluating builtin (shell_builtins), a regular expression for a
#   later word that makes it run code: a name with a subscript, or a
#   variable bash assigns as arithmetic (printf -v, read, unset, wait -p,
#   getopts, test -v); every word of let and [[ (arithmetic: a plain
#   name's value may be code a former part assigned); set -k (keyword),
#   after which NAME=value words of later parts are assignments.
evaluating_words[name] := expression if {
	some name, class in shell_builtins
	class == "evaluates"
	expression := object.get(_evaluating_overrides, name, _names_evaluated)
}

_evaluating_overrides := {"let": "^", "[[": "^", "set": `^([-+][A-Za-z]*k|keyword$)`}

_names_evaluated := concat("", [`\[|^(`, concat("|", sort(arithmetic_variables)), `)$`])

# METADATA
# description: |
#   Programs known to run no other program whatever their words (by
#   program_key): the inert builtins and a conservative list of
#   utilities. A deny or ask rule of program P bites a part of any other
#   program where P is a later word or a token of one (see shell_part);
#   it does not on a part of one of these. Left out on purpose, among
#   others: sort (--compress-program), tar (--to-command), split
#   (--filter), less and more (!command), man (-P), find (-exec), sed (e),
#   awk (system), xargs, git, make, npm.
inert_programs := {
	# the "inert" builtins and keywords of shell_builtins (a test holds the
	# two to each other; a literal, not a comprehension over
	# shell_builtins, so that a decision does not build it again)
	":", "]]", "bg", "break", "caller", "cd", "compopt", "continue", "dirs", "disown", "echo", "exit",
	"false", "fg", "help", "history", "in", "kill", "logout", "popd", "pushd", "pwd", "return", "shift",
	"shopt", "suspend", "times", "true", "type", "ulimit", "umask",
	# utilities
	"base64", "basename", "cat", "chgrp", "chmod", "chown", "cksum", "comm", "cp", "cut", "date", "df",
	"dirname", "du", "expand", "factor", "fold", "grep", "groups", "head", "hexdump", "hostname",
	"id", "join", "jq", "ln", "ls", "md5sum", "mkdir", "mktemp", "mv", "nl", "nproc", "numfmt", "od",
	"paste", "printenv", "readlink", "realpath", "rev", "rm", "rmdir", "seq", "sha1sum", "sha256sum",
	"sha512sum", "shuf", "sleep", "stat", "sum", "tac", "tail", "tee", "touch", "tr", "truncate", "tsort",
	"tty", "uname", "unexpand", "uniq", "unlink", "uptime", "wc", "whoami", "yes",
}

# METADATA
# description: |
#   Per program (by program_key), a regular expression for a later word
#   that makes the program run a command or code given on the command
#   line: a part with such a word is not exact, and no allow matches it.
#   Not exhaustive: an allow of a program's prefix trusts the program's
#   other options. find (-exec, -execdir, -ok, -okdir), GNU sed (the e
#   command and the e flag of s, over-approximated as any non-option word
#   holding e; a script file), awk (system, pipes, getline, indirect
#   calls, program files and extensions), git (-c and --config-env set
#   any configuration, aliases included; options naming a program to
#   run), sort, tar, split, man, rsync, scp, zip.
inexact_words := {
	"find": `^-(exec|execdir|ok|okdir)$`,
	"sed": `^(([^-].*)?e|-[^-]*f|-[^-]*e.*e|--f|--e.*=.*e)`,
	"gsed": `^(([^-].*)?e|-[^-]*f|-[^-]*e.*e|--f|--e.*=.*e)`,
	"awk": `^(-[^-]*[fEil]|--(f|e|i|l)|([^-].*)?(system|\||@|getline))`,
	"gawk": `^(-[^-]*[fEil]|--(f|e|i|l)|([^-].*)?(system|\||@|getline))`,
	"mawk": `^(-[^-]*[fEil]|--(f|e|i|l)|([^-].*)?(system|\||@|getline))`,
	"nawk": `^(-[^-]*[fEil]|--(f|e|i|l)|([^-].*)?(system|\||@|getline))`,
	"git": concat("", [
		`^(-c|--config-env|--exec-path|--upload-pack|--receive-pack|-u$|--exec|-x$|--ext-diff|--extcmd|`,
		`-t$|--tool|-O|--open-files-in-pager|--sendmail-cmd|--smtp-server|--to-cmd|--cc-cmd|`,
		`bisect$|submodule$|filter-branch$|difftool$|mergetool$|daemon$|instaweb$)`,
	]),
	"sort": `^--compress-program`,
	"tar": `^(--to-command|--use-compress-program|--checkpoint-action|--rsh-command|--info-script|--new-volume-script|--rmt-command|-[^-]*[IF])`,
	"split": `^--filter`,
	"man": `^(-[^-]*[PH]|--pager|--html)`,
	"rsync": `^(-[^-]*e|--rsh|--rsync-path)`,
	"scp": `^-[^-]*[SoF]`,
	"sftp": `^-[^-]*[SoFD]`,
	"zip": `^(-TT|--unzip-command)`,
}

# METADATA
# description: |
#   Programs whose inexact words (inexact_words) make them run code the
#   command line does not show: sed's e command runs the pattern space (a
#   line of input), s///e the line after substitution, -f a script file;
#   awk's system($0) a line of input, -f a program file. A part of one
#   of these that is not exact is a wrapper: every deny or ask bites it.
opaque_programs := {"sed", "gsed", "awk", "gawk", "mawk", "nawk"}

# METADATA
# description: |
#   Programs that run what their input, a terminal or their
#   configuration says whatever their words (pagers, editors, openers):
#   a part of one is never exact.
never_exact := {"less", "more", "most", "pager", "vi", "vim", "nvim", "view", "ex", "emacs", "nano", "xdg-open", "open", "start"}

# METADATA
# description: |
#   Per program (by program_key), a regular expression for a later word
#   that redefines what the program's words mean (its configuration,
#   aliases included, or where its subcommands come from): every deny or
#   ask rule of that program bites a part with such a word. git -c
#   alias.p=push, git -c help.autocorrect=1 psuh, git --config-env,
#   git --exec-path, cargo --config alias.x=....
reconfiguring_words := {
	"git": `^(-c|--config-env|--exec-path)`,
	"cargo": `^(--config|-Z)`,
}

# METADATA
# description: |
#   The built-in aliases of programs' commands (by program_key), alias to
#   command: a later word of a deny or ask rule of the program bites an
#   alias of it, and an abbreviation (a prefix) of it or of an alias.
#   npm: lib/utils/cmd-list.js in https://github.com/npm/cli (deref
#   expands an alias, or a unique prefix of a command or an alias, and
#   reads a camelCase word as kebab-case). cargo:
#   https://doc.rust-lang.org/cargo/reference/config.html#alias (b, c, d,
#   n, r, rm, t).
command_aliases := {
	"npm": {
		"author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
		"add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
		"un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
		"it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config",
		"s": "search", "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
		"run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec",
		"why": "explain", "la": "ll", "verison": "version", "ic": "ci", "innit": "init", "in": "install",
		"ins": "install", "inst": "install", "insta": "install", "instal": "install", "isnt": "install",
		"isnta": "install", "isntal": "install", "isntall": "install", "install-clean": "ci",
		"isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update",
		"udpate": "update", "rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org",
	},
	"cargo": {"b": "build", "c": "check", "d": "doc", "n": "new", "r": "run", "rm": "remove", "t": "test"},
}

# command_aliases by program and command: the command and its aliases.
_spellings[program][command] contains command if {
	some program, aliases in command_aliases
	some command in aliases
}

_spellings[program][command] contains alias if {
	some program, aliases in command_aliases
	some alias, command in aliases
}

# METADATA
# description: The spellings a later word of a rule of program (a key) stands for (command_aliases).
spellings(program, word) := object.get(object.get(_spellings, program, {}), word, {word})

# METADATA
# description: |
#   The tokens of a word as a program may hand them to a shell or run
#   them: the runs of characters other than blanks and punctuation of
#   the word without its quotes, also without its backslashes, with each
#   / a separator (sed s/x/id/e runs id), and with
#   each brace expansion ({a,b} or {a..b}, no blanks) read as a glob *.
word_tokens(word) := {token |
	unquoted := replace(replace(word, "'", ""), "\"", "")
	some text in [
		unquoted,
		replace(unquoted, "\\", ""),
		replace(unquoted, "/", " "),
		regex.replace(unquoted, `\{[A-Za-z0-9_./@%+-]*(,|\.\.)[A-Za-z0-9_./@%+,-]*\}`, "*"),
	]
	some token in regex.find_n(`[A-Za-z0-9_./\\@%+^~*?\[\]-]+`, text, -1)
}

# A token with glob characters, as the regular expression of the
# program names it may spell: * any characters, ? and a bracket
# expression one.
_glob_regex(token) := concat("", ["^", replace(replace(_one_character_brackets(token), "*", ".*"), "?", "."), "$"])

_one_character_brackets(token) := regex.replace(regex.replace(token, `[.+(){}|^$\\]`, `\${0}`), `\[[^\]]*\]?|\]`, ".")

# Whether a later word may make the part's program run a command the
# tokens do not show: an expansion or substitution ($name, ${, $(, $',
# $", $[ or a backtick) in a string a shell may run.
_expands(word) if regex.match(`[$][A-Za-z_{(\['"]`, word)

_expands(word) if contains(word, "\u0060") # a backtick
