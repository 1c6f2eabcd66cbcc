package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/tooleval/tooleval/tests/harness"
)

// Gemini CLI's policy engine is asked directly: gemini/policy.mjs loads
// the release's bundled core module and calls createPolicyEngineConfig and
// PolicyEngine.check, as Gemini CLI does at start-up
// (google-gemini/gemini-cli packages/core/src/policy/config.ts,
// policy-engine.ts). No model and no network are involved; HOME is a
// temporary directory, so only the given policies, the release's default
// policies and (if present) the machine's system policy directory,
// /etc/gemini-cli/policies, apply.

// GeminiCase is one policy directory (the user tier, as --policy gives
// it), a mode, and the calls to decide under them.
type GeminiCase struct {
	PolicyDir    string       `json:"policyDir"`
	ApprovalMode string       `json:"approvalMode"` // default, autoEdit, plan, yolo
	Interactive  bool         `json:"interactive"`  // false: gemini -p (headless)
	Calls        []GeminiCall `json:"calls"`
}

// GeminiCall is one call as Gemini's engine takes it.
type GeminiCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// GeminiDecision is what Gemini's engine decided for a case's calls
// ("allow", "deny", "ask_user"), or the error it reported loading the
// case's policies.
type GeminiDecision struct {
	Error     string   `json:"error"`
	Decisions []string `json:"decisions"`
}

// GeminiCoreModule is the module of the Gemini CLI bundle that exports
// the core package (PolicyEngine, createPolicyEngineConfig): the bundler
// names it core-HASH.js.
func GeminiCoreModule(nodeModules string) (string, error) {
	matches, err := filepath.Glob(filepath.Join(nodeModules, "@google", "gemini-cli", "bundle", "core-*.js"))
	if err != nil {
		return "", fmt.Errorf("gemini: bundle: %w", err)
	}
	sort.Strings(matches)
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err == nil && bytes.Contains(b, []byte("\n  PolicyEngine,\n")) && bytes.Contains(b, []byte("\n  createPolicyEngineConfig,\n")) {
			return m, nil
		}
	}
	return "", fmt.Errorf("gemini: no module of %s exports PolicyEngine and createPolicyEngineConfig", filepath.Join(nodeModules, "@google", "gemini-cli", "bundle"))
}

// GeminiPolicyCheck decides every case with Gemini CLI's engine in one
// node process.
func GeminiPolicyCheck(ctx context.Context, nodeModules string, cases []GeminiCase) ([]GeminiDecision, error) {
	core, err := GeminiCoreModule(nodeModules)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "tooleval-e2e-gemini-")
	if err != nil {
		return nil, fmt.Errorf("gemini: temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, fmt.Errorf("gemini: home: %w", err)
	}
	in, err := json.Marshal(map[string]any{"core": core, "cases": cases})
	if err != nil {
		return nil, fmt.Errorf("gemini: input: %w", err)
	}
	inFile, outFile := filepath.Join(tmp, "in.json"), filepath.Join(tmp, "out.json")
	if err := os.WriteFile(inFile, in, 0o644); err != nil {
		return nil, fmt.Errorf("gemini: input: %w", err)
	}
	script := filepath.Join(harness.Root(), "tests", "e2e", "gemini", "policy.mjs")
	env := append(baseEnv(home), "GEMINI_TELEMETRY_ENABLED=false")
	log, err := runProcess(ctx, "bash", []string{"-c", `exec node "$0" "$1" < "$2"`, script, outFile, inFile}, tmp, env)
	if err != nil {
		return nil, fmt.Errorf("gemini: policy engine: %w\n%s", err, tail(log, 4000))
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		return nil, fmt.Errorf("gemini: policy engine wrote no decisions: %w\n%s", err, tail(log, 4000))
	}
	var out []GeminiDecision
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("gemini: decisions: %w", err)
	}
	if len(out) != len(cases) {
		return nil, fmt.Errorf("gemini: %d decisions for %d cases", len(out), len(cases))
	}
	return out, nil
}

// GeminiOutcome maps a decision of Gemini's engine to tooleval's outcome.
func GeminiOutcome(d string) string {
	switch d {
	case "allow":
		return "allow"
	case "ask_user":
		return "ask"
	case "deny":
		return "deny"
	}
	return ""
}
