package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// policyValue evaluates query (a data path of the policies) and returns
// its value.
func policyValue(t *testing.T, query string) any {
	t.Helper()
	q, err := preparePolicyQuery(query)
	require.NoError(t, err)
	rs, err := q.Eval(context.Background())
	require.NoError(t, err)
	require.Len(t, rs, 1, "%s is undefined", query)
	return rs[0].Expressions[0].Value
}

// policySet is a policy value that is a set or list of strings.
func policySet(t *testing.T, query string) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	for _, v := range policyValue(t, query).([]any) {
		set[v.(string)] = true
	}
	return set
}

// bashWords runs script with bash and returns the words it prints.
func bashWords(t *testing.T, script string) []string {
	t.Helper()
	out, err := exec.Command("bash", "-c", script).Output()
	require.NoError(t, err, "bash -c %q", script)
	return strings.Fields(string(out))
}

// TestEveryBashBuiltinIsClassified holds tooleval.arguments.shell_builtins
// to the bash on this machine: every builtin (compgen -b) and keyword
// (compgen -k) is classified, a "runs" one is a wrapper, an "inert" one
// is in inert_programs, an "evaluates" one has evaluating_words. A bash
// with a builtin the policy does not know fails here.
func TestEveryBashBuiltinIsClassified(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on this machine")
	}
	classes := policyValue(t, "data.tooleval.arguments.shell_builtins").(map[string]any)
	wrappers := policySet(t, "data.tooleval.arguments.shell_wrappers")
	inert := policySet(t, "data.tooleval.arguments.inert_programs")
	evaluating := policyValue(t, "data.tooleval.arguments.evaluating_words").(map[string]any)
	names := append(bashWords(t, "compgen -b"), bashWords(t, "compgen -k")...)
	require.Greater(t, len(names), 60, "compgen lists bash's builtins and keywords")
	for _, name := range names {
		switch classes[name] {
		case "runs":
			require.True(t, wrappers[name], "%s runs code: it must be in shell_wrappers", name)
			require.False(t, inert[name], "%s runs code: it cannot be inert", name)
		case "inert":
			require.True(t, inert[name], "%s is inert: it must be in inert_programs", name)
			require.False(t, wrappers[name], "%s is inert: it cannot be a wrapper", name)
		case "evaluates":
			require.Contains(t, evaluating, name, "%s evaluates words: evaluating_words must say which", name)
			require.False(t, inert[name], "%s evaluates words: it cannot be inert", name)
		default:
			t.Errorf("bash's %q is not classified in shell_builtins (runs, evaluates or inert)", name)
		}
	}
}

// TestArithmeticVariablesAreThePolicys assigns, with printf -v, a value
// that runs a command when evaluated as arithmetic to every variable a
// fresh bash has: each one that runs it must be in
// tooleval.arguments.arithmetic_variables.
func TestArithmeticVariablesAreThePolicys(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on this machine")
	}
	listed := policySet(t, "data.tooleval.arguments.arithmetic_variables")
	dir := t.TempDir()
	var evaluated []string
	for _, name := range bashWords(t, "compgen -v") {
		mark := filepath.Join(dir, name)
		script := "printf -v " + name + " %s 'a[$(: > " + mark + ")]'"
		_ = exec.Command("bash", "-c", script).Run() // a read-only variable fails: what matters is the mark
		if _, err := os.Stat(mark); err == nil {
			evaluated = append(evaluated, name)
			require.True(t, listed[name], "bash evaluates a value assigned to %s: add it to arithmetic_variables", name)
		}
	}
	require.NotEmpty(t, evaluated, "bash evaluates RANDOM and OPTIND assignments")
}
