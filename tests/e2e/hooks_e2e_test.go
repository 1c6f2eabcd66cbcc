//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The hooks held against the runtimes: each pinned runtime runs headless
// with its hook calling `tooleval serve` (docs/hooks.md), the runtime's
// own rules allowing every shell command of the script, and the policy:
//
//   - deny `rm` on the shell tool (the scripted `rm canary.txt` must leave
//     the canary);
//   - ask about `touch asked.txt` (Claude Code's ask; a deny where the
//     runtime cannot ask);
//   - deny `touch refused.txt`, which the runtime's own rules allow;
//   - allow the rest (`touch ran.txt` and a read ran);
//   - Claude Code: an agent definition `reader` that refuses Bash; its
//     sub-agent's Bash call is refused, its read runs.
//
// Every decision must be in serve's audit log.

const canary = "canary: must survive\n"

// TestMain removes the binaries the hooks tests built (hookBinaries) once
// every test is done with them.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		_ = os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// hookRules is the policy's part every runtime shares, for its shell tool.
func hookRules(preset, shell string) map[string]any {
	return map[string]any{
		"preset": preset,
		"hooks":  map[string]any{"workspace": "cwd"},
		"tools": map[string]any{
			"deny": []any{
				map[string]any{"tool": shell, "command_prefix": "rm"},
				map[string]any{"tool": shell, "command_prefix": "touch refused.txt"},
			},
			"ask": []any{map[string]any{"tool": shell, "command_prefix": "touch asked.txt"}},
		},
	}
}

// requireFiles checks which files of the workspace exist, and that the
// canary is intact.
func requireFiles(t *testing.T, ws string, want map[string]bool) {
	t.Helper()
	for name, exists := range want {
		_, err := os.Stat(filepath.Join(ws, name))
		require.Equal(t, exists, err == nil, "%s exists", name)
	}
	b, err := os.ReadFile(filepath.Join(ws, "canary.txt"))
	require.NoError(t, err, "the canary survived")
	require.Equal(t, canary, string(b))
}

// requireAudit checks serve logged each call id with its outcome.
func requireAudit(t *testing.T, recs []AuditRecord, want map[string]string) []AuditRecord {
	t.Helper()
	got := map[string]string{}
	for _, r := range recs {
		got[r.ID] = r.Outcome
	}
	for id, outcome := range want {
		require.Equal(t, outcome, got[id], "audit log outcome of %s (log: %v)", id, recs)
	}
	return recs
}

func TestHookClaudeCode(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"command", "http"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			want := map[string]Verdict{
				"toolu_rm": Denied, "toolu_read": Ran, "toolu_ask": Asked, "toolu_refused": Denied, "toolu_ran": Ran,
				"toolu_agent": Ran, "toolu_sub_bash": Denied, "toolu_sub_read": Ran,
			}
			run := runClaudeHooks(t, kind == "http")
			// Claude Code has refused a call its hook allowed, once in a
			// while under load (CI, once: toolu_ran "asked"): the
			// runtime's state, not the policy's answer, which serve's
			// audit log holds. Every other verdict, file and audit
			// record must hold in this session; such a call must run in
			// a second one, with serve allowing it there too.
			unrun := run.allowedUnrun(want)
			for id, w := range want {
				if !slices.Contains(unrun, id) {
					require.Equal(t, w, run.verdicts[id], "%s (verdicts %v; Claude Code said: %s; audit log: %v)\n%s",
						id, run.verdicts, ClaudeMessage(run.log, id), run.audit, tail(run.log, 6000))
				}
			}
			requireFiles(t, run.ws, map[string]bool{
				"ran.txt": !slices.Contains(unrun, "toolu_ran"), "asked.txt": false, "refused.txt": false, "sub.txt": false,
			})
			recs := requireAudit(t, run.audit, map[string]string{
				"toolu_rm": "deny", "toolu_read": "allow", "toolu_ask": "ask", "toolu_refused": "deny", "toolu_ran": "allow",
				"toolu_agent": "allow", "toolu_sub_bash": "deny", "toolu_sub_read": "allow",
			})
			for _, r := range recs {
				if r.ID == "toolu_sub_bash" {
					require.Equal(t, "agent_definition", r.Layer, "the sub-agent's Bash is refused by its definition")
				}
			}
			if len(unrun) == 0 {
				return
			}
			t.Logf("Claude Code refused %v, which serve allowed; running the session again", unrun)
			again := runClaudeHooks(t, kind == "http")
			allowed := map[string]string{}
			for _, id := range unrun {
				require.Equal(t, Ran, again.verdicts[id], "%s in the second session (Claude Code said: %s)\n%s",
					id, ClaudeMessage(again.log, id), tail(again.log, 6000))
				allowed[id] = "allow"
			}
			requireAudit(t, again.audit, allowed)
			files := map[string]bool{"asked.txt": false, "refused.txt": false, "sub.txt": false}
			if slices.Contains(unrun, "toolu_ran") {
				files["ran.txt"] = true
			}
			requireFiles(t, again.ws, files)
		})
	}
}

