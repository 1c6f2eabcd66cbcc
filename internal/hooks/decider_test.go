package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/hookwire"
)

// testConfig is a deployment answering every runtime's hooks: the
// runtime's preset (an empty one where the bundle has none yet) is set
// per engine, the payload's cwd is the workspace root, and the global
// policy denies git push and asks about npm publish.
func testConfig(preset string) engine.Config {
	return engine.Config{
		"preset":  preset,
		"presets": map[string]any{preset: map[string]any{}},
		"hooks":   map[string]any{"workspace": "cwd"},
		"tools": map[string]any{
			"deny": []any{map[string]any{"tool": "Bash", "command_prefix": "git push"}, map[string]any{"tool": "run_shell_command", "command_prefix": "git push"}},
			"ask":  []any{map[string]any{"tool": "Bash", "command_prefix": "npm publish"}},
		},
	}
}

// presetOf is the preset each runtime's hook needs.
var presetOf = map[string]string{"claude_code": "claude_code", "gemini": "gemini_cli", "codex": "codex"}

var engines sync.Map // preset -> func() (*engine.Engine, error)

// testEngine is an engine under testConfig(preset), made once.
func testEngine(t testing.TB, runtime string) *engine.Engine {
	t.Helper()
	preset := presetOf[runtime]
	config := testConfig(preset)
	if preset == "claude_code" {
		delete(config, "presets") // the bundle's own
	}
	made, _ := engines.LoadOrStore(preset, sync.OnceValues(func() (*engine.Engine, error) {
		return engine.New(context.Background(), engine.WithConfig(config))
	}))
	e, err := made.(func() (*engine.Engine, error))()
	require.NoError(t, err)
	return e
}

// fixture reads a payload of testdata/ (README.md there says where each
// comes from) with members replaced.
func fixture(t testing.TB, name string, set map[string]any) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	for k, v := range set {
		if v == nil {
			delete(doc, k)
			continue
		}
		doc[k] = v
	}
	out, err := json.Marshal(doc)
	require.NoError(t, err)
	return out
}

func decider(t testing.TB, runtime string, opts Options) *Decider {
	d := NewDecider(opts)
	d.SetEngine(testEngine(t, runtime), nil)
	return d
}

func command(c string) map[string]any { return map[string]any{"command": c} }

