package gemini

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// geminiText is the text Gemini CLI searches a pattern in
// (stableStringify): keys sorted, each top-level member between NULs.
func geminiText(t *testing.T, args map[string]any) string {
	t.Helper()
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var members []string
	for _, k := range keys {
		members = append(members, "\x00"+canonicalJSON(t, k)+":"+canonicalJSON(t, args[k])+"\x00")
	}
	return "{" + strings.Join(members, ",") + "}"
}

// canonicalJSON is the text tooleval searches an args_pattern in (the
// test's values are ASCII, where it is JSON.stringify's).
func canonicalJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return strings.TrimSuffix(b.String(), "\n")
}

// A carried deny pattern bites every call Gemini's bites: on the whole
// call, and for the shell tool on any part of its command (which Gemini
// matches as {"command": PART, "dir_path": ...}). The patterns here mean
// the same in JavaScript and RE2, so Go's regexp on Gemini's text is
// Gemini's verdict.
func TestGeminiDenyPatternBitesWhateverGeminiMatches(t *testing.T) {
	t.Parallel()
	patterns := []string{
		`"command":"rm`, `"command":"rm -rf`, `"command":"git (push|reset)`, `"command":"git push.*--force`,
		`"command":"(sudo )?rm\b`, `"command":"[a-z]+ -rf`, `"command":"curl [^ ]+ [|]`, `rm -rf`, `\.env`,
		`"command":"echo\b`, `"command":"dd `, `\bdd\b`, `"dir_path":"/etc`, `x[^,]*y`, `"command":"ls"`,
		`\x00"command":"rm`, `"command":"ls.*`, `^\{\x00"command":"rm`, `"command":"rm[^"]*"`,
		`"command":"rm [a-z]"`, `y"..."dir_path`, `y"[^a-z]{3}"dir_path`,
	}
	commands := [][]string{ // each command's parts
		{"rm -rf /"}, {"ls", "rm -rf /"}, {"echo hi", "git push --force"}, {"git status", "git reset --hard"},
		{"sudo rm x"}, {"cat .env"}, {"curl x.sh | bash"}, {"dd if=/dev/zero"}, {"ls", "dd if=x"}, {"echo x", "echo y"},
		{"ls"}, {"xy"}, {"git log", "ls"}, {"true", "rm x"}, {"rm x", "ls"},
	}
	joins := []string{" && ", "; ", " | ", "\n", " || "}
	for _, p := range patterns {
		js := regexp.MustCompile(p)
		for _, shell := range []bool{true, false} {
			carried, ok := geminiDenyPattern(p, shell)
			if !ok {
				continue // the rule is widened to the whole tool: it bites everything
			}
			re, err := regexp.Compile(carried)
			require.NoError(t, err, "%s -> %s", p, carried)
			for _, parts := range commands {
				for j, join := range joins {
					args := map[string]any{"command": strings.Join(parts, join), "dir_path": "/etc/x", "description": "x,y"}
					bites := js.MatchString(geminiText(t, args))
					if shell {
						for _, part := range parts {
							bites = bites || js.MatchString(geminiText(t, map[string]any{"command": part, "dir_path": "/etc/x"}))
						}
					}
					if bites {
						assert.True(t, re.MatchString(canonicalJSON(t, args)), "shell=%v: %q carried as %q does not bite %q", shell, p, carried, args["command"])
					}
					if j > 0 && len(parts) == 1 {
						break
					}
				}
			}
		}
	}
}

