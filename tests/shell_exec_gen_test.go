package tests

import (
	"math/rand/v2"
	"strings"
)

// The generator of TestShellReadingAgainstBash: commands in the forms an
// attacker uses to run a program that a rule over the command's words
// does not see, each tagged with its class. Every program it names is a
// stub or a runner of the sandbox (shell_exec_run_test.go), or a bash
// builtin; it never names an absolute path, and every file it names is
// relative to the command's own directory. It never runs kill, enable,
// suspend, ulimit on the harness, or anything that stops or signals
// other processes.

// shellCase is one generated command and the class it was built for.
type shellCase struct {
	Class   string
	Command string
}

// shellExecExamples are the commands every run holds: the examples of
// the issue, then controls that run only what their words say.
var shellExecExamples = []shellCase{
	{"assignment", "X+=1 rm -f f"},
	{"subscript", "printf -v 'a[$(touch p)]' x"},
	{"string-builtin", "jobs -x rm f"},
	{"runner", "setarch x86_64 rm f"},
	{"sub-language", "find . -exec rm {} +"},
	{"sub-language", "find . -exec rm '{}' +"},
	{"control", "rm -f f"},
	{"control", "ls -la"},
	{"control", "git status -s"},
	{"control", "printf x"},
	{"control", "test -n x"},
	{"control", "read x"},
	{"control", "let x=1"},
	{"control", "find . -name f"},
	{"control", "sed -n p f"},
	{"control", "sed p f"},
	{"control", "unset x"},
	{"control", "wait"},
	{"control", "getopts ab x"},
	{"control", "mapfile x"},
	{"control", "readarray x"},
	{"control", "echo x"},
	{"control", "true"},
	{"control", "cd ."},
	{"control", "shift"},
	{"control", "jobs"},
	{"control", "compgen -W 'a b' a"},
	{"control", "type ls"},
	{"control", "cat f"},
	{"control", "awk '{print}' f"},
	{"control", "touch p"},
}

// shellGen draws commands from a seeded source.
type shellGen struct {
	rng     *rand.Rand
	runners map[string]bool // the runners the sandbox has
}

func (g *shellGen) pick(options []string) string { return options[g.rng.IntN(len(options))] }

func (g *shellGen) chance(p float64) bool { return g.rng.Float64() < p }

// shellClasses are the generator's classes, by name.
var shellClasses = []struct {
	name string
	gen  func(*shellGen) string
}{
	{"assignment", (*shellGen).assignment},
	{"runner", (*shellGen).runnerChain},
	{"string-runner", (*shellGen).stringRunner},
	{"string-builtin", (*shellGen).stringBuiltin},
	{"subscript", (*shellGen).subscript},
	{"indirect", (*shellGen).indirect},
	{"shell-state", (*shellGen).shellState},
	{"file-payload", (*shellGen).filePayload},
	{"sub-language", (*shellGen).subLanguage},
	{"interpreter", (*shellGen).interpreter},
	{"quoting", (*shellGen).quoting},
	{"tilde-caret", (*shellGen).tildeCaret},
	{"allowed", (*shellGen).allowed},
}

// next draws one case: a class's command, sometimes joined with another
// part (an allowed one, or another class's) by a control operator; the
// case's class then names both ("separator/runner+allowed").
func (g *shellGen) next() shellCase {
	c := shellClasses[g.rng.IntN(len(shellClasses))]
	command, class := c.gen(g), c.name
	if g.chance(0.3) {
		other, otherClass := g.allowed(), "allowed"
		if g.chance(0.3) {
			o := shellClasses[g.rng.IntN(len(shellClasses))]
			other, otherClass = o.gen(g), o.name
		}
		if g.chance(0.5) {
			command, other = other, command
		}
		command = other + g.separator() + command
		class = "separator/" + class + "+" + otherClass
	}
	return shellCase{Class: class, Command: command}
}

func (g *shellGen) separator() string {
	return g.pick([]string{";", " ; ", " && ", " || ", " | ", " |& ", " & ", "\n", ";\n", "&&\n", " |\n", "\r\n", " #\n"})
}

