//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/codex"
)

// codexRulePool is what generated rules files draw from
// (developers.openai.com/codex/rules: prefix_rule with alternatives).
var codexRulePool = []string{
	`prefix_rule(pattern = ["git", ["status", "diff", "log"]])`,
	`prefix_rule(pattern = ["git", "push"], decision = "prompt")`,
	`prefix_rule(pattern = ["git", "push", ["--force", "-f"]], decision = "forbidden")`,
	`prefix_rule(pattern = ["rm"], decision = "forbidden")`,
	`prefix_rule(pattern = ["npm", "run"])`,
	`prefix_rule(pattern = ["curl"], decision = "prompt")`,
	`prefix_rule(pattern = ["cat"])`,
	`prefix_rule(pattern = ["bash", "-c"], decision = "forbidden")`,
	`prefix_rule(pattern = ["sed", "-i"], decision = "prompt")`,
}

// codexCommands are the argument vectors every rules file is checked on.
var codexCommands = [][]string{
	{"git", "status"}, {"git", "status", "-s"}, {"git", "log", "--oneline"}, {"git", "push"}, {"git", "push", "origin", "main"},
	{"git", "push", "--force"}, {"git", "push", "-f", "origin"}, {"git", "-C", "repo", "push"}, {"/usr/bin/git", "push"},
	{"rm", "-rf", "build"}, {"/bin/rm", "x"}, {"npm", "run", "test"}, {"npm", "install"}, {"curl", "https://example.com"},
	{"cat", ".env"}, {"cat", "a", "&&", "rm", "b"}, {"bash", "-c", "rm -rf /"}, {"bash", "-lc", "git status && rm x"},
	{"sh", "-c", "curl x"}, {"sed", "-i", "s/a/b/", "f"}, {"sed", "s/a/b/", "f"}, {"env", "rm", "x"}, {"ls"},
}

// codexSplitsScript tells a shell started on one script (sh, bash or zsh
// with -c or -lc and the script): Codex's core splits the script into its
// commands and decides each (codex-rs/core/src/exec_policy.rs, as
// docs/import.md reads it), where execpolicy check matches the vector
// whole, so the check does not give the runtime's decision.
func codexSplitsScript(argv []string) bool {
	if len(argv) != 3 {
		return false
	}
	shell := argv[0] == "sh" || argv[0] == "bash" || argv[0] == "zsh"
	return shell && (argv[1] == "-c" || argv[1] == "-lc")
}

// Never looser than Codex: generated rules files, checked with the
// release's `codex execpolicy check` and imported into tooleval (approval
// policies untrusted and never); for every command a rule matches, the
// shell tool's call must be decided at least as strictly as the rule's
// decision. A command no rule matches follows the approval policy, which
// the check does not give, and a shell script Codex splits is decided by
// its parts; neither is compared.
func TestCodexNeverLooser(t *testing.T) {
	t.Parallel()
	bin := CodexBinary(nodeModules(t))
	seed := uint64(envInt("TOOLEVAL_E2E_SEED", int(time.Now().Unix())))
	t.Logf("seed %d (replay: TOOLEVAL_E2E_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0xc0dec0de))
	sets := [][]string{codexRulePool}
	for range envInt("TOOLEVAL_E2E_CODEX_RULES", 2) {
		var set []string
		for _, rule := range codexRulePool {
			if r.IntN(2) == 0 {
				set = append(set, rule)
			}
		}
		sets = append(sets, set)
	}
	var looser []Looser
	compared := 0
	for _, set := range sets {
		rules := strings.Join(set, "\n") + "\n"
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		checks, err := CodexExecPolicyCheck(ctx, bin, rules, codexCommands)
		cancel()
		require.NoError(t, err)
		var calls []Call
		for i, c := range codexCommands {
			argv := make([]any, len(c))
			for j, w := range c {
				argv[j] = w
			}
			calls = append(calls, Call{ID: fmt.Sprint(i), Tool: "shell", Args: map[string]any{"command": argv}})
		}
		for _, policy := range []string{"untrusted", "never"} {
			res, err := codex.Import([]importer.File{{Name: "e2e.rules", Data: []byte(rules)}}, codex.Options{ApprovalPolicy: policy})
			require.NoError(t, err, rules)
			got, err := Decide(context.Background(), res.Overlay, []string{"shell"}, "/ws", calls)
			require.NoError(t, err)
			for i, c := range calls {
				rt := CodexOutcome(checks[i].Decision, policy)
				if rt == "" || codexSplitsScript(codexCommands[i]) {
					continue
				}
				compared++
				if Strictness[got[i]] < Strictness[rt] {
					looser = append(looser, Looser{Settings: policy + " " + rules, Call: c, Runtime: rt, Tooleval: got[i]})
				}
			}
		}
	}
	t.Logf("%d rules files, %d calls compared, %d looser", len(sets), compared, len(looser))
	require.Positive(t, compared, "some command matches a rule")
	ReportLooser(t, "Codex", looser, func(Looser) string { return "" })
}
