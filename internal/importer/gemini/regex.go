package gemini

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// Gemini CLI matches argsPattern (and commandRegex, which it writes as
// `"command":"` followed by the expression) as a JavaScript regular
// expression searched in stableStringify(args): keys sorted, no white
// space, and each top-level member wrapped in NUL characters
// ({\0"command":"ls"\0,\0"dir_path":"src"\0}). A shell command's parts
// are matched again one by one, as {\0"command":"PART"\0,...}.
//
// tooleval searches an RE2 expression in the arguments' canonical JSON,
// the same text without the NULs, once per call. The functions here
// carry a deny or ask pattern to an expression that matches whenever
// Gemini's would (the stricter reading: it may match more), or say it
// cannot be done; an allow pattern is never carried.

// jsSpace is the class JavaScript's \s matches (RE2's \s is ASCII only).
const jsSpace = `\t\n\x{0B}\f\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`

// geminiUnsafe is Gemini's own check that drops a rule whose pattern may
// backtrack without end (isSafeRegExp in packages/core/src/policy/utils.ts):
// a group with a quantifier inside, quantified again.
var geminiUnsafe = regexp.MustCompile(`\([^)]*[*+?{].*\)[*+?{]`)

// geminiDropsPattern says whether Gemini CLI refuses to load a rule with
// this pattern (too long, or nested quantifiers), as its loader does.
func geminiDropsPattern(pattern string) bool {
	return len(pattern) > 2048 || geminiUnsafe.MatchString(pattern)
}

// jsToRE2 rewrites a JavaScript pattern (no flags) as RE2 syntax that
// matches at least what it matches, NULs taken out (they are only ever
// the structure Gemini adds). False when the pattern uses what RE2 cannot
// say (back-references, look-around, \c, [^]) or what this reading does
// not know.
func jsToRE2(js string) (string, bool) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(js); i++ {
		c := js[i]
		switch {
		case c == '\\':
			if i+1 >= len(js) {
				return "", false
			}
			i++
			e := js[i]
			switch {
			case strings.IndexByte("dDwWtnrvf", e) >= 0:
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 'b' || e == 'B':
				if inClass { // a backspace in a class: not in JSON text anyway
					return "", false
				}
				b.WriteByte('\\')
				b.WriteByte(e)
			case e == 's':
				if inClass {
					b.WriteString(jsSpace)
				} else {
					b.WriteString("[" + jsSpace + "]")
				}
			case e == 'S':
				if inClass {
					return "", false
				}
				b.WriteString("[^" + jsSpace + "]")
			case e == '0' && (i+1 >= len(js) || js[i+1] < '0' || js[i+1] > '9'):
				if inClass {
					return "", false
				}
				// NUL: Gemini's member boundary, absent here
			case e == 'x' && i+2 < len(js) && isHex(js[i+1:i+3]):
				h := js[i+1 : i+3]
				i += 2
				if h == "00" {
					if inClass {
						return "", false
					}
					continue
				}
				b.WriteString(`\x` + h)
			case e == 'u' && i+4 < len(js) && isHex(js[i+1:i+5]):
				h := js[i+1 : i+5]
				i += 4
				if h == "0000" {
					if inClass {
						return "", false
					}
					continue
				}
				if u := strings.ToLower(h); u >= "d800" && u <= "dfff" {
					return "", false // half of a surrogate pair: RE2 reads characters, not UTF-16
				}
				b.WriteString(`\x{` + h + `}`)
			case e < 0x80 && !isWordByte(e):
				b.WriteByte('\\') // an escaped punctuation mark: itself
				b.WriteByte(e)
			default: // back-references, \c, \k, \p, identity escapes of letters
				return "", false
			}
		case c == 0:
			if inClass {
				return "", false
			}
		case inClass:
			if c == ']' {
				inClass = false
			}
			if c == '[' { // RE2 reads [: as a POSIX class
				b.WriteString(`\[`)
				continue
			}
			b.WriteByte(c)
		case c == '[':
			if strings.HasPrefix(js[i:], "[^]") || strings.HasPrefix(js[i:], "[]") {
				return "", false
			}
			inClass = true
			b.WriteByte(c)
			if strings.HasPrefix(js[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
			if strings.HasPrefix(js[i+1:], "]") { // JS: ] first is the end; handled above
				return "", false
			}
		case c == '(' && strings.HasPrefix(js[i:], "(?") && !strings.HasPrefix(js[i:], "(?:") &&
			!(strings.HasPrefix(js[i:], "(?<") && !strings.HasPrefix(js[i:], "(?<=") && !strings.HasPrefix(js[i:], "(?<!")):
			return "", false // look-around and flags
		default:
			b.WriteByte(c)
		}
	}
	if inClass {
		return "", false
	}
	return b.String(), true
}

func isHex(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// geminiWrapperScript finds, in a shell call's canonical JSON, a POSIX
// shell started on a double-quoted script (sh -c "..."): Gemini CLI
// reads that script with a shell parser (stripShellWrapper) before it
// matches its parts, so they need not be in the call's text as written.
const geminiWrapperScript = `(?i:sh|bash|zsh)` + jsonSpace + `+(?i:-c)` + jsonSpace + `+\\"`

// jsonSpace is a white-space character of JavaScript's \s as JSON text
// writes it (control characters escaped).
const jsonSpace = `(?:[ \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]|\\[tnrf]|\\u000[bB])`

// geminiDenyPattern carries a deny or ask pattern of Gemini CLI as an
// args_pattern that bites every call Gemini's would: on the call's
// arguments, and for the shell tool on each part of its command too.
// False when it cannot be carried (the rule is then widened to the whole
// tool).
func geminiDenyPattern(js string, shell bool) (string, bool) {
	src, ok := jsToRE2(js)
	if !ok {
		return "", false
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	if !shell {
		return optionalChars(re).String(), true
	}
	// A shell call is matched whole and then part by part. Any match that
	// cannot run over a quote or a NUL lies inside one string, key or
	// punctuation run of Gemini's text, and each of those is in the whole
	// call's text here (a part's command is a piece of the call's), so
	// the expression bites the call. One that starts "command":" matches
	// at the start of a part, which here is at the start of the command
	// or after a character that is not a letter, digit or _ (or after an
	// escape such as \n).
	const commandKey = `"command":"`
	dropBoundaries(re)
	rest, anchored := cutLiteralPrefix(re, commandKey)
	if anchored {
		rest = trimOptional(rest)
		if mayMatch(rest, '"') || mayMatch(rest, 0) {
			return "", false
		}
		return `"command":"(?:(?:[^"\\]|\\.)*(?:[^\w"\\]|\\.))?(?:` + optionalChars(rest).String() + `)`, true
	}
	re = trimOptional(re)
	if mayMatch(re, '"') || mayMatch(re, 0) {
		return "", false
	}
	return optionalChars(re).String(), true
}

// optionalChars makes every single character that may be a NUL, or a
// character beyond U+FFFF, optional: Gemini's text has NULs this text
// lacks, and JavaScript (without the u flag) matches such a character
// as two, where RE2 matches one.
func optionalChars(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpCharClass:
		if mayMatch(re, 0) || mayMatchAstral(re) {
			return &syntax.Regexp{Op: syntax.OpQuest, Sub: []*syntax.Regexp{re}, Flags: re.Flags}
		}
		return re
	}
	for i, s := range re.Sub {
		re.Sub[i] = optionalChars(s)
	}
	return re
}

// mayMatchAstral: a single character of re may be beyond U+FFFF.
func mayMatchAstral(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpCharClass:
		return len(re.Rune) > 0 && re.Rune[len(re.Rune)-1] > 0xFFFF
	}
	return false
}

// dropBoundaries replaces \b and \B by nothing (a part's first letter
// here may follow the n of an escaped newline).
func dropBoundaries(re *syntax.Regexp) {
	for i, s := range re.Sub {
		if s.Op == syntax.OpWordBoundary || s.Op == syntax.OpNoWordBoundary {
			re.Sub[i] = &syntax.Regexp{Op: syntax.OpEmptyMatch}
			continue
		}
		dropBoundaries(s)
	}
}

// cutLiteralPrefix: re starts with the literal prefix; the rest of it.
func cutLiteralPrefix(re *syntax.Regexp, prefix string) (*syntax.Regexp, bool) {
	if re.Op == syntax.OpLiteral {
		re = &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{re}}
	}
	if re.Op != syntax.OpConcat || len(re.Sub) == 0 || re.Sub[0].Op != syntax.OpLiteral || re.Sub[0].Flags&syntax.FoldCase != 0 {
		return nil, false
	}
	lit := string(re.Sub[0].Rune)
	if !strings.HasPrefix(lit, prefix) {
		return nil, false
	}
	sub := append([]*syntax.Regexp{}, re.Sub[1:]...)
	if rest := lit[len(prefix):]; rest != "" {
		sub = append([]*syntax.Regexp{{Op: syntax.OpLiteral, Rune: []rune(rest)}}, sub...)
	}
	if len(sub) == 0 {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}, true
	}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: sub}, true
}