// claudeHooksRun is one Claude Code session of TestHookClaudeCode: the
// runtime's verdicts and log, its workspace and serve's audit log.
type claudeHooksRun struct {
	verdicts map[string]Verdict
	log      []byte
	ws       string
	audit    []AuditRecord
}

// allowedUnrun are the calls want says run that Claude Code refused
// (asked about or denied) although serve's audit log allowed them.
func (r claudeHooksRun) allowedUnrun(want map[string]Verdict) []string {
	allowed := map[string]bool{}
	for _, rec := range r.audit {
		allowed[rec.ID] = rec.Outcome == "allow"
	}
	var out []string
	for id, w := range want {
		if v := r.verdicts[id]; w == Ran && (v == Asked || v == Denied) && allowed[id] {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// runClaudeHooks runs the hooks' session in Claude Code against a fresh
// serve, its hook a command or (http) an http hook.
func runClaudeHooks(t *testing.T, http bool) claudeHooksRun {
	t.Helper()
	config := hookRules("claude_code", "Bash")
	config["agents"] = map[string]any{"reader": map[string]any{"builtin": true, "disallowed_tools": []any{"Bash"}}}
	h := StartHookServer(t, config, http)
	hook := map[string]any{"type": "command", "command": h.Hook("claude-code"), "timeout": 60}
	if http {
		hook = map[string]any{"type": "http", "url": "http://" + h.Addr + "/v1/hooks/claude-code", "timeout": 60}
	}
	settings := jsonText(t, map[string]any{
		"permissions": map[string]any{"allow": []any{
			"Bash(rm canary.txt)", "Bash(touch asked.txt)", "Bash(touch refused.txt)",
			"Bash(touch ran.txt)", "Bash(touch sub.txt)", "Read",
		}},
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{hook}}}},
	})
	dir := t.TempDir()
	ws := ClaudeWorkspace(dir)
	bash := func(id, cmd string) Call { return Call{ID: id, Tool: "Bash", Args: map[string]any{"command": cmd}} }
	read := func(id string) Call {
		return Call{ID: id, Tool: "Read", Args: map[string]any{"file_path": filepath.Join(ws, "README")}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	o, err := ClaudeRun{
		Binary:   ClaudeBinary(nodeModules(t)),
		Settings: settings,
		Mode:     "default",
		Script: []Turn{
			{Calls: []Call{bash("toolu_rm", "rm canary.txt"), read("toolu_read"), bash("toolu_ask", "touch asked.txt"),
				bash("toolu_refused", "touch refused.txt"), bash("toolu_ran", "touch ran.txt")}},
			{Calls: []Call{{ID: "toolu_agent", Tool: "Agent", Args: map[string]any{
				"subagent_type": "reader", "description": "read the readme", "prompt": "Run the scripted calls."}}}},
		},
		Agents: map[string][]Turn{"E2E-READER-AGENT": {
			{Calls: []Call{bash("toolu_sub_bash", "touch sub.txt"), read("toolu_sub_read")}},
		}},
		Files: map[string]string{
			"README": "e2e\n", "canary.txt": canary,
			".claude/agents/reader.md": "---\nname: reader\ndescription: Reads files for the e2e test.\ntools: Bash, Read\n---\nE2E-READER-AGENT: run the scripted calls.\n",
		},
		Dir: dir,
	}.Run(ctx)
	require.NoError(t, err)
	return claudeHooksRun{verdicts: ClaudeVerdicts(o.Log), log: o.Log, ws: ws, audit: h.AuditRecords(t)}
}

func TestHookGemini(t *testing.T) {
	t.Parallel()
	h := StartHookServer(t, hookRules("gemini_cli", "run_shell_command"), false)
	dir := t.TempDir()
	ws := GeminiWorkspace(dir)
	shell := func(id, cmd string) Call {
		return Call{ID: id, Tool: "run_shell_command", Args: map[string]any{"command": cmd}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var allow string
	for _, c := range []string{"rm canary.txt", "touch asked.txt", "touch refused.txt", "touch ran.txt"} {
		allow += fmt.Sprintf("[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = %q\ndecision = \"allow\"\npriority = 100\n\n", c)
	}
	o, err := GeminiRun{
		NodeModules: nodeModules(t),
		Policies:    map[string]string{"user.toml": allow},
		Hooks: map[string]any{"BeforeTool": []any{map[string]any{"matcher": ".*", "hooks": []any{
			map[string]any{"type": "command", "command": h.Hook("gemini"), "timeout": 60000}}}}},
		Script: []Turn{{Calls: []Call{shell("c_rm", "rm canary.txt"),
			{ID: "c_read", Tool: "read_file", Args: map[string]any{"file_path": "README"}},
			shell("c_ask", "touch asked.txt"), shell("c_refused", "touch refused.txt"), shell("c_ran", "touch ran.txt")}}},
		Files: map[string]string{"README": "e2e\n", "canary.txt": canary},
		Dir:   dir,
	}.Run(ctx)
	require.NoError(t, err)
	for id, ran := range map[string]bool{"c_rm": false, "c_read": true, "c_ask": false, "c_refused": false, "c_ran": true} {
		r, ok := o.Results[id]
		require.True(t, ok, "%s has a result\n%s", id, tail(o.Log, 4000))
		require.Equal(t, !ran, r.IsError, "%s: %s", id, r.Output)
	}
	requireFiles(t, ws, map[string]bool{"ran.txt": true, "asked.txt": false, "refused.txt": false})
	// Gemini CLI's payload carries no call id: the audit log is read by
	// outcome (the ask stays an ask in the log; the hook answers deny).
	counts := map[string]int{}
	for _, r := range h.AuditRecords(t) {
		counts[r.Outcome]++
	}
	require.Equal(t, map[string]int{"deny": 2, "ask": 1, "allow": 2}, counts)
}

func TestHookCodex(t *testing.T) {
	t.Parallel()
	h := StartHookServer(t, hookRules("codex", "Bash"), false)
	dir := t.TempDir()
	ws := CodexWorkspace(dir)
	exec := func(id, cmd string) Call { return Call{ID: id, Tool: "exec_command", Args: map[string]any{"cmd": cmd}} }
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	o, err := CodexRun{
		Binary: CodexBinary(nodeModules(t)),
		// A user hook runs once trusted (the TUI's /hooks records its hash);
		// headless, this flag runs it untrusted (developers.openai.com/codex/hooks,
		// `codex exec --help`).
		Flags:  []string{"--dangerously-bypass-hook-trust"},
		Config: fmt.Sprintf("\n[[hooks.PreToolUse]]\nmatcher = \".*\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = %q\ntimeout = 60\n", h.Hook("codex")),
		Script: []Turn{{Calls: []Call{exec("c_rm", "rm canary.txt"), exec("c_read", "cat README"),
			exec("c_ask", "touch asked.txt"), exec("c_refused", "touch refused.txt"), exec("c_ran", "touch ran.txt")}}},
		Files: map[string]string{"README": "e2e\n", "canary.txt": canary},
		Dir:   dir,
	}.Run(ctx)
	require.NoError(t, err)
	for id, ran := range map[string]bool{"c_rm": false, "c_read": true, "c_ask": false, "c_refused": false, "c_ran": true} {
		r, ok := o.Results[id]
		require.True(t, ok, "%s has a result\n%s", id, tail(o.Log, 4000))
		require.Equal(t, ran, CodexVerdict(r, ok) == Ran, "%s: %s", id, r.Output)
	}
	requireFiles(t, ws, map[string]bool{"ran.txt": true, "asked.txt": false, "refused.txt": false})
	requireAudit(t, h.AuditRecords(t), map[string]string{"c_rm": "deny", "c_read": "allow", "c_ask": "ask", "c_refused": "deny", "c_ran": "allow"})
}