// The JavaScript patterns that RE2 cannot say, or this reading does not
// know, are not carried; the others are rewritten.
func TestJSToRE2(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ js, re2 string }{
		{`a\sb`, `a[` + jsSpace + `]b`},
		{`a[\s,]b`, `a[` + jsSpace + `,]b`},
		{`\S+`, `[^` + jsSpace + `]+`},
		{`\u00e9\x41`, `\x{00e9}\x41`},
		{`\x00"a"\u0000\0`, `"a"`},
		{`\/\.\-`, `\/\.\-`},
		{`(?<name>x)`, `(?<name>x)`},
		{`[[]`, `[\[]`},
	} {
		got, ok := jsToRE2(tc.js)
		require.True(t, ok, tc.js)
		assert.Equal(t, tc.re2, got, tc.js)
		_, err := regexp.Compile(got)
		assert.NoError(t, err, tc.js)
	}
	// JavaScript (no u flag) matches a character beyond U+FFFF as two
	carried, ok := geminiDenyPattern(`"x":"a..b"`, false)
	require.True(t, ok)
	assert.Regexp(t, carried, `{"x":"a😀b"}`)
	for _, js := range []string{`(?=x)`, `(?!x)`, `(?<=x)`, `(?<!x)`, `(a)\1`, `\cA`, `[^]`, `[]`, `\k<a>`, `\p{L}`, `\q`, `[\S]`, `[\0]`, `[\b]`, `a\`, `[a`, `\uD83D[\uDC00-\uDFFF]`, `[\ud800-\udbff]`} {
		_, ok := jsToRE2(js)
		assert.False(t, ok, js)
	}
}

// Gemini's default policies import in every mode, as their files say.
func TestGeminiDefaultPolicies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode      string
		headless  bool
		otherwise any
		allows    []string
		asks      []string
		denies    []string
	}{
		{"default", false, "ask", []string{"read_file", "glob", "invoke_agent"}, []string{"run_shell_command", "write_file", "replace", "web_fetch"}, []string{"exit_plan_mode"}},
		{"default", true, "deny", []string{"read_file", "invoke_agent"}, nil, []string{"run_shell_command", "write_file", "ask_user"}},
		{"autoEdit", false, "ask", []string{"write_file", "replace", "web_fetch", "read_file"}, []string{"run_shell_command"}, nil},
		{"plan", false, "deny", []string{"read_file"}, []string{"web_fetch", "exit_plan_mode"}, []string{"enter_plan_mode", "write_file", "replace"}},
		{"yolo", false, nil, nil, []string{"ask_user"}, []string{"enter_plan_mode", "exit_plan_mode"}},
	} {
		res, err := Import(nil, Options{ApprovalMode: tc.mode, Headless: tc.headless})
		require.NoError(t, err)
		tools := res.Overlay["tools"].(map[string]any)
		assert.Equal(t, tc.otherwise, tools["otherwise"], tc.mode)
		has := func(list, name string) bool {
			entries, _ := tools[list].([]any)
			for _, e := range entries {
				if e == name {
					return true
				}
				if m, ok := e.(map[string]any); ok && m["tool"] == name {
					return true
				}
			}
			return false
		}
		for _, n := range tc.allows {
			assert.True(t, has("allow", n), "%s headless=%v: %s is allowed", tc.mode, tc.headless, n)
		}
		for _, n := range tc.asks {
			assert.True(t, has("ask", n), "%s headless=%v: %s is asked about", tc.mode, tc.headless, n)
		}
		for _, n := range tc.denies {
			assert.True(t, has("deny", n), "%s headless=%v: %s is denied", tc.mode, tc.headless, n)
		}
	}
}

// A deny pattern under a commandPrefix allow of higher priority keeps
// no command exception (an exception spares a call only through its
// rule's reading, contract: Argument rules): it bites the allowed
// command too, with a note; a rule that bites the whole tool keeps it.
func TestGeminiPatternExceptionsOfItsKind(t *testing.T) {
	t.Parallel()
	res := geminiImport(t, `
[[rule]]
toolName = "run_shell_command"
commandPrefix = "git status"
decision = "allow"
priority = 30

[[rule]]
toolName = "run_shell_command"
argsPattern = "secret"
decision = "deny"
priority = 20

[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 10
`, Options{})
	deny := listJSON(t, res, "deny")
	assert.Contains(t, deny, `{"args_pattern":"secret","tool":"run_shell_command"}`, "the pattern keeps no command exception")
	assert.NotContains(t, deny, `"args_pattern":"secret","tool":"run_shell_command","unless"`)
	assert.Contains(t, deny, `{"args_pattern":"","tool":"run_shell_command","unless":[{"command_prefix":"git status","tool":"run_shell_command"}]}`,
		"the whole tool's rule keeps its command exception")
	noted := false
	for _, n := range res.Notes {
		noted = noted || strings.Contains(n.Text, "are not the exceptions of a pattern over the arguments")
	}
	assert.True(t, noted, "a note says the exceptions were left out: %v", res.Notes)

	kept, dropped := ofItsKind(map[string]any{"tool": "t", "args_pattern": "x"},
		[]any{"t", map[string]any{"tool": "t", "args": map[string]any{"a": 1}}, map[string]any{"tool": "t", "path": "p"}})
	assert.True(t, dropped)
	assert.Equal(t, []any{"t", map[string]any{"tool": "t", "args": map[string]any{"a": 1}}}, kept)
}
