package oracle

import (
	"regexp"
	"strings"
)

// What programs do with their words (docs/contract.md, Argument rules:
// when a deny or ask command rule bites, when an allow matches).

// bashBuiltins maps each bash 5.2 builtin and keyword to what it does:
// 'r' runs code (a wrapper), 'e' evaluates some words, 'i' inert.
var bashBuiltins = map[string]byte{}

func init() {
	for class, names := range map[byte]string{
		'r': ". alias bind builtin command compgen complete declare enable eval exec export fc hash jobs local mapfile readarray readonly source trap typeset unalias ! case coproc do done elif else esac fi for function if select then time until while { }",
		'e': "[ getopts let printf read set test unset wait [[",
		'i': ": bg break caller cd compopt continue dirs disown echo exit false fg help history kill logout popd pushd pwd return shift shopt suspend times true type ulimit umask ]] in",
	} {
		for _, n := range strings.Fields(names) {
			bashBuiltins[n] = class
		}
	}
	wrappers["{"], wrappers["}"] = true, true
	for _, n := range strings.Fields("base64 basename cat chgrp chmod chown cksum comm cp cut date df dirname du expand factor fold grep groups head hexdump hostname id join jq ln ls md5sum mkdir mktemp mv nl nproc numfmt od paste printenv readlink realpath rev rm rmdir seq sha1sum sha256sum sha512sum shuf sleep stat sum tac tail tee touch tr truncate tsort tty uname unexpand uniq unlink uptime wc whoami yes") {
		inert[n] = true
	}
	for n, class := range bashBuiltins {
		if class == 'i' {
			inert[n] = true
		}
	}
}

// inert: programs that run no other program whatever their words.
var inert = map[string]bool{}

// evaluated: what makes an evaluating builtin run one of its words.
func evaluated(program, word string) bool {
	switch program {
	case "let", "[[":
		return true
	case "set":
		if word == "keyword" {
			return true
		}
		if word == "" || word[0] != '-' && word[0] != '+' {
			return false
		}
		for _, c := range word[1:] {
			if c == 'k' {
				return true
			}
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				return false
			}
		}
		return false
	}
	if bashBuiltins[program] != 'e' {
		return false
	}
	switch word {
	case "HISTCMD", "OPTIND", "RANDOM", "SRANDOM":
		return true
	}
	return strings.Contains(word, "[")
}

// inexactWords: the words that make a program run code given on its
// command line.
var inexactWords = map[string]*regexp.Regexp{}

func init() {
	sed := `^(([^-].*)?e|-[^-]*f|-[^-]*e.*e|--f|--e.*=.*e)`
	awk := `^(-[^-]*[fEil]|--(f|e|i|l)|([^-].*)?(system|\||@|getline))`
	for program, expr := range map[string]string{
		"find": `^-(exec|execdir|ok|okdir)$`, "sed": sed, "gsed": sed,
		"awk": awk, "gawk": awk, "mawk": awk, "nawk": awk,
		"git":  `^(-c|--config-env|--exec-path|--upload-pack|--receive-pack|-u$|--exec|-x$|--ext-diff|--extcmd|-t$|--tool|-O|--open-files-in-pager|--sendmail-cmd|--smtp-server|--to-cmd|--cc-cmd|bisect$|submodule$|filter-branch$|difftool$|mergetool$|daemon$|instaweb$)`,
		"sort": `^--compress-program`, "split": `^--filter`, "zip": `^(-TT|--unzip-command)`,
		"tar":   `^(--to-command|--use-compress-program|--checkpoint-action|--rsh-command|--info-script|--new-volume-script|--rmt-command|-[^-]*[IF])`,
		"man":   `^(-[^-]*[PH]|--pager|--html)`,
		"rsync": `^(-[^-]*e|--rsh|--rsync-path)`, "scp": `^-[^-]*[SoF]`, "sftp": `^-[^-]*[SoFD]`,
	} {
		inexactWords[program] = regexp.MustCompile(expr)
	}
}

var neverExact = map[string]bool{"less": true, "more": true, "most": true, "pager": true, "vi": true, "vim": true, "nvim": true, "view": true, "ex": true, "emacs": true, "nano": true, "xdg-open": true, "open": true, "start": true}

// reconfiguring: the words that redefine what a program's words mean.
var reconfiguring = map[string][]string{"git": {"-c", "--config-env", "--exec-path"}, "cargo": {"--config", "-Z"}}

// commandAliases: alias -> command, per program (npm's
// lib/utils/cmd-list.js, cargo's built-in aliases).
var commandAliases = map[string]map[string]string{
	"cargo": {"b": "build", "c": "check", "d": "doc", "n": "new", "r": "run", "rm": "remove", "t": "test"},
	"npm":   {},
}

func init() {
	pairs := "author owner home docs issues bugs info view show view find search add install unlink uninstall remove uninstall rm uninstall r uninstall " +
		"un uninstall rb rebuild list ls ln link create init i install it install-test cit install-ci-test u update up update c config " +
		"s search se search tst test t test ddp dedupe v view run-script run clean-install ci clean-install-test install-ci-test x exec " +
		"why explain la ll verison version ic ci innit init in install ins install inst install insta install instal install isnt install " +
		"isnta install isntal install isntall install install-clean ci isntall-clean ci hlep help dist-tags dist-tag upgrade update " +
		"udpate update rum run sit install-ci-test urn run ogr org"
	f := strings.Fields(pairs)
	for i := 0; i+1 < len(f); i += 2 {
		commandAliases["npm"][f[i]] = f[i+1]
	}
}

