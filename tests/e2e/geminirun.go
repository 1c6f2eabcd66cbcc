package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// Gemini CLI is driven headless, pointed only at the model server:
//
//   - node bundle/gemini.js -p PROMPT --output-format json
//     --approval-mode MODE (google-gemini/gemini-cli docs/cli/headless.md,
//     docs/cli/cli-reference.md);
//   - GEMINI_API_KEY (a dummy key) with the settings'
//     security.auth.selectedType "gemini-api-key", and
//     GOOGLE_GEMINI_BASE_URL (the server; "must use HTTPS unless pointing to
//     localhost (or 127.0.0.1 ...)") (docs/reference/configuration.md, as
//     the release ships it in bundle/docs);
//   - telemetry, usage statistics, auto-update and the update notification
//     off in HOME/.gemini/settings.json (the same page: telemetry.enabled,
//     privacy.usageStatisticsEnabled, general.enableAutoUpdate,
//     general.enableAutoUpdateNotification), folder trust off
//     (security.folderTrust.enabled), and GEMINI_TELEMETRY_ENABLED=false;
//   - the user policies under test in HOME/.gemini/policies
//     (docs/reference/policy-engine.md).

// GeminiRun is one headless Gemini CLI session.
type GeminiRun struct {
	NodeModules string
	Policies    map[string]string // HOME/.gemini/policies files (name: TOML)
	Mode        string            // --approval-mode (empty: default)
	Script      []Turn
	Files       map[string]string // workspace files
	Dir         string            // the session's directory (GeminiWorkspace(Dir) is the workspace)
	Hooks       map[string]any    // the settings' hooks (nil: none)
}

// GeminiWorkspace is the workspace of a session in dir.
func GeminiWorkspace(dir string) string { return filepath.Join(dir, "ws") }

// Run runs the session and returns what happened.
func (g GeminiRun) Run(ctx context.Context) (*Outcome, error) {
	ws, home := GeminiWorkspace(g.Dir), filepath.Join(g.Dir, "home")
	if err := writeTree(ws, g.Files); err != nil {
		return nil, fmt.Errorf("gemini: workspace: %w", err)
	}
	settings, _ := json.Marshal(map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
		"telemetry": map[string]any{"enabled": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	})
	if g.Hooks != nil {
		var doc map[string]any
		_ = json.Unmarshal(settings, &doc)
		doc["hooks"] = g.Hooks
		settings, _ = json.Marshal(doc)
	}
	files := map[string]string{".gemini/settings.json": string(settings)}
	for name, text := range g.Policies {
		files[".gemini/policies/"+name] = text
	}
	if err := writeTree(home, files); err != nil {
		return nil, fmt.Errorf("gemini: home: %w", err)
	}
	srv, err := NewServer(g.Script)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	env := append(baseEnv(home),
		"GEMINI_API_KEY=e2e-loopback",
		"GOOGLE_GEMINI_BASE_URL="+srv.URL(),
		"GEMINI_TELEMETRY_ENABLED=false",
	)
	args := []string{filepath.Join(g.NodeModules, "@google", "gemini-cli", "bundle", "gemini.js"),
		"-p", "Run the scripted tool calls.", "--output-format", "json", "--model", "gemini-2.5-flash"}
	if g.Mode != "" {
		args = append(args, "--approval-mode", g.Mode)
	}
	out, err := runProcess(ctx, "node", args, ws, env)
	o := &Outcome{Dir: g.Dir, Workspace: ws, Log: out, Server: srv, Results: srv.Results()}
	if err != nil {
		return o, fmt.Errorf("gemini: %w\n%s", err, tail(out, 4000))
	}
	return o, nil
}

// GeminiVerdict reads what Gemini CLI did with one call from the
// functionResponse it sent back: a response without an error ran; an
// error saying the policy denied it is a denial (headless, Gemini turns
// ask_user into deny: docs/reference/policy-engine.md, so an ask reads as
// a denial here); any other error is an error. Observed with the pinned
// release; TestGeminiDriverVerdicts holds the reading to the workspace.
func GeminiVerdict(r Result, ok bool) Verdict {
	switch {
	case !ok:
		return Missing
	case !r.IsError:
		return Ran
	case strings.Contains(r.Output, "denied by policy"):
		return Denied
	}
	return Errored
}