// TestAnswersInEachRuntimeForm: a command the policy lets through, one
// its deny list refuses, one its ask list asks about, in each runtime's
// payload and output form (fixtures from each runtime's source).
func TestAnswersInEachRuntimeForm(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		runtime, fixture, tool string
		askForm                string // the output of an ask
	}{
		{"claude_code", "claude_code_pretooluse.json", "Bash", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"tool \"Bash\" needs a person's approval: asked by layer \"global_policy\""}}`},
		{"gemini", "gemini_beforetool.json", "run_shell_command", ""},
		{"codex", "codex_pretooluse.json", "Bash", ""},
	} {
		t.Run(tc.runtime, func(t *testing.T) {
			d := decider(t, tc.runtime, Options{})
			allowed := d.Answer(ctx, tc.runtime, fixture(t, tc.fixture, map[string]any{"tool_input": command("ls -la")}))
			require.Equal(t, hookwire.Allow, allowed.Outcome)
			require.JSONEq(t, `{}`, string(allowed.Output))

			denied := d.Answer(ctx, tc.runtime, fixture(t, tc.fixture, map[string]any{"tool_name": tc.tool, "tool_input": command("git push origin main")}))
			require.Equal(t, hookwire.Deny, denied.Outcome)
			require.Contains(t, denied.Message, `denied by layer "global_policy"`)
			require.JSONEq(t, string(hookwire.Denial(tc.runtime, denied.Message).Output), string(denied.Output), "the Go deny form is the policy's")

			asked := d.Answer(ctx, tc.runtime, fixture(t, tc.fixture, map[string]any{"tool_name": "Bash", "tool_input": command("npm publish")}))
			if tc.askForm != "" {
				require.Equal(t, hookwire.Ask, asked.Outcome)
				require.JSONEq(t, tc.askForm, string(asked.Output))
				return
			}
			require.Equal(t, hookwire.Deny, asked.Outcome, "no ask in %s's hook", tc.runtime)
			require.Contains(t, asked.Message, "cannot ask one: refused")
		})
	}
}

// TestEverythingThatFailsIsADeny: a payload that is not JSON or not the
// runtime's, an engine that is not there, a bundle without the hook
// rules: each runtime's deny form with a reason.
func TestEverythingThatFailsIsADeny(t *testing.T) {
	ctx := context.Background()
	d := decider(t, "claude_code", Options{})
	for name, payload := range map[string]string{
		"not JSON":        `{"tool_name":`,
		"two documents":   `{} {}`,
		"not an object":   `[]`,
		"another event":   string(fixture(t, "claude_code_pretooluse.json", map[string]any{"hook_event_name": "PostToolUse"})),
		"no tool_input":   string(fixture(t, "claude_code_pretooluse.json", map[string]any{"tool_input": nil})),
		"relative cwd":    string(fixture(t, "claude_code_pretooluse.json", map[string]any{"cwd": "project"})),
		"agent_id number": string(fixture(t, "claude_code_pretooluse.json", map[string]any{"agent_id": 3})),
	} {
		a := d.Answer(ctx, "claude_code", []byte(payload))
		require.Equal(t, hookwire.Deny, a.Outcome, name)
		require.NotEmpty(t, a.Message, name)
		require.JSONEq(t, string(hookwire.Denial("claude_code", a.Message).Output), string(a.Output), name)
	}

	none := NewDecider(Options{})
	a := none.Answer(ctx, "gemini", fixture(t, "gemini_beforetool.json", nil))
	require.Equal(t, hookwire.Deny, a.Outcome)
	require.Contains(t, a.Message, "no policy is loaded")
	require.JSONEq(t, `{"decision":"deny","reason":"`+a.Message+`"}`, string(a.Output))

	// Another runtime's preset: the tool names would be misread.
	a = d.Answer(ctx, "gemini", fixture(t, "gemini_beforetool.json", nil))
	require.Equal(t, hookwire.Deny, a.Outcome)
	require.Contains(t, a.Message, "needs the preset gemini_cli")
}

// TestRunBudgetIsKeptPerRuntimeSession: the budget of a runtime session
// counts its calls and its sub-agents', not another session's.
func TestRunBudgetIsKeptPerRuntimeSession(t *testing.T) {
	ctx := context.Background()
	d := decider(t, "claude_code", Options{MaxRefusals: 2})
	push := func(session string, set map[string]any) *hookwire.Answer {
		members := map[string]any{"session_id": session, "tool_input": command("git push")}
		for k, v := range set {
			members[k] = v
		}
		return d.Answer(ctx, "claude_code", fixture(t, "claude_code_pretooluse.json", members))
	}
	ls := func(session string) *hookwire.Answer {
		return d.Answer(ctx, "claude_code", fixture(t, "claude_code_pretooluse.json", map[string]any{"session_id": session, "tool_input": command("ls")}))
	}
	require.Equal(t, hookwire.Allow, ls("a").Outcome)
	require.Equal(t, hookwire.Deny, push("a", nil).Outcome)
	require.Equal(t, hookwire.Deny, push("a", map[string]any{"agent_id": "sub1", "agent_type": "Explore"}).Outcome)
	spent := ls("a")
	require.Equal(t, hookwire.Deny, spent.Outcome, "two refusals spend session a's budget, its sub-agent's included")
	require.Contains(t, spent.Message, "limit of 2 refusals")
	require.Equal(t, hookwire.Allow, ls("b").Outcome, "session b has its own budget")
	sessions, runs := d.Sessions()
	require.Equal(t, 2, runs)
	require.Equal(t, 3, sessions, "a (main), a (sub1), b")
}

// TestSessionsAreBoundedAndExpire: at most MaxSessions sessions and run
// budgets, the least recently used dropped first; idle ones expire; a
// reload drops the sessions and keeps the budgets.
func TestSessionsAreBoundedAndExpire(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	d := decider(t, "claude_code", Options{MaxSessions: 2, MaxAttempts: 100, IdleTimeout: time.Hour, Now: func() time.Time { return now }})
	call := func(session string) {
		a := d.Answer(ctx, "claude_code", fixture(t, "claude_code_pretooluse.json", map[string]any{"session_id": session, "tool_input": command("ls")}))
		require.Equal(t, hookwire.Allow, a.Outcome)
	}
	for _, s := range []string{"a", "b", "c"} {
		call(s)
		now = now.Add(time.Second)
	}
	sessions, runs := d.Sessions()
	require.Equal(t, [2]int{2, 2}, [2]int{sessions, runs})
	d.mu.Lock()
	_, kept := d.runs[runKey{"claude_code", "a"}]
	d.mu.Unlock()
	require.False(t, kept, "the least recently used run went first")

	now = now.Add(2 * time.Hour)
	call("d")
	sessions, runs = d.Sessions()
	require.Equal(t, [2]int{1, 1}, [2]int{sessions, runs}, "idle sessions and budgets expire")

	d.SetEngine(testEngine(t, "claude_code"), nil)
	sessions, runs = d.Sessions()
	require.Equal(t, [2]int{0, 1}, [2]int{sessions, runs}, "a reload drops the sessions, keeps the budgets")
	d.SetEngine(nil, os.ErrNotExist)
	require.NotNil(t, d.Engine(), "a failed reload keeps the policy in force")
}

// TestSubagentsAreAskedAsSubagents: the sub-agent stage bites on a
// sub-agent's call (agent_id) and not on the main thread's.
func TestSubagentsAreAskedAsSubagents(t *testing.T) {
	config := testConfig("claude_code")
	delete(config, "presets")
	config["subagents"] = map[string]any{"deny": []any{"Write"}}
	e, err := engine.New(context.Background(), engine.WithConfig(config))
	require.NoError(t, err)
	d := NewDecider(Options{})
	d.SetEngine(e, nil)
	write := map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/tmp/x", "content": "x"}, "cwd": "/tmp"}
	main := d.Answer(context.Background(), "claude_code", fixture(t, "claude_code_pretooluse.json", write))
	require.Equal(t, hookwire.Allow, main.Outcome, main.Message)
	write["agent_id"], write["agent_type"] = "a1", "general-purpose"
	sub := d.Answer(context.Background(), "claude_code", fixture(t, "claude_code_pretooluse.json", write))
	require.Equal(t, hookwire.Deny, sub.Outcome)
	require.True(t, strings.Contains(sub.Message, "subagent_policy"), sub.Message)
}

func TestRuntimeNames(t *testing.T) {
	require.Equal(t, []string{"claude-code", "codex", "gemini"}, hookwire.RuntimeNames())
	r, err := hookwire.Runtime("claude-code")
	require.NoError(t, err)
	require.Equal(t, "claude_code", r)
	_, err = hookwire.Runtime("claude_code")
	require.ErrorContains(t, err, "unknown runtime")
	code, reason := hookwire.Exit(hookwire.Denial("codex", ""))
	require.Equal(t, 2, code)
	require.Equal(t, "refused by tooleval", reason)
	code, reason = hookwire.Exit(&hookwire.Answer{Outcome: hookwire.Ask})
	require.Equal(t, [2]any{0, ""}, [2]any{code, reason})
}
