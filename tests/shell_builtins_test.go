package tests

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// shellTables is the policy's classification of programs, evaluated
// once (compiling the policies is most of the cost).
var shellTables = sync.OnceValues(func() (map[string]any, error) {
	q, err := preparePolicyQuery(`{
		"classes": data.tooleval.arguments.shell.shell_builtins,
		"wrappers": data.tooleval.arguments.shell.shell_wrappers,
		"inert": data.tooleval.arguments.shell.inert_programs,
		"evaluating": data.tooleval.arguments.shell.evaluating_words,
		"arithmetic": data.tooleval.arguments.shell.arithmetic_variables,
	}`)
	if err != nil {
		return nil, err
	}
	rs, err := q.Eval(context.Background())
	if err != nil {
		return nil, err
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("the shell tables are undefined")
	}
	return rs[0].Expressions[0].Value.(map[string]any), nil
})

// policyValue is one of shellTables.
func policyValue(t *testing.T, name string) any {
	t.Helper()
	tables, err := shellTables()
	require.NoError(t, err)
	return tables[name]
}

// policySet is one of shellTables that is a set of strings.
func policySet(t *testing.T, name string) map[string]bool {
	t.Helper()
	set := map[string]bool{}
	for _, v := range policyValue(t, name).([]any) {
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

// TestEveryBashBuiltinIsClassified holds tooleval.arguments.shell.shell_builtins
// to the bash on this machine: every builtin (compgen -b) and keyword
// (compgen -k) is classified, a "runs" one is a wrapper, an "inert" one
// is in inert_programs, an "evaluates" one has evaluating_words. A bash
// with a builtin the policy does not know fails here.
func TestEveryBashBuiltinIsClassified(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on this machine")
	}
	classes := policyValue(t, "classes").(map[string]any)
	wrappers := policySet(t, "wrappers")
	inert := policySet(t, "inert")
	evaluating := policyValue(t, "evaluating").(map[string]any)
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
// tooleval.arguments.shell.arithmetic_variables.
func TestArithmeticVariablesAreThePolicys(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on this machine")
	}
	listed := policySet(t, "arithmetic")
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