// payload is a command that runs a stub: its words, unquoted.
func (g *shellGen) payload() string {
	return g.pick([]string{"rm -f f", "rm f", "touch p", "curl x", "git push", "id", "cat f", "mkdir d", "chmod 777 f"})
}

// payloadProgram is the program of a payload, for the forms that take a
// program alone (mapfile -C, fc -e, xargs).
func (g *shellGen) payloadProgram() string {
	return g.pick([]string{"rm", "touch", "curl", "id", "git", "chmod"})
}

// programWord spells a program word: plainly, quoted in the ways a shell
// removes, or by a path to the stub directory.
func (g *shellGen) programWord(p string) string {
	if g.chance(0.6) {
		return p
	}
	return g.pick([]string{
		"'" + p + "'", `"` + p + `"`, p[:1] + "''" + p[1:], p[:1] + `"` + p[1:] + `"`, "''" + p, p + `""`,
		`\` + p, "$'" + p + "'", `$"` + p + `"`, "./sbin/" + p, "sbin/" + p, "~/bin/" + p, "~+/sbin/" + p,
		"./sbin//" + p, "sbin/../sbin/" + p,
	})
}

// spelled is a payload whose program word is spelled by programWord.
func (g *shellGen) spelled() string {
	words := strings.SplitN(g.payload(), " ", 2)
	words[0] = g.programWord(words[0])
	return strings.Join(words, " ")
}

// assignment: assignments in front of the program (bash runs the
// program with them in its environment, or fails the assignment and
// runs it anyway).
func (g *shellGen) assignment() string {
	var words []string
	for range 1 + g.rng.IntN(2) {
		words = append(words, g.pick([]string{
			"X=1", "X+=1", "X=", "_x9=1", "a[1]=x", "a[1]+=x", "a[k]=x", "a['k']=x", `a["k"]=x`, "a[1+1]=x",
			"a['$(touch p)']=x", "a[-1]=x", "X='a b'", `X="a b"`, "X=~", "PATH=sbin", "PATH+=:sbin",
			"BASH_ENV=s", "ENV=s", "IFS=/", "HOME=sbin", "SHELLOPTS=xtrace", "BASHOPTS=expand_aliases", "x=a=b",
		}))
	}
	tail := g.spelled()
	if g.chance(0.2) {
		tail = g.pick([]string{"bash -c true", "sh -c true", "bash s", "sh -i", "printf x", "ls", "git status", "test -n x"})
	}
	return strings.Join(words, " ") + " " + tail
}

// runnerPrefixes are runner invocations that run the words after them
// as a program and its arguments, each under the runner it needs ("" for
// bash's own builtins and keywords). Left out: what clears the
// environment (env -i, env -, exec -c: the runner would then find real
// programs on the default PATH, out of the stubs' sight) and login
// shells (their profile sets PATH).
var runnerPrefixes = []struct {
	needs string
	forms []string
}{
	{"env", []string{"env", "env X=1", "env --", "env -u X", "env -C .", "env X+=1", "env --ignore-signal"}},
	{"nice", []string{"nice", "nice -n 5", "nice -5", "nice --adjustment=3"}},
	{"timeout", []string{"timeout 100", "timeout -k 5 100", "timeout --foreground 100", "timeout -s KILL 100"}},
	{"setarch", []string{"setarch x86_64", "setarch linux64", "setarch x86_64 -R", "setarch i386 -3"}},
	{"x86_64", []string{"x86_64", "x86_64 -R"}},
	{"linux64", []string{"linux64"}},
	{"i386", []string{"i386"}},
	{"linux32", []string{"linux32"}},
	{"time", []string{"time -p", "time -f %e", "time --"}}, // bash's keyword first in a part, else GNU time
	{"stdbuf", []string{"stdbuf -o0", "stdbuf -oL -eL", "stdbuf --output=0"}},
	{"nohup", []string{"nohup"}},
	{"ionice", []string{"ionice", "ionice -c3", "ionice -c 2 -n 7"}},
	{"taskset", []string{"taskset 1", "taskset -c 0", "taskset 0x1"}},
	{"flock", []string{"flock lk", "flock -n lk", "flock -w 100 lk", "flock -s lk"}},
	{"chrt", []string{"chrt -o 0", "chrt --other 0"}},
	{"strace", []string{"strace -f -o st.out", "strace -qq -o st.out"}},
	{"setsid", []string{"setsid", "setsid -w"}},
	{"prlimit", []string{"prlimit", "prlimit --nofile=100"}},
	{"unshare", []string{"unshare", "unshare -U", "unshare --fork"}},
	{"runuser", []string{"runuser -u root --", "runuser -u root"}},
	{"xargs", []string{"xargs", "xargs -r", "xargs -n1", "xargs -a f", "xargs -0", "xargs -t"}},
	{"", []string{"command", "command --", "exec", "exec -a x", "exec --", "eval", "builtin eval", "command eval",
		"time", "time -p", "coproc", "builtin command", "command command", "command exec"}},
}

// runnerChain: one to three runners, then a payload.
func (g *shellGen) runnerChain() string {
	var words []string
	for range 1 + g.rng.IntN(3) {
		words = append(words, g.runnerPrefix())
	}
	return strings.Join(words, " ") + " " + g.spelled()
}

func (g *shellGen) runnerPrefix() string {
	for {
		r := runnerPrefixes[g.rng.IntN(len(runnerPrefixes))]
		if r.needs == "" || g.runners[r.needs] {
			return g.pick(r.forms)
		}
	}
}

// stringRunner: a runner that takes the command as one string.
func (g *shellGen) stringRunner() string {
	p := g.payload()
	forms := []string{"eval '%s'", "trap '%s' EXIT", "sh -c '%s'", "bash -c '%s'",
		"env -S '%s'", "su -c '%s'", "su root -c '%s'", "sg root -c '%s'", "script -qec '%s' st.out",
		"flock lk -c '%s'", "awk 'BEGIN{system(\"%s\")}'", "awk '{system(\"%s\")}' f",
		"awk 'BEGIN{print \"x\" | \"%s\"}'", "awk 'BEGIN{\"%s\" | getline x}'", "timeout 100 sh -c '%s'",
		"env sh -c '%s'", "nice bash -c '%s'", "xargs sh -c '%s'"}
	return strings.ReplaceAll(g.pick(forms), "%s", p)
}

// stringBuiltin: builtins that run a command from a string or a name.
func (g *shellGen) stringBuiltin() string {
	p, prog := g.payload(), g.payloadProgram()
	forms := []string{
		"jobs -x " + p, "compgen -C '" + p + "' x", "compgen -W '$(" + p + ")' x", "compgen -W '`" + p + "`' x",
		"compgen -F f x", "complete -C '" + p + "' x", "mapfile -C " + prog + " -c 1 x",
		"mapfile -C '" + p + "' -c 1 x", "readarray -C " + prog + " -c 1 x", "bind -x '\"\\C-a\": " + p + "'",
		"trap '" + p + "' EXIT", "trap '" + p + "' EXIT INT", "eval " + p, "eval '" + p + "'", "command " + p,
		"exec " + p, "set -o history; history -s x; fc -e " + prog, "source s", ". s", "source ./s", "builtin source s",
		"shopt -s expand_aliases\nalias y='" + p + "'\ny", "coproc " + p, "time " + p, "hash -p sbin/" + prog + " ls; ls",
		"hash -p sbin/" + prog + " ls\nls", "exec -a x " + p, "builtin eval " + p, "command eval '" + p + "'",
		"shopt -s extdebug; trap '" + p + "' DEBUG; true", "set -T; trap '" + p + "' RETURN; . s",
	}
	return g.pick(forms)
}

// subscript: builtins that evaluate an array subscript or arithmetic in
// one of their words, with a payload in that word.
func (g *shellGen) subscript() string {
	p := g.payload()
	inner := g.pick([]string{"a[$(" + p + ")]", "a[`" + p + "`]", "A[$(" + p + ")]", "a[$(" + p + ")+1]",
		"a[1]", "x", "a[x[$(" + p + ")]]"})
	q := g.pick([]string{"'" + inner + "'", "'" + inner + "'", `"` + inner + `"`, inner})
	forms := []string{
		"printf -v Q x", "printf -v Q %s x", "printf -v x %d Q", "read Q", "read -r x Q", "read -a Q",
		"read -t Q x", "read -n Q x", "read -u Q x", "test -v Q", "[ -v Q ]", "test ! -v Q", "test -R Q",
		"test -z x -o -v Q", "test Q -eq 1", "[ Q -lt 1 ]", "let Q", "let x=Q", "unset Q", "unset -v Q",
		"printf -v 'a[0]' x; unset Q", "read -a a; unset Q", "wait -p Q", "true & wait -n -p Q",
		"getopts ab Q", "getopts ab Q -a", "mapfile Q", "mapfile -t Q", "readarray Q", "mapfile -O Q x",
		"mapfile -n Q x", "mapfile -s Q x", "declare -i x=Q", "declare Q", "typeset -i x=Q", "local Q",
		"readonly Q", "export Q", "shift Q", "exit Q", "return Q", "history -d Q", "caller Q", "jobs Q",
		"disown Q", "fc -l Q", "cd Q", "type Q", "printf '%(%s)T' Q", "printf -v Q", "declare -n r=Q",
		"set -u; test -v Q", "printf -v x Q", "printf Q", "echo Q", "true Q", "printf -v OPTIND Q",
		"printf -v RANDOM Q", "printf -v SRANDOM Q", "printf -v HISTCMD Q", "printf -v OPTIND %s Q",
	}
	form := g.pick(forms)
	if i := strings.Index(form, "=Q"); i >= 0 {
		// NAME=Q: the payload after NAME= inside one quoted word
		start := strings.LastIndex(form[:i], " ") + 1
		return form[:start] + quoteLike(q, form[start:i+1]+inner) + form[i+2:]
	}
	return strings.ReplaceAll(form, "Q", q)
}

// indirect: one part stores a payload subscript in a variable, a later
// one evaluates the variable's name as arithmetic (bash then evaluates
// its value: let x=y, a variable bash assigns as arithmetic, a subscript
// naming it).
func (g *shellGen) indirect() string {
	p := g.payload()
	setup := g.pick([]string{"printf -v y 'a[$(" + p + ")]'", "printf -v y %s 'a[$(" + p + ")]'",
		"printf -v y 'a[`" + p + "`]'", "printf -v 'a[0]' x; printf -v y 'a[$(" + p + ")]'"})
	use := g.pick([]string{"let x=y", "let y", "let 'x=y+1'", "printf -v RANDOM y", "printf -v OPTIND y",
		"printf -v SRANDOM y", "printf -v HISTCMD y", "read RANDOM", "read OPTIND", "read -r x RANDOM",
		"printf -v 'a[y]' x", "test -v 'a[y]'", "[ -v 'a[y]' ]", "unset 'a[y]'", "wait -p 'a[y]'",
		"getopts ab 'a[y]'", "read 'a[y]'", "printf -v x %s y", "echo y", "test y -eq 1", "shift y",
		"printf -v x %d y", "mapfile -O y x", "test -v y"})
	return setup + g.pick([]string{"; ", " && ", "\n"}) + use
}

// splitPayload spells a payload as a printf format and one argument, so
// that no word of the command holds its program's name: rm f is r%s f
// and m.
func splitPayload(p string) (format, arg string) {
	program, rest, _ := strings.Cut(p, " ")
	format = program[:1] + "%s"
	if rest != "" {
		format += " " + rest
	}
	return format, program[1:]
}

// shellState: a part sets what bash itself reads (PS4 under xtrace, the
// command hash BASH_CMDS, aliases, disabled builtins, BASH_ENV), so that
// a later part that names no program runs one; the payload is often
// spelt by printf so that no word names its program.
func (g *shellGen) shellState() string {
	p, prog := g.payload(), g.payloadProgram()
	f, a := splitPayload(p)
	pf, pa := splitPayload(prog)
	return g.pick([]string{
		"printf -v PS4 '$(" + f + ")' " + a + "; set -x; true", "printf -v PS4 '$(" + p + ")'; set -x; true",
		"printf -v PS4 '${a[$(" + f + ")]}' " + a + "; set -x; true", "set -x; printf -v PS4 '$(" + f + ")' " + a + "; true",
		"printf -v PS4 '`" + f + "`' " + a + "; set -o xtrace; test -n x",
		"printf -v 'BASH_CMDS[ls]' 'sbin/" + pf + "' " + pa + "; ls", "printf -v 'BASH_CMDS[ls]' sbin/" + prog + "; ls -la",
		"printf -v 'BASH_ALIASES[ls]' '" + f + "' " + a + "\nshopt -s expand_aliases\nls",
		"enable -n printf; printf x", "enable -n test; test -n x", "enable -n echo; echo x",
		"printf -v BASH_ENV s; export BASH_ENV; bash -c true", "printf -v PATH sbin; ls",
		"read PS4; set -x; true",
	})
}

// filePayload: programs that run the commands a file holds (s holds
// rm -f f, e.sed, a.awk, m.mk, p.pl and p.py the same in their languages,
// Makefile touch p) without the command's program among their words.
func (g *shellGen) filePayload() string {
	return g.pick([]string{
		"sed e s", "sed -n e s", "sed 'e' s", "sed -n '1e' s", "awk '{system($0)}' s", "awk '{print | \"sh\"}' s",
		"find s -exec sh '{}' ';'", "find . -name s -exec bash '{}' +", "find s -exec dash '{}' ';'", "sh s",
		"bash s", "dash s", ". ./s", "source s", "cat s | sh", "cat s | bash", "perl -ne 'system $_' s",
		"python3 -c 'import os; [os.system(l) for l in open(\"s\")]'", "env sh s", "timeout 100 sh s",
		"xargs -a s", "xargs -a s sh -c", "sed -n p s | sh", "awk '{print}' s | bash", "sed -f e.sed f",
		"sed -n -f e.sed f", "sed --file=e.sed f", "awk -f a.awk", "awk -f a.awk f", "make -f m.mk", "make -s -f m.mk all",
		"make", "make all", "make -s", "perl p.pl", "python3 p.py", "find . -name p.py -exec python3 '{}' ';'",
	})
}

// quoteLike quotes s as q is quoted.
func quoteLike(q, s string) string {
	switch {
	case strings.HasPrefix(q, "'"):
		return "'" + s + "'"
	case strings.HasPrefix(q, `"`):
		return `"` + s + `"`
	}
	return s
}

// subLanguage: programs whose arguments hold a language that runs
// programs (find's actions, sed's e command and s///e, xargs, awk).
func (g *shellGen) subLanguage() string {
	p, prog := g.payload(), g.payloadProgram()
	forms := []string{
		"find . -exec " + p + " {} +", "find . -exec " + p + " {} ';'", "find . -execdir " + p + " ';'",
		"find . -ok " + p + " {} ';'", "find . -okdir " + p + " ';'", "find . -maxdepth 0 -exec " + p + " ';'",
		"find f -exec " + p + " '{}' +", "find . -name f -execdir " + p + " '{}' +", "find -exec " + p + " ';'",
		"find . -maxdepth 1 -name f -ok " + p + " ';'",
		"sed 'e " + p + "' f", "sed -n 'e " + p + "' f", "sed -n '1e " + p + "' f", "sed 's/.*/" + p + "/e' f",
		"sed -n 's/x/" + p + "/ep' f", "sed -e 1d -e 'e " + p + "' f", "sed --expression='e " + p + "' f",
		"sed -s 'e " + p + "' f", "sed -E 's/(x)/" + p + "/e' f", "sed --sandbox 'e " + p + "' f",
		"sed -n '$e " + p + "' f", "sed -n p f", "sed -n 'w out' f", "sed -n '/x/e " + p + "' f",
		"xargs " + p, "xargs -a f " + p, "xargs -n1 " + prog, "xargs -r " + prog, "xargs -0 " + prog,
		"xargs -- " + p, "awk 'BEGIN{system(\"" + p + "\")}'", "awk '{print | \"" + p + "\"}' f",
		"awk 'BEGIN{\"" + p + "\" | getline x}'", "awk '{print}' f", "awk -v x=1 'BEGIN{system(\"" + p + "\")}'",
	}
	return g.pick(forms)
}

// interpreter: programs whose arguments are a program in another
// language (perl, python, node) or hold a command they run (tar's
// checkpoint action and compressor, make's $(shell) and recipes, zip's
// test command, ssh's ProxyCommand, split's filter, sdiff's diff
// program), or that run programs they find (run-parts, find -exec {}),
// each when the sandbox has it.
func (g *shellGen) interpreter() string {
	p, prog := g.payload(), g.payloadProgram()
	forms := [][2]string{
		{"perl", "perl -e 'system(\"%s\")'"}, {"perl", "perl -e 'exec \"%s\"'"}, {"perl", "perl -e '`%s`'"},
		{"python3", "python3 -c 'import os; os.system(\"%s\")'"},
		{"python3", "python3 -c 'import subprocess; subprocess.run(\"%s\", shell=True)'"},
		{"node", "node -e 'require(\"child_process\").execSync(\"%s\")'"},
		{"tar", "tar -cf x.tar f --checkpoint=1 --checkpoint-action=exec='%s'"},
		{"tar", "tar -cf x.tar -I " + prog + " f"}, {"tar", "tar -cf x.tar --use-compress-program=" + prog + " f"},
		{"make", "make -s --eval='$(shell %s)' -f out"}, {"make", "make --eval='x:;%s' x"},
		{"zip", "zip -q x.zip f -T -TT '%s'"}, {"ssh", "ssh -o ProxyCommand='%s' x"},
		{"dash", "dash -c '%s'"}, {"gdb", "gdb -q -batch -ex 'shell %s'"}, {"gdb", "gdb -q -batch -ex '!%s'"},
		{"time", "command time %s"}, {"time", "'time' %s"}, {"split", "split --filter='%s' f"},
		{"split", "split -n 1 --filter='%s' f"}, {"sdiff", "sdiff --diff-program=" + prog + " f f"},
		{"run-parts", "run-parts rp"}, {"run-parts", "run-parts --regex=. rp"}, {"run-parts", "run-parts --list rp"},
		{"find", "find sbin/ -name 'r?' -exec '{}' f ';'"}, {"find", "find sbin/ -name 't*h' -exec '{}' p ';'"},
	}
	for {
		f := forms[g.rng.IntN(len(forms))]
		if g.runners[f[0]] {
			return strings.ReplaceAll(f[1], "%s", p)
		}
	}
}

// quoting: the payload's program word quoted or spelled by a path.
func (g *shellGen) quoting() string {
	words := strings.SplitN(g.payload(), " ", 2)
	words[0] = g.pick([]string{
		"'" + words[0] + "'", `"` + words[0] + `"`, words[0][:1] + "''" + words[0][1:], `\` + words[0],
		"$'" + words[0] + "'", `$"` + words[0] + `"`, "./sbin/" + words[0], "sbin/" + words[0],
		"~/bin/" + words[0], "~+/sbin/" + words[0], `""` + words[0], words[0] + "''",
	})
	return strings.Join(words, " ")
}

// tildeCaret: ~ and ^ in words (tilde expansion, history substitution).
func (g *shellGen) tildeCaret() string {
	p := g.payload()
	return g.pick([]string{
		p + " ~", p + " ~/x", "ls ~", "ls ~root", "^rm^ls", "ls a^b", "git status ^x", "printf ~",
		"printf -v ~ x", "cd ~ && " + p, "ls x=~", "X=~ " + p, "~/bin/" + p, "~+/sbin/" + p, "ls ~+",
		"ls ~-", "ls a~b", "printf '%s' ~", "^ls", "ls ^", "test ~ = x",
	})
}

// allowed: a command an allow prefix of the test reads, with ordinary
// arguments (the controls), or with an attack in its words.
func (g *shellGen) allowed() string {
	return g.pick([]string{
		"ls", "ls -la", "ls f", "git status", "git status -s", "printf x", "printf '%s\\n' x", "test -n x",
		"test -f f", "read x", "read -r x", "let x=1", "let 'x=1+1'", "find . -name f", "find . -type f",
		"sed -n p f", "sed -n 1p f", "unset x", "wait", "getopts ab x", "mapfile x", "readarray x", "echo x",
		"true", "cd .", "shift", "jobs", "compgen -W 'a b' a", "cat f", "awk '{print}' f", "history",
		"type ls", "touch p",
	})
}
