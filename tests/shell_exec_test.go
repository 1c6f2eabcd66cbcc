package tests

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
)

// shellAllowPrefixes are the allow rules the harness holds: builtins
// (whose allow means no program at all may run), stubs (only that
// program, with the rule's words first) and runners (no stub may run).
var shellAllowPrefixes = []string{
	"printf", "test", "read", "let", "ls", "git status", "find", "sed -n", "sed", "unset", "wait", "getopts",
	"mapfile", "readarray", "echo", "true", "cd", "shift", "jobs", "compgen", "type", "cat", "awk", "touch",
}

// shellExecFindings is where every violation is written, by class, for
// the people closing them (overwritten on each run).
func shellExecFindings() string {
	if p := os.Getenv("TOOLEVAL_SHELL_EXEC_FINDINGS"); p != "" {
		return p
	}
	return "/tmp/shell-harness-findings.txt"
}

// shellViolation is one command on which the policy and bash disagree.
type shellViolation struct {
	Class, Command string
	Layer          shellLayer
	Ran            []stubRun
	Verdict        shellVerdict
}

// TestShellReadingAgainstBash holds the policy's reading of a shell
// command to what real bash runs. Generated commands (the classes of
// shell_exec_gen_test.go, the examples always among them) run
// under bash -c with a PATH of recording stubs and real runners
// (shell_exec_run_test.go); then the engine decides each under inline
// layers, and:
//   - whenever the stub of a program P ran, the command is denied under
//     a deny rule of P and asked about under an ask rule of P;
//   - whenever a command is allowed under an allow rule of a prefix,
//     only that prefix ran: no stub at all for a builtin or runner
//     prefix (printf, read, find, sed -n), else only the prefix's
//     program with the rule's other words first in its arguments.
//
// TOOLEVAL_SHELL_EXEC_CASES sets how many commands are drawn (make soak
// runs many), TOOLEVAL_SHELL_EXEC_SEED replays a run (the seed is
// logged), TOOLEVAL_SHELL_EXEC_BUNDLE decides with another policy
// bundle (a directory or tarball, such as one built from an older
// commit) instead of the embedded one. Violations are written to
// /tmp/shell-harness-findings.txt (TOOLEVAL_SHELL_EXEC_FINDINGS),
// grouped by class.
func TestShellReadingAgainstBash(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("TOOLEVAL_SHELL_EXEC_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "TOOLEVAL_SHELL_EXEC_SEED")
	}
	n := 60
	if s := os.Getenv("TOOLEVAL_SHELL_EXEC_CASES"); s != "" {
		var err error
		n, err = strconv.Atoi(s)
		require.NoError(t, err, "TOOLEVAL_SHELL_EXEC_CASES")
	}
	t.Logf("seed %d, %d generated commands (replay: TOOLEVAL_SHELL_EXEC_SEED=%d TOOLEVAL_SHELL_EXEC_CASES=%d)", seed, n, seed, n)

	sandbox := newShellSandbox(t)
	g := &shellGen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), runners: sandbox.runners}
	cases := slices.Clone(shellExecExamples)
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.Command] = true
	}
	for tries := 0; len(cases) < len(shellExecExamples)+n && tries < 20*n; tries++ {
		if c := g.next(); !seen[c.Command] {
			seen[c.Command] = true
			cases = append(cases, c)
		}
	}
	commands := make([]string, len(cases))
	for i, c := range cases {
		commands[i] = c.Command
	}
	phase := newCPUPhases()
	results := sandbox.runAll(t, commands, shellExecParallel())
	requireSandboxRuns(t, results, sandbox.runners)
	t.Logf("bash ran %d commands: %s", len(commands), phase.next())

	d := newShellDecider(t)
	t.Logf("engine loaded: %s", phase.next())
	violations, unseen := splitUnseen(denyAndAskViolations(t, d, cases, results))
	t.Logf("deny and ask decided: %s", phase.next())
	allowViolations, notes := allowedViolations(t, d, cases, results, bashBuiltins(t, sandbox.bash))
	t.Logf("allow decided: %s", phase.next())
	violations = append(violations, allowViolations...)
	timeouts := 0
	for _, r := range results {
		if r.TimedOut {
			timeouts++
		}
	}
	if timeouts > 0 {
		notes = append(notes, fmt.Sprintf("%d commands ran past %s (checked on what they ran until then)", timeouts, sandbox.timeout))
	}
	for _, note := range notes {
		t.Log(note)
	}
	if len(unseen) > 0 {
		notes = append(notes, fmt.Sprintf("%d commands ran a program their text never names (code an interpreter, a script or a Makefile holds: what a command rule cannot see, docs/contract.md); listed under unseen, not violations", len(unseen)))
	}
	notes = append(notes, classCoverage(cases, results))
	report := shellFindingsReport(seed, len(cases), violations, notes)
	if len(unseen) > 0 {
		report += "\n# unseen: the rule's words are nowhere in the command's text\n" + strings.TrimPrefix(shellFindingsReport(seed, len(cases), unseen, nil), "#")
	}
	require.NoError(t, os.WriteFile(shellExecFindings(), []byte(report), 0o644))
	if len(violations) > 0 {
		shown := violations[:min(len(violations), 15)]
		var b strings.Builder
		for _, v := range shown {
			fmt.Fprintf(&b, "\n  [%s] %q under %s: ran %v; the policy said %s", v.Class, v.Command, v.Layer, v.Ran, v.Verdict)
		}
		t.Fatalf("%d violations (seed %d; all in %s):%s", len(violations), seed, shellExecFindings(), b.String())
	}
}

