package claudecode

import (
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// claudePath reads a Read or Edit specifier. Claude Code's Read and Edit
// rules "follow the gitignore specification" with four forms
// (code.claude.com/docs/en/permissions, "Read and Edit"): //path is
// absolute, ~/path below the home directory, /path relative to the
// project root, path and ./path relative to the current directory. Both
// bases are the workspace root here (the contract's "Path rules"). As
// gitignore reads a pattern (git-scm.com/docs/gitignore, "PATTERN
// FORMAT"), one with a / at its start or in its middle is anchored at
// its base, and one without (./ dropped) matches at any depth below it:
// Edit(/Makefile) is the root's Makefile only (./Makefile here),
// Read(./.env) and Read(.env) every .env (.env here), Edit(docs/**) the
// root's docs. The home directory is not known: an allow of ~/path is
// dropped, a deny or ask matches the path below any directory.
func claudePath(tool, spec, list string, note func(string, ...any), unexpressible func(string) []any) []any {
	if strings.ContainsAny(spec, "[]{}\\\x00") || strings.HasPrefix(spec, "$") {
		return unexpressible("a pattern tooleval's globs cannot write")
	}
	glob := spec
	switch {
	case strings.HasPrefix(spec, "//"):
		glob = spec[1:]
	case strings.HasPrefix(spec, "~/"):
		if list == "allow" {
			return unexpressible("a path below the home directory")
		}
		note("a path below the home directory, which tooleval does not know: carried below any directory")
		glob = "/**/" + strings.TrimPrefix(spec, "~/")
	case strings.HasPrefix(spec, "/"):
		// anchored at the root: a relative glob with a / is read from the
		// workspace root, one without at any depth
		glob = strings.TrimPrefix(spec, "/")
		if !strings.Contains(strings.TrimSuffix(glob, "/"), "/") {
			glob = "./" + glob
		}
	case strings.HasPrefix(spec, "./"):
		// the current directory: as gitignore reads what follows
		glob = strings.TrimPrefix(spec, "./")
	}
	if !validGlob(glob) {
		return unexpressible("a path tooleval's globs cannot write (empty, . or .. segments, ** inside a segment, not NFC)")
	}
	tools := []string{tool}
	switch {
	case list == "allow":
		// an allow lets through the tool it names only
	case tool == "Read":
		tools = claudeReadTools
	case tool == "Edit":
		tools = claudeEditTools
	}
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		out = append(out, map[string]any{"tool": t, "path": glob})
	}
	return out
}

// validGlob: a glob the policy's path rules accept (the contract,
// Argument rules: path): NFC, no empty, . or .. segment, ** only as a
// whole segment, no leading ~ or $ (the characters [ ] { } \ and NUL are
// ruled out before), absolute or relative, not empty.
func validGlob(g string) bool {
	if g == "" || !norm.NFC.IsNormalString(g) || strings.HasPrefix(g, "~") || strings.HasPrefix(g, "$") {
		return false
	}
	segments := strings.Split(strings.TrimPrefix(g, "/"), "/")
	if strings.HasPrefix(g, "./") {
		segments = segments[1:]
	}
	for _, seg := range segments {
		if seg == "" || seg == "." || seg == ".." || (strings.Contains(seg, "**") && seg != "**") {
			return false
		}
	}
	return len(segments) > 0
}

// claudeShellTools are the tools a Read rule's path is carried to: Claude
// Code denies a shell command that reads a path its Read deny rules cover
// (`cat .env` under Read(./.env)). Bash and Monitor take a command,
// PowerShell one tooleval does not read (every command rule bites it).
var claudeShellTools = []string{"Bash", "Monitor", "PowerShell"}

// claudeShellGuard is a command rule that bites every command tooleval
// cannot read exactly (globs, $, quotes it cannot resolve, redirections,
// ...) and every command a wrapper runs (the contract: a deny or ask
// command rule bites on those), besides the no-op `:` itself.
const claudeShellGuard = ":"

// claudeReadShell are the deny or ask entries that carry a Read rule's
// path to the shell: a command whose words could name a matching path.
// That is over-approximated as a command whose text holds the literal
// part of the pattern's last named segment (any case, with quotes
// anywhere between its characters, which a shell removes), or one
// tooleval cannot read exactly or that a wrapper runs (the guard). A
// pattern with no literal part bites every call of the shell tools.
func claudeReadShell(spec string) []any {
	literal := claudeLiteral(spec)
	var out []any
	for _, t := range claudeShellTools {
		if literal == "" {
			out = append(out, t)
			continue
		}
		out = append(out,
			map[string]any{"tool": t, "args_pattern": claudeWordPattern(literal)},
			map[string]any{"tool": t, "command": claudeShellGuard})
	}
	return out
}

// claudeBrackets are the parts of a gitignore pattern that stand for one
// of several characters or texts: no literal text of a name.
var claudeBrackets = regexp.MustCompile(`\[[^\]]*\]|\{[^}]*\}`)

// claudeLiteral is the longest run of literal characters in the last
// segment of a path pattern that names something (not `**`, not only
// wildcards), or "" when there is none: every path the pattern matches
// has a segment holding it, and a word naming such a path from any
// directory at or above it holds it too.
func claudeLiteral(spec string) string {
	for _, prefix := range []string{"~/", "./", "/"} {
		for strings.HasPrefix(spec, prefix) {
			spec = strings.TrimPrefix(spec, prefix)
		}
	}
	segments := strings.Split(spec, "/")
	for i := len(segments) - 1; i >= 0; i-- {
		best := ""
		for _, run := range strings.FieldsFunc(claudeBrackets.ReplaceAllString(segments[i], "*"), func(r rune) bool { return r == '*' || r == '?' || r == '\\' }) {
			if len(run) > len(best) {
				best = run
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// claudeWordPattern is an RE2 expression found in a call's arguments as
// canonical JSON (the contract's args_pattern) wherever literal appears
// in a word, in any case, with single quotes or (JSON-escaped) double
// quotes between its characters.
func claudeWordPattern(literal string) string {
	var b strings.Builder
	b.WriteString("(?i)")
	for i, r := range literal {
		if i > 0 {
			b.WriteString(`(?:\\"|')*`)
		}
		if r == '"' {
			b.WriteString(`\\"`)
			continue
		}
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
	return b.String()
}
