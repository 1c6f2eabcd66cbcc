package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Claude Code is driven headless, pointed only at the model server:
//
//   - claude -p PROMPT --output-format stream-json --verbose
//     --permission-mode MODE (code.claude.com/docs/en/cli-reference,
//     /en/headless);
//   - ANTHROPIC_BASE_URL (the server) and ANTHROPIC_API_KEY (a dummy key,
//     always used with -p) (code.claude.com/docs/en/env-vars);
//   - DISABLE_TELEMETRY, DISABLE_ERROR_REPORTING, DISABLE_AUTOUPDATER and
//     CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC (the same page: the last
//     turns off the non-essential requests: updates, error reports,
//     telemetry, feedback);
//   - HOME and CLAUDE_CONFIG_DIR in the run's temporary directory, so no
//     user settings apply; the settings under test are the project's
//     WORKSPACE/.claude/settings.json (code.claude.com/docs/en/settings).
//
// The native binary is run directly from the platform package
// (@anthropic-ai/claude-code-linux-x64), which the release's package names
// as an optional dependency: npm ci installs it without running install
// scripts.

// ClaudeBinary is the pinned Claude Code binary under the e2e build's
// node_modules.
func ClaudeBinary(nodeModules string) string {
	return filepath.Join(nodeModules, "@anthropic-ai", "claude-code-linux-x64", "claude")
}

// ClaudeRun is one headless Claude Code session.
type ClaudeRun struct {
	Binary   string // ClaudeBinary
	Settings string // the project's .claude/settings.json
	Mode     string // --permission-mode (empty: the settings' defaultMode)
	Script   []Turn
	Files    map[string]string // workspace files (relative path: content)
	Dir      string            // the session's directory (ClaudeWorkspace(Dir) is the workspace)
	// Agents are the scripts of sub-agents, by a marker their definition
	// (in Files, .claude/agents/NAME.md) puts in their system prompt.
	Agents map[string][]Turn
}

// ClaudeWorkspace is the workspace of a session in dir.
func ClaudeWorkspace(dir string) string { return filepath.Join(dir, "ws") }

// Run runs the session in a fresh workspace and returns what happened.
func (c ClaudeRun) Run(ctx context.Context) (*Outcome, error) {
	tmp := c.Dir
	ws, home := ClaudeWorkspace(tmp), filepath.Join(tmp, "home")
	files := map[string]string{".claude/settings.json": c.Settings}
	for k, v := range c.Files {
		files[k] = v
	}
	if err := writeTree(ws, files); err != nil {
		return nil, fmt.Errorf("claude: workspace: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		return nil, fmt.Errorf("claude: home: %w", err)
	}
	// Project settings apply in a trusted workspace only; the run trusts
	// its own (the field Claude Code names when it ignores them).
	trust, _ := json.Marshal(map[string]any{"projects": map[string]any{ws: map[string]any{"hasTrustDialogAccepted": true}}})
	if err := os.WriteFile(filepath.Join(home, ".claude", ".claude.json"), trust, 0o644); err != nil {
		return nil, fmt.Errorf("claude: trust the workspace: %w", err)
	}
	srv, err := NewServer(c.Script)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	for marker, script := range c.Agents {
		srv.SetAgentScript(marker, script)
	}
	env := baseEnv(home)
	env = append(env,
		"CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ANTHROPIC_BASE_URL="+srv.URL(),
		"ANTHROPIC_API_KEY=sk-ant-e2e-loopback",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
	args := []string{"-p", "Run the scripted tool calls.", "--output-format", "stream-json", "--verbose",
		"--model", "claude-sonnet-4-5"}
	if c.Mode != "" {
		args = append(args, "--permission-mode", c.Mode)
	}
	out, err := runProcess(ctx, c.Binary, args, ws, env)
	o := &Outcome{Dir: tmp, Workspace: ws, Log: out, Server: srv}
	o.Results = srv.Results()
	if err != nil {
		return o, fmt.Errorf("claude: %w\n%s", err, tail(out, 4000))
	}
	return o, nil
}

// ClaudeVerdicts reads what Claude Code did with each call (by id) from
// its stream-json output: each tool_result comes with a tool_result_meta
// entry whose permission_decision is "accept" (the call ran) or "reject";
// a reject whose non_execution_kind is "user-rejected" is a call Claude
// Code would have asked about (headless, nobody can approve: refused),
// any other reject is a rule's (or the mode's) denial. Observed with the
// pinned release; TestClaudeDriverVerdicts holds the reading to each kind.
func ClaudeVerdicts(log []byte) map[string]Verdict {
	out := map[string]Verdict{}
	for _, line := range bytes.Split(log, []byte("\n")) {
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
			Meta []struct {
				ID       string `json:"id"`
				Kind     string `json:"non_execution_kind"`
				Decision struct {
					Decision string `json:"decision"`
				} `json:"permission_decision"`
			} `json:"tool_result_meta"`
		}
		if json.Unmarshal(line, &ev) != nil || ev.Type != "user" {
			continue
		}
		var blocks []struct {
			Type    string `json:"type"`
			ID      string `json:"tool_use_id"`
			IsError bool   `json:"is_error"`
		}
		_ = json.Unmarshal(ev.Message.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out[b.ID] = Errored
				if !b.IsError {
					out[b.ID] = Ran
				}
			}
		}
		for _, m := range ev.Meta {
			switch {
			case m.Decision.Decision == "accept":
				out[m.ID] = Ran
			case m.Decision.Decision == "reject" && m.Kind == "user-rejected":
				out[m.ID] = Asked
			case m.Decision.Decision == "reject":
				out[m.ID] = Denied
			}
		}
	}
	return out
}

// ClaudeMessage is what Claude Code answered a call with (its
// tool_result's text, cut to 400 bytes), for a report.
func ClaudeMessage(log []byte, id string) string {
	for _, line := range bytes.Split(log, []byte("\n")) {
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Content []struct {
					Type    string          `json:"type"`
					ID      string          `json:"tool_use_id"`
					Content json.RawMessage `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &ev) != nil || ev.Type != "user" {
			continue
		}
		for _, b := range ev.Message.Content {
			if b.Type == "tool_result" && b.ID == id {
				text := string(b.Content)
				var str string
				if json.Unmarshal(b.Content, &str) == nil {
					text = str
				}
				if len(text) > 400 {
					text = text[:400] + "..."
				}
				return text
			}
		}
	}
	return "(no tool_result)"
}
