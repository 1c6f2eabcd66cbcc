package tests

import (
	"context"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/tooleval/tooleval/tests/harness"
)

// shellReader is tooleval.arguments.shell.read_shell prepared on the policies.
var shellReader = sync.OnceValues(func() (rego.PreparedEvalQuery, error) {
	return preparePolicyQuery("data.tooleval.arguments.shell.read_shell(input)")
})

// preparePolicyQuery prepares query on the policies (their tests left
// out), for the fuzz targets that call one policy function directly.
func preparePolicyQuery(query string) (rego.PreparedEvalQuery, error) {
	return rego.New(
		rego.Query(query),
		rego.Load([]string{harness.PoliciesDir()}, func(_ string, info fs.FileInfo, _ int) bool {
			return !info.IsDir() && strings.HasSuffix(info.Name(), "_test.rego")
		}),
	).PrepareForEval(context.Background())
}

// evalObject evaluates a prepared one-expression query on input and
// returns its value, an object: the test fails on an evaluation error,
// an undefined result or another value.
func evalObject(t *testing.T, prepared func() (rego.PreparedEvalQuery, error), input string) map[string]any {
	t.Helper()
	q, err := prepared()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := q.Eval(context.Background(), rego.EvalInput(input))
	if err != nil {
		t.Fatalf("%q: %v", input, err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		t.Fatalf("%q: undefined", input)
	}
	value, ok := rs[0].Expressions[0].Value.(map[string]any)
	if !ok {
		t.Fatalf("%q: %v, not an object", input, rs[0].Expressions[0].Value)
	}
	return value
}

// FuzzShellReading holds read_shell to the property the command rules
// rest on: for any command it has a reading (no evaluation error, never
// undefined), and a command with a control operator, a substitution, an
// expansion, a redirection or an escape outside single quotes is never
// read as one simple command of a program that runs its own words. The
// judge of "outside quotes" is unquoted below, a character-by-character
// scan written apart from the policy's regular expressions. The seeds
// are the classes of the policy's tables; `make soak` runs the fuzzer.
func FuzzShellReading(f *testing.F) {
	for _, seed := range []string{
		"npm run build", "safe-cmd && other-cmd", "ls;", "r''m -rf /", "echo 'a; b'", `echo "a && b"`,
		"URL=http://github.com && curl $URL", "echo $(id)", "echo `id`", `echo "$(id)"`, "cat <(ls)",
		"echo x > f", "a \\; b", "a \\\nb", "ls|wc", "ls\nrm", "ls &", "sh -c 'rm x'", `'a'"b"c`,
		"echo '", `echo "`, "ls ； rm", "ls\x00rm", "ls\rrm", "a||b", "a|&b", "ls\t-la",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, command string) {
		reading := evalObject(t, shellReader, command)
		if _, unreadable := reading["unreadable"]; unreadable {
			return
		}
		parts, _ := reading["parts"].([]any)
		if len(parts) == 0 {
			t.Fatalf("read_shell(%q) = %v: readable with no part", command, reading)
		}
		if len(parts) == 1 && !parts[0].(map[string]any)["wrapper"].(bool) {
			if c, ok := unquoted(command); ok {
				t.Fatalf("read_shell(%q) reads one simple command, but %q is outside single quotes", command, c)
			}
		}
	})
}

// unquoted returns the first character of command, once its trailing
// blanks, newlines and semicolons are set aside (they end the command),
// that a shell would read as more than itself: outside quotes a control
// operator's character, (, ), <, >, $, a backtick or \; inside double
// quotes $, a backtick or \. ok is false when there is none.
func unquoted(command string) (c rune, ok bool) {
	command = strings.TrimRight(command, " \t\n;")
	single, double := false, false
	for _, r := range command {
		switch {
		case single:
			single = r != '\''
		case double:
			if strings.ContainsRune("$`\\", r) {
				return r, true
			}
			double = r != '"'
		case r == '\'':
			single = true
		case r == '"':
			double = true
		case strings.ContainsRune(";&|\n()<>$`\\", r):
			return r, true
		}
	}
	return 0, false
}