// requireSandboxRuns: the examples run their payload in the
// sandbox (else it records nothing and every property holds vacuously).
func requireSandboxRuns(t *testing.T, results []execResult, runners map[string]bool) {
	t.Helper()
	want := map[string]string{
		"X+=1 rm -f f": "rm -f f", "printf -v 'a[$(touch p)]' x": "touch p", "jobs -x rm f": "rm f",
		"setarch x86_64 rm f": "rm f", "find . -exec rm {} +": "rm", "rm -f f": "rm -f f", "ls -la": "ls -la",
	}
	for i, c := range shellExecExamples {
		w, ok := want[c.Command]
		if program := strings.Fields(c.Command)[0]; !ok || results[i].TimedOut || // a busy machine is not a broken sandbox
			slices.Contains(runnerPrograms, program) && !runners[program] { // nor is one without setarch
			continue
		}
		require.NotEmpty(t, results[i].Runs, "%q ran no stub: the sandbox does not record", c.Command)
		require.True(t, strings.HasPrefix(results[i].Runs[0].String(), w), "%q ran %v", c.Command, results[i].Runs)
	}
}

// denyAndAskViolations: for every stub program P that ran, the commands
// that ran it under a deny of P (must deny) and an ask of P (must ask);
// and for P run with an argument w (a plain word), under a deny of "P w"
// (must deny: a rule's other words bite among the program's own).
func denyAndAskViolations(t *testing.T, d *shellDecider, cases []shellCase, results []execResult) []shellViolation {
	t.Helper()
	ranBy := map[shellLayer][]int{} // rule -> the cases that ran what it names
	for i, r := range results {
		seen := map[shellLayer]bool{}
		for _, run := range r.Runs {
			rules := []shellLayer{{"deny", run.Program}, {"ask", run.Program}}
			if k := slices.IndexFunc(run.Args, plainWord.MatchString); k >= 0 {
				rules = append(rules, shellLayer{"deny", run.Program + " " + run.Args[k]})
			}
			for _, l := range rules {
				if !seen[l] {
					seen[l] = true
					ranBy[l] = append(ranBy[l], i)
				}
			}
		}
	}
	want := map[string]engine.Outcome{"deny": engine.OutcomeDeny, "ask": engine.OutcomeAsk}
	var violations []shellViolation
	for _, l := range slices.SortedFunc(maps.Keys(ranBy), func(a, b shellLayer) int { return strings.Compare(a.String(), b.String()) }) {
		idx := ranBy[l]
		commands := make([]string, len(idx))
		for k, i := range idx {
			commands[k] = cases[i].Command
		}
		if problems := d.layerErrors(t, l); len(problems) > 0 {
			t.Errorf("%s is refused by the policy (%v), but %q ran what it names", l, problems, commands[0])
			continue
		}
		for k, v := range d.decide(t, l, commands) {
			if v.Outcome != want[l.kind] {
				i := idx[k]
				violations = append(violations, shellViolation{cases[i].Class, cases[i].Command, l, results[i].Runs, v})
			}
		}
	}
	return violations
}