// trimOptional drops what may match nothing at the end of a pattern,
// and at its start unless something anchors it: a search finds the rest
// wherever it finds the whole.
func trimOptional(re *syntax.Regexp) *syntax.Regexp {
	if re.Op != syntax.OpConcat {
		if mayBeEmpty(re) {
			return &syntax.Regexp{Op: syntax.OpEmptyMatch}
		}
		return re
	}
	sub := re.Sub
	for len(sub) > 0 && mayBeEmpty(sub[len(sub)-1]) && !isAssertion(sub[len(sub)-1]) {
		sub = sub[:len(sub)-1]
	}
	for len(sub) > 0 && mayBeEmpty(sub[0]) && !isAssertion(sub[0]) {
		sub = sub[1:]
	}
	if len(sub) == 0 {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	return &syntax.Regexp{Op: syntax.OpConcat, Sub: sub, Flags: re.Flags}
}

func isAssertion(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return true
	}
	return false
}

// mayBeEmpty: a repetition that may repeat nothing, or nothing at all.
func mayBeEmpty(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest, syntax.OpEmptyMatch:
		return true
	case syntax.OpRepeat:
		return re.Min == 0
	}
	return false
}

// mayMatch: some character the pattern consumes may be r.
func mayMatch(re *syntax.Regexp, r rune) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpAnyCharNotNL:
		return r != '\n'
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if c == r || re.Flags&syntax.FoldCase != 0 && strings.EqualFold(string(c), string(r)) {
				return true
			}
		}
		return false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= r && r <= re.Rune[i+1] {
				return true
			}
		}
		return false
	}
	for _, s := range re.Sub {
		if mayMatch(s, r) {
			return true
		}
	}
	return false
}