// part is a simple command as the rules judge it.
type part struct {
	words        []string
	wrapper      bool // what it runs is not read: every deny bites, no allow matches
	exact        bool // an allow may match it
	reconfigured bool
	runs         map[string]bool // program keys of its later words' tokens
	globs        []string        // glob tokens (program keys)
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_./\\@%+^~*?[]-", c) >= 0
}

var braceExpansion = regexp.MustCompile(`\{[A-Za-z0-9_./@%+-]*(,|\.\.)[A-Za-z0-9_./@%+,-]*\}`)

// tokens of a word: runs of token characters in the word without quotes,
// also without backslashes, with / as a separator, with brace expansions
// as *.
func tokens(word string) []string {
	u := strings.NewReplacer("'", "", `"`, "").Replace(word)
	var out []string
	for _, text := range []string{u, strings.ReplaceAll(u, `\`, ""), strings.ReplaceAll(u, "/", " "), braceExpansion.ReplaceAllString(u, "*")} {
		start := -1
		for i := 0; i <= len(text); i++ {
			if i < len(text) && isTokenByte(text[i]) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				out = append(out, text[start:i])
				start = -1
			}
		}
	}
	return out
}

// expands: a word holds an expansion a shell would perform.
func expands(word string) bool {
	if strings.Contains(word, "`") {
		return true
	}
	for i := 0; i+1 < len(word); i++ {
		c := word[i+1]
		if word[i] == '$' && (c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("{(['\"", c) >= 0) {
			return true
		}
	}
	return false
}

// globMatch: a glob token (* any characters, ? and a bracket expression
// or a lone ] one character) may spell name.
func globMatch(glob, name string) bool {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			b.WriteString(".*")
		case '?', ']':
			b.WriteString(".")
		case '[':
			if end := strings.IndexByte(glob[i:], ']'); end >= 0 {
				i += end
			} else {
				i = len(glob)
			}
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String()).MatchString(name)
}

func readPart(words []string) part {
	key := programKey(words[0])
	later := words[1:]
	p := part{words: words, runs: map[string]bool{}, wrapper: wrappers[key]}
	for _, w := range later {
		if evaluated(key, w) {
			p.wrapper = true
		}
		for _, opt := range reconfiguring[key] {
			if strings.HasPrefix(w, opt) {
				p.reconfigured = true
			}
		}
		if inert[key] {
			continue
		}
		if expands(w) {
			p.wrapper = true
		}
		for _, t := range tokens(w) {
			k := programKey(t)
			p.runs[k] = true
			if strings.ContainsAny(t, "*?[") {
				p.globs = append(p.globs, k)
			}
			if wrappers[k] && bashBuiltins[k] == 0 && k != "-" && k != "nocorrect" && k != "noglob" && k != "repeat" {
				p.wrapper = true
			}
		}
	}
	inexact := false
	if re := inexactWords[key]; re != nil {
		for _, w := range later {
			inexact = inexact || re.MatchString(w)
		}
	}
	switch key {
	case "sed", "gsed", "awk", "gawk", "mawk", "nawk": // code from input or files
		p.wrapper = p.wrapper || inexact
	}
	p.exact = !p.wrapper && !neverExact[key] && !inexact
	return p
}

// folded: a word compared for abbreviation: lower case, without - and _.
func folded(w string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(w))
}

// spells: a part's later word stands for a rule's word (or one of its
// aliases) name: equal (a * of a wildcard rule any characters), a token
// of it equal, or an abbreviation of it.
func spells(wild bool, name, candidate string) bool {
	same := func(s string) bool { return s == name }
	if wild {
		parts := strings.Split(name, "*")
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		re := regexp.MustCompile("^" + strings.Join(parts, "[^\x00]*") + "$")
		same = re.MatchString
	}
	if same(candidate) {
		return true
	}
	for _, t := range tokens(candidate) {
		if same(t) {
			return true
		}
	}
	f := folded(candidate)
	return f != "" && strings.HasPrefix(candidate, "-") == strings.HasPrefix(name, "-") &&
		strings.HasPrefix(folded(strings.Split(name, "*")[0]), f)
}

var shortCluster = regexp.MustCompile(`^-[A-Za-z0-9]+$`)

// bitten: a rule's later word is bitten by a part's later words.
func bitten(wild bool, program, word string, later []string) bool {
	if wild && word == "*" {
		return true
	}
	if shortCluster.MatchString(word) {
		have := ""
		for _, w := range later {
			if shortCluster.MatchString(w) {
				have += w[1:]
			}
		}
		all := true
		for _, c := range word[1:] {
			all = all && strings.ContainsRune(have, c)
		}
		if all {
			return true
		}
	}
	names := []string{word}
	for alias, command := range commandAliases[program] {
		if command == word {
			names = append(names, alias)
		}
	}
	for _, name := range names {
		for _, candidate := range later {
			if spells(wild, name, candidate) {
				return true
			}
		}
	}
	return false
}