// splitUnseen sets apart the deny and ask violations whose rule names a
// word that is nowhere in the command's text (mayRead): the program ran
// from code the command only points to (python3 p.py, make, run-parts
// DIR), which the contract lists as what a command rule cannot see. A
// rule whose words the text holds must bite: that is a violation.
func splitUnseen(all []shellViolation) (violations, unseen []shellViolation) {
	for _, v := range all {
		named := true
		for _, word := range strings.Fields(v.Layer.prefix) {
			named = named && mayRead(v.Command, word)
		}
		if named {
			violations = append(violations, v)
		} else {
			unseen = append(unseen, v)
		}
	}
	return violations, unseen
}

// plainWord is an argument a two-word deny rule is written with.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// allowedViolations: every command under every allow prefix; an allowed
// one may have run only its prefix. notes names the prefixes that the
// policy refuses to hold or that allowed nothing (vacuous here).
func allowedViolations(t *testing.T, d *shellDecider, cases []shellCase, results []execResult, builtins map[string]bool) (violations []shellViolation, notes []string) {
	t.Helper()
	for _, prefix := range shellAllowPrefixes {
		l := shellLayer{kind: "allow", prefix: prefix}
		if problems := d.layerErrors(t, l); len(problems) > 0 {
			notes = append(notes, fmt.Sprintf("%s is refused by the policy (%v): nothing to hold", l, problems))
			continue
		}
		var idx []int
		var commands []string
		for i, c := range cases {
			if mayRead(c.Command, strings.Fields(prefix)[0]) {
				idx, commands = append(idx, i), append(commands, c.Command)
			}
		}
		allowed := 0
		for k, v := range d.decide(t, l, commands) {
			if v.Outcome != engine.OutcomeAllow {
				continue
			}
			allowed++
			i := idx[k]
			if bad := unexpectedRuns(strings.Fields(prefix), results[i].Runs, builtins); len(bad) > 0 {
				violations = append(violations, shellViolation{cases[i].Class, cases[i].Command, l, results[i].Runs, v})
			}
		}
		if allowed == 0 {
			notes = append(notes, fmt.Sprintf("%s allowed none of the commands", l))
		}
	}
	return violations, notes
}

