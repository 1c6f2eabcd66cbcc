package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Codex's rules are checked with the release's own `codex execpolicy
// check --rules FILE -- COMMAND...` (openai/codex codex-rs/cli, the
// execpolicy crate's README): it prints the matched rules and, when one
// matches, the strictest decision ("allow", "prompt", "forbidden"). It
// matches the argument vector as given (a `bash -lc` script is split by
// Codex's core before the check, not by this subcommand). CODEX_HOME and
// HOME are a temporary directory: no user configuration applies.

// CodexBinary is the pinned Codex binary under the e2e build's
// node_modules (the platform package the release names as an optional
// dependency).
func CodexBinary(nodeModules string) string {
	return filepath.Join(nodeModules, "@openai", "codex-linux-x64", "vendor", "x86_64-unknown-linux-musl", "bin", "codex")
}

// CodexCheck is what `codex execpolicy check` decided for one command:
// the decision of the strictest matching rule, "" when no rule matched.
type CodexCheck struct {
	Decision string `json:"decision"`
}

// CodexExecPolicyCheck checks each command against a rules file with
// the release's execpolicy.
func CodexExecPolicyCheck(ctx context.Context, bin, rules string, commands [][]string) ([]CodexCheck, error) {
	home, err := os.MkdirTemp("", "tooleval-e2e-codex-")
	if err != nil {
		return nil, fmt.Errorf("codex: temporary directory: %w", err)
	}
	defer os.RemoveAll(home)
	rulesFile := filepath.Join(home, "e2e.rules")
	if err := os.WriteFile(rulesFile, []byte(rules), 0o644); err != nil {
		return nil, fmt.Errorf("codex: rules: %w", err)
	}
	env := append(baseEnv(home), "CODEX_HOME="+home)
	out := make([]CodexCheck, len(commands))
	for i, c := range commands {
		args := append([]string{"execpolicy", "check", "--rules", rulesFile, "--"}, c...)
		b, err := runProcess(ctx, bin, args, home, env)
		if err != nil {
			return nil, fmt.Errorf("codex: execpolicy check %q: %w\n%s", c, err, tail(b, 2000))
		}
		if err := json.Unmarshal(lastJSONLine(b), &out[i]); err != nil {
			return nil, fmt.Errorf("codex: execpolicy check %q printed %q: %w", c, tail(b, 2000), err)
		}
	}
	return out, nil
}

// lastJSONLine is the last line of b that starts with '{' (the check
// prints warnings on standard error, which runProcess interleaves).
func lastJSONLine(b []byte) []byte {
	var last []byte
	start := 0
	for i := 0; i <= len(b); i++ {
		if i == len(b) || b[i] == '\n' {
			if line := b[start:i]; len(line) > 0 && line[0] == '{' {
				last = line
			}
			start = i + 1
		}
	}
	return last
}

// CodexOutcome maps an execpolicy decision, under an approval policy, to
// tooleval's outcome ("" when no rule matched: the approval policy's
// fallback, which the check does not give).
func CodexOutcome(decision, approvalPolicy string) string {
	switch decision {
	case "allow":
		return "allow"
	case "prompt":
		// Under never, nothing can ask: a prompt is refused
		// (developers.openai.com/codex/rules).
		if approvalPolicy == "never" {
			return "deny"
		}
		return "ask"
	case "forbidden":
		return "deny"
	}
	return ""
}
