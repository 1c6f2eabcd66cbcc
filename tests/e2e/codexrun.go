package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// Codex is driven headless, pointed only at the model server:
//
//   - codex exec --skip-git-repo-check --json PROMPT in the workspace
//     (developers.openai.com/codex/noninteractive);
//   - CODEX_HOME and HOME temporary; CODEX_HOME/config.toml selects a
//     model provider whose base_url is the model server (wire_api
//     "responses", env_key naming a dummy key), turns off the update
//     check and analytics (developers.openai.com/codex/config-reference,
//     /codex/config-advanced: model_providers, check_for_update_on_startup,
//     analytics.enabled);
//   - the rules under test in CODEX_HOME/rules/e2e.rules
//     (developers.openai.com/codex/rules).

// CodexRun is one headless Codex session.
type CodexRun struct {
	Binary         string // CodexBinary
	Rules          string // CODEX_HOME/rules/e2e.rules
	ApprovalPolicy string // approval_policy (empty: never)
	Sandbox        string // --sandbox (empty: workspace-write)
	Script         []Turn
	Files          map[string]string
	Dir            string   // the session's directory (CodexWorkspace(Dir) is the workspace)
	Config         string   // TOML appended to config.toml (tables only, e.g. [[hooks.PreToolUse]])
	Flags          []string // more flags of codex exec (before the prompt)
}

// CodexWorkspace is the workspace of a session in dir.
func CodexWorkspace(dir string) string { return filepath.Join(dir, "ws") }

// Run runs the session and returns what happened.
func (c CodexRun) Run(ctx context.Context) (*Outcome, error) {
	ws, home := CodexWorkspace(c.Dir), filepath.Join(c.Dir, "home")
	if err := writeTree(ws, c.Files); err != nil {
		return nil, fmt.Errorf("codex: workspace: %w", err)
	}
	srv, err := NewServer(c.Script)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	policy, sandbox := c.ApprovalPolicy, c.Sandbox
	if policy == "" {
		policy = "never"
	}
	if sandbox == "" {
		sandbox = "workspace-write"
	}
	config := fmt.Sprintf(`model = "gpt-5-codex"
model_provider = "e2e"
approval_policy = %q
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.e2e]
name = "e2e loopback"
base_url = "%s/v1"
wire_api = "responses"
env_key = "E2E_LOOPBACK_KEY"
`, policy, srv.URL()) + c.Config
	files := map[string]string{"config.toml": config}
	if c.Rules != "" {
		files["rules/e2e.rules"] = c.Rules
	}
	if err := writeTree(home, files); err != nil {
		return nil, fmt.Errorf("codex: home: %w", err)
	}
	env := append(baseEnv(home), "CODEX_HOME="+home, "E2E_LOOPBACK_KEY=e2e-loopback")
	args := append([]string{"exec", "--skip-git-repo-check", "--json", "--sandbox", sandbox}, c.Flags...)
	args = append(args, "Run the scripted tool calls.")
	out, err := runProcess(ctx, c.Binary, args, ws, env)
	o := &Outcome{Dir: c.Dir, Workspace: ws, Log: out, Server: srv, Results: srv.Results()}
	if err != nil {
		return o, fmt.Errorf("codex: %w\n%s", err, tail(out, 4000))
	}
	return o, nil
}

// CodexVerdict reads what Codex did with one exec_command call from the
// function_call_output it sent back: a command that ran reports its exit
// ("Process exited with code N"); one its rules forbid is rejected ("policy
// forbids"); one that needs approval, which nobody can give under
// approval_policy never, is rejected as such ("approval required"). Observed with the pinned release; TestCodexDriverVerdicts holds
// the reading to the workspace.
func CodexVerdict(r Result, ok bool) Verdict {
	switch {
	case !ok:
		return Missing
	case strings.Contains(r.Output, "policy forbids"):
		return Denied
	case strings.Contains(r.Output, "approval required"):
		return Asked
	case strings.Contains(r.Output, "Process exited with code"):
		return Ran
	}
	return Errored
}