// mayRead says whether a reading of command could start a part with
// program: whether program is in command once quotes and backslashes are
// taken out, or command holds ANSI-C or locale quoting ($' or $"), whose
// escapes could spell it. Only such commands are decided under an allow
// of program (the others cannot be allowed by it), which keeps the
// decisions to about a tenth.
func mayRead(command, program string) bool {
	if strings.Contains(command, "$'") || strings.Contains(command, `$"`) {
		return true
	}
	return strings.Contains(strings.NewReplacer("'", "", `"`, "", `\`, "").Replace(command), program)
}

// unexpectedRuns are the runs an allow of prefix does not account for:
// any, for a builtin or a program that is not a stub (a real runner);
// else those of another program or whose arguments do not start with
// the prefix's other words.
func unexpectedRuns(prefix []string, runs []stubRun, builtins map[string]bool) []stubRun {
	own := !builtins[prefix[0]] && slices.Contains(stubPrograms, prefix[0])
	var bad []stubRun
	for _, r := range runs {
		if !own || r.Program != prefix[0] || len(r.Args) < len(prefix)-1 || !slices.Equal(r.Args[:len(prefix)-1], prefix[1:]) {
			bad = append(bad, r)
		}
	}
	return bad
}

// bashBuiltins are bash's builtins and keywords, as bash lists them.
func bashBuiltins(t *testing.T, bash string) map[string]bool {
	t.Helper()
	out, err := exec.Command(bash, "-c", "compgen -b; compgen -k").Output()
	require.NoError(t, err)
	builtins := map[string]bool{}
	for _, name := range strings.Fields(string(out)) {
		builtins[name] = true
	}
	require.True(t, builtins["printf"] && builtins["read"] && !builtins["ls"], "compgen -b: %s", out)
	return builtins
}

// classCoverage says, per class, how many commands were drawn and how
// many of them ran a stub (a class whose commands never run one tests
// nothing).
func classCoverage(cases []shellCase, results []execResult) string {
	drawn, ran := map[string]int{}, map[string]int{}
	for i, c := range cases {
		for _, class := range strings.Split(findingsClass(c.Class), "+") {
			drawn[class]++
			if len(results[i].Runs) > 0 {
				ran[class]++
			}
		}
	}
	parts := []string{}
	for _, class := range slices.Sorted(maps.Keys(drawn)) {
		parts = append(parts, fmt.Sprintf("%s %d/%d", class, ran[class], drawn[class]))
	}
	return "commands that ran a stub / commands drawn, by class: " + strings.Join(parts, ", ")
}

// shellFindingsReport is the findings file: the run, its notes, then the
// violations grouped by class.
func shellFindingsReport(seed uint64, n int, violations []shellViolation, notes []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# TestShellReadingAgainstBash: seed %d, %d commands, %d violations, %s\n",
		seed, n, len(violations), time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "# replay: TOOLEVAL_SHELL_EXEC_SEED=%d TOOLEVAL_SHELL_EXEC_CASES=%d go test -count=1 -run TestShellReadingAgainstBash ./tests/\n", seed, n-len(shellExecExamples))
	b.WriteString("# deny/ask: a stub of P ran (\"ran\": every stub run, program and arguments), so the command must be\n" +
		"#   denied under a deny of P and asked about under an ask of P (beside a plain allow of the tool).\n" +
		"# allow: allowed under an allow of a prefix, so only that prefix may have run: no stub for a builtin or\n" +
		"#   runner prefix (printf, read, find, sed -n), else only its own program with the rule's words first.\n")
	for _, note := range notes {
		fmt.Fprintf(&b, "# note: %s\n", note)
	}
	byClass := map[string][]shellViolation{}
	for _, v := range violations {
		class := findingsClass(v.Class)
		byClass[class] = append(byClass[class], v)
	}
	for _, class := range slices.Sorted(maps.Keys(byClass)) {
		fmt.Fprintf(&b, "\n## %s (%d)\n", class, len(byClass[class]))
		for _, v := range byClass[class] {
			fmt.Fprintf(&b, "\ncommand: %q\nrule:    %s\nran:     %s\npolicy:  %s\n", v.Command, v.Layer, runsText(v.Ran), v.Verdict)
		}
	}
	return b.String()
}

// findingsClass is the group a case's violations are listed under: its
// classes without the separator and the allowed part they were joined
// with ("separator/runner+allowed" is runner).
func findingsClass(class string) string {
	classes := strings.Split(strings.TrimPrefix(class, "separator/"), "+")
	if attacks := slices.DeleteFunc(slices.Clone(classes), func(c string) bool { return c == "allowed" }); len(attacks) > 0 {
		classes = attacks
	}
	slices.Sort(classes)
	return strings.Join(slices.Compact(classes), "+")
}

func runsText(runs []stubRun) string {
	if len(runs) == 0 {
		return "(no stub)"
	}
	texts := make([]string, len(runs))
	for i, r := range runs {
		texts[i] = strconv.Quote(r.String())
	}
	return strings.Join(texts, ", ")
}

// cpuPhases measures the CPU time (this process's and its children's)
// of the test's phases, for the log: wall time says little on a busy
// machine.
type cpuPhases struct {
	self, children time.Duration
	wall           time.Time
}

func newCPUPhases() *cpuPhases {
	p := &cpuPhases{}
	p.next()
	return p
}

func (p *cpuPhases) next() string {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	cpu := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	s, c, now := cpu(self), cpu(children), time.Now()
	out := fmt.Sprintf("%.2f s CPU in the test process, %.2f s in its children, %.2f s wall",
		(s - p.self).Seconds(), (c - p.children).Seconds(), now.Sub(p.wall).Seconds())
	p.self, p.children, p.wall = s, c, now
	return out
}

// TestShellExecJudges holds the harness's own judges: what an allow of a
// prefix accounts for, and how a stub log is read (a record cut short
// by a kill is dropped, empty arguments are kept).
func TestShellExecJudges(t *testing.T) {
	t.Parallel()
	builtins := map[string]bool{"printf": true, "read": true}
	run := func(words ...string) stubRun { return stubRun{Program: words[0], Args: words[1:]} }
	for _, c := range []struct {
		prefix string
		runs   []stubRun
		bad    int
	}{
		{"printf", nil, 0},
		{"printf", []stubRun{run("printf", "x")}, 1}, // a builtin's allow: no stub at all
		{"read", []stubRun{run("touch", "p")}, 1},
		{"find", []stubRun{run("rm", "f")}, 1}, // a runner is no stub: no stub at all
		{"ls", []stubRun{run("ls", "-la"), run("ls")}, 0},
		{"ls", []stubRun{run("ls"), run("rm", "f")}, 1},
		{"git status", []stubRun{run("git", "status", "-s")}, 0},
		{"git status", []stubRun{run("git", "push")}, 1},
		{"git status", []stubRun{run("git")}, 1},
	} {
		require.Len(t, unexpectedRuns(strings.Fields(c.prefix), c.runs, builtins), c.bad, "%s: %v", c.prefix, c.runs)
	}
	log := "rm\x00-f\x00f\x00" + stubEnd + "\x00ls\x00\x00" + stubEnd + "\x00touch\x00p\x00"
	require.Equal(t, []stubRun{run("rm", "-f", "f"), run("ls", "")}, parseStubLog([]byte(log)))
	require.Empty(t, parseStubLog(nil))
	require.Equal(t, "runner", findingsClass("separator/allowed+runner"))
	require.Equal(t, "runner+subscript", findingsClass("separator/subscript+runner"))
	require.Equal(t, "allowed", findingsClass("separator/allowed+allowed"))
	require.True(t, mayRead(`p"ri"ntf x`, "printf") && mayRead(`$'\x70rintf'`, "printf") && !mayRead("ls", "printf"))
	violations, unseen := splitUnseen([]shellViolation{
		{Command: "python3 p.py", Layer: shellLayer{"deny", "rm"}},        // rm only in p.py
		{Command: "setarch x86_64 rm f", Layer: shellLayer{"deny", "rm"}}, // named: must bite
		{Command: "make", Layer: shellLayer{"deny", "rm f"}},
		{Command: "r''m f", Layer: shellLayer{"deny", "rm f"}},
	})
	require.Equal(t, []string{"setarch x86_64 rm f", "r''m f"}, []string{violations[0].Command, violations[1].Command})
	require.Len(t, violations, 2)
	require.Len(t, unseen, 2)
}
