package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/tests/harness"
)

// argumentBypassRequest puts every attempt under one layer that allows
// `git status` (prefix) and URLs below example.com, and denies `rm` and
// evil.example.com: no attempt may come out allowed.
func argumentBypassRequest(calls []any) map[string]any {
	return map[string]any{
		"declared": []any{map[string]any{"name": "run_shell_command"}, map[string]any{"name": "web_fetch"}},
		"layers": []any{map[string]any{
			"name": "team",
			"allow": []any{
				map[string]any{"tool": "run_shell_command", "command_prefix": "git status"},
				map[string]any{"tool": "web_fetch", "domain": "*.example.com"},
			},
			"deny": []any{
				map[string]any{"tool": "run_shell_command", "command_prefix": "rm"},
				map[string]any{"tool": "web_fetch", "domain": "evil.example.com"},
			},
		}},
		"calls": calls,
	}
}

// TestArgumentBypassesEndInAskOrDeny: the classes of shell and URL
// bypasses of argument rules (separators, substitution, redirection,
// wrappers, assignments, quoting and escapes, here-documents, line
// continuations, globs; userinfo, backslashes, percent-encoding, trailing
// dots, case, IDNA look-alikes, numeric IPs), Unicode look-alikes, NUL
// bytes and very long values, each decided by the embedded engine: none
// is allowed, and the control calls are.
func TestArgumentBypassesEndInAskOrDeny(t *testing.T) {
	t.Parallel()
	e, err := engine.New(context.Background())
	require.NoError(t, err)
	request, controls := argumentBypasses()
	d, err := e.Decide(context.Background(), request)
	require.NoError(t, err)
	requireNoBypass(t, d, request["calls"].([]any), controls)
}

// requireNoBypass: the decision has no error and one verdict per call;
// the first controls calls are allowed, and no other is.
func requireNoBypass(t *testing.T, d *engine.Decision, calls []any, controls int) {
	t.Helper()
	require.Empty(t, d.Errors)
	require.Len(t, d.Decisions, len(calls))
	for i, c := range d.Decisions {
		if i < controls {
			require.Equal(t, engine.OutcomeAllow, c.Outcome, "control %v (%v): %s", c.ID, calls[i], c.Message)
			continue
		}
		require.NotEqual(t, engine.OutcomeAllow, c.Outcome, "%v (%v) was allowed", c.ID, calls[i])
		require.False(t, c.Allowed, "%v", c.ID)
	}
	t.Logf("%d bypass attempts, none allowed", len(calls)-controls)
}

// argumentBypasses is the request of TestArgumentBypassesEndInAskOrDeny:
// the control calls first (controls of them), then every attempt.
func argumentBypasses() (request map[string]any, controls int) {
	commands := []string{
		"git status; rm -rf /", "git status && rm -rf /", "git status || rm -rf /", "git status | sh",
		"git status |& sh", "git status & rm -rf /", "git status\nrm -rf /", "git status\r\nrm -rf /",
		"git status $(rm -rf /)", "git status `rm -rf /`", "git status <(rm -rf /)", "git status >(rm -rf /)",
		"git status > /etc/passwd", "git status >> ~/.bashrc", "git status 2>&1", "git status <<EOF\nx\nEOF",
		"git status <<<x", "GIT_DIR=/tmp git status", "PATH=/tmp git status", "env git status",
		"sudo git status", "bash -c 'git status'", "sh -c \"git status\"", "eval git status", "xargs git status",
		"timeout 5 git status", "nohup git status", "command git status", "exec git status", "/tmp/git status",
		"./git status", "git\\ status", "git sta\\\ntus", "git status \\; rm", "gi\"t\" status; rm -rf /",
		"git status *", "git status ?", "git status [a]", "git status ~root", "git status #x\nrm", "! git status",
		"(git status)", "{ git status; }", "git ${IFS}status", "git$IFS status", "git status\x00; rm -rf /",
		"ｇｉｔ status", "gіt status", "git\u00a0status", "git\u200bstatus", "git status\u2028rm -rf /",
		"git status" + strings.Repeat(" -v", 3400), strings.Repeat("git status; ", 70), "",
		"'git status", "git status \"", "git status 'a\nb'; rm",
	}
	urls := []string{
		"https://docs.example.com@evil.com/", "https://evil.com#@docs.example.com/", "https://evil.com\\@docs.example.com/",
		"https://evil.com\\.docs.example.com/", "https://docs%2eexample.com/", "https://%65vil.example.com/",
		"https://docs.example.com.evil.com/", "https://docs.example.com../", "https://DOCS.EXAMPLE.COM%00.evil.com/",
		"https://docs.еxample.com/", "https://docs.example。com/", "https://docs.ｅxample.com/", "https://xn--e1awd7f.com/",
		"https://2130706433/", "https://0x7f.1/", "https://0177.0.0.1/", "https://[::1]/", "https://127.1/",
		"ftp://docs.example.com/", "javascript:alert(1)", "//docs.example.com/", "docs.example.com/x",
		"https:docs.example.com", "https://docs.example.com\t.evil.com/", " https://docs.example.com/", "https://evil.example.com/",
		"https://docs.example.com/" + strings.Repeat("a", 9000), "https://docs.example.com\x00/", "",
	}
	var calls []any
	for i, c := range commands {
		calls = append(calls, map[string]any{"id": fmt.Sprintf("cmd%d", i), "name": "run_shell_command", "args": map[string]any{"command": c}})
	}
	for i, u := range urls {
		calls = append(calls, map[string]any{"id": fmt.Sprintf("url%d", i), "name": "web_fetch", "args": map[string]any{"url": u}})
	}
	for i, args := range []any{nil, map[string]any{}, map[string]any{"command": []any{"git", "status"}}, map[string]any{"url": map[string]any{}},
		map[string]any{"command": "git status", "env": map[string]any{"GIT_DIR": "/tmp"}}, "git status"} {
		for _, name := range []string{"run_shell_command", "web_fetch"} {
			calls = append(calls, map[string]any{"id": fmt.Sprintf("odd%d_%s", i, name), "name": name, "args": args})
		}
	}
	control := []any{
		map[string]any{"id": "ok_cmd", "name": "run_shell_command", "args": map[string]any{"command": "git status --short"}},
		map[string]any{"id": "ok_url", "name": "web_fetch", "args": map[string]any{"url": "https://docs.example.com/guide"}},
	}
	return argumentBypassRequest(append(control, calls...)), len(control)
}

// TestPathRuleBypassesEndInAskOrDeny: path rules judge the path the host
// resolved (engine.ResolvePaths), on real files: a symbolic link into a
// denied directory, a link out of the workspace, .. through a link, case
// and Unicode spellings, and paths the host cannot resolve are never
// allowed by `src/**`, and the ones that reach secrets/ are denied.
func TestPathRuleBypassesEndInAskOrDeny(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, err := engine.New(ctx)
	require.NoError(t, err)
	input, calls, allowed, denied := pathBypasses(t, e)
	d, err := e.Decide(ctx, input)
	require.NoError(t, err)
	requirePathVerdicts(t, d, calls, allowed, denied)
}

// requirePathVerdicts: the first allowed calls are allowed, the next
// denied ones denied by the deny rule, and no other call is allowed.
func requirePathVerdicts(t *testing.T, d *engine.Decision, calls []any, allowed, denied int) {
	t.Helper()
	require.Empty(t, d.Errors)
	require.Len(t, d.Decisions, len(calls))
	for i, c := range d.Decisions {
		switch {
		case i < allowed:
			require.Equal(t, engine.OutcomeAllow, c.Outcome, "%v (%v): %s", c.ID, calls[i], c.Message)
		case i < allowed+denied:
			require.Equal(t, engine.OutcomeDeny, c.Outcome, "%v (%v)", c.ID, calls[i])
			require.Equal(t, "denied", c.Reason, "%v (%v): %s", c.ID, calls[i], c.Message)
		default:
			require.NotEqual(t, engine.OutcomeAllow, c.Outcome, "%v (%v) was allowed", c.ID, calls[i])
		}
	}
}

// pathBypasses builds the files of TestPathRuleBypassesEndInAskOrDeny
// and returns its input with the paths resolved on the host (what a
// stock OPA server's caller must send), its calls, and how many of them
// come first allowed, then denied.
func pathBypasses(t *testing.T, e *engine.Engine) (input ast.Value, calls []any, allowed, denied int) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, dir := range []string{"src/pkg", "secrets", "other"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
	}
	for _, file := range []string{"src/a.go", "src/pkg/b.go", "secrets/key", "other/c.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, file), []byte("x"), 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(root, "secrets"), filepath.Join(root, "src/vault")))
	require.NoError(t, os.Symlink(filepath.Join(root, "secrets/key"), filepath.Join(root, "src/key.go")))
	require.NoError(t, os.Symlink("/etc", filepath.Join(root, "src/etc")))
	require.NoError(t, os.Symlink("../other", filepath.Join(root, "src/up")))

	allow := []string{"src/a.go", root + "/src/pkg/b.go", root + "/src/./a.go", root + "//src/a.go", root + "/src/a.go/"}
	deny := []string{"src/vault/key", root + "/src/vault/key", "src/key.go", root + "/secrets/key", "src/../secrets/key"}
	refused := []string{
		"src/etc/passwd", "src/up/c.go", "src/vault/../a.go", root + "/SRC/a.go", "",
		root + "/src/a\u0301.go", root + "/ｓｒｃ/a.go", root + "/src/a.go\x00", "~/src/a.go", "$HOME/src/a.go",
	}
	add := func(kind string, paths []string) {
		for i, p := range paths {
			calls = append(calls, map[string]any{"id": fmt.Sprintf("%s%d", kind, i), "name": "read_file", "args": map[string]any{"path": p}})
		}
	}
	add("allowed", allow)
	add("denied", deny)
	add("refused", refused)
	for i, args := range []any{nil, map[string]any{}, map[string]any{"path": []any{"src/a.go", "secrets/key"}}, map[string]any{"path": []any{}}, map[string]any{"path": 7}, "src/a.go"} {
		calls = append(calls, map[string]any{"id": fmt.Sprintf("odd%d", i), "name": "read_file", "args": args})
	}
	request := map[string]any{
		"declared":  []any{map[string]any{"name": "read_file"}},
		"workspace": map[string]any{"root": root},
		"layers": []any{map[string]any{
			"name":  "team",
			"allow": []any{map[string]any{"tool": "read_file", "path": "src/**"}},
			"deny":  []any{map[string]any{"tool": "read_file", "path": "secrets"}},
		}},
		"calls": calls,
	}
	decoded, err := engine.DecodeInput([]byte(mustJSON(request)))
	require.NoError(t, err)
	return e.ResolvePaths(decoded), calls, len(allow), len(deny)
}

// TestArgumentBypassesOnAStockOPAServer: the same attempts, posted to a
// stock `opa run --server` with the built bundle (the path attempts as
// the host resolved them), get the embedded engine's decision document,
// and none is allowed there either.
func TestArgumentBypassesOnAStockOPAServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	server := harness.StartOPA(t, "--log-level", "error", "--bundle", harness.BundlePath(t))
	e, err := engine.New(ctx)
	require.NoError(t, err)

	request, controls := argumentBypasses()
	data := []byte(mustJSON(request))
	want, err := e.Decide(ctx, engine.JSON(data))
	require.NoError(t, err)
	got := decideOnServer(t, server, data, want)
	requireNoBypass(t, got, request["calls"].([]any), controls)

	input, calls, allowed, denied := pathBypasses(t, e)
	resolved, err := ast.JSON(input)
	require.NoError(t, err)
	data, err = json.Marshal(resolved)
	require.NoError(t, err)
	want, err = e.Decide(ctx, engine.JSON(data))
	require.NoError(t, err)
	got = decideOnServer(t, server, data, want)
	requirePathVerdicts(t, got, calls, allowed, denied)
}

// decideOnServer posts input to data.tooleval.decision on the server,
// requires the document to be the embedded engine's (want), and reads it
// back as the engine's type.
func decideOnServer(t *testing.T, server *harness.OPAServer, input []byte, want *engine.Decision) *engine.Decision {
	t.Helper()
	raw, ok, err := server.Query("tooleval/decision", input)
	require.NoError(t, err)
	require.True(t, ok, "data.tooleval.decision is undefined on the server")
	wantJSON, err := want.JSON()
	require.NoError(t, err)
	require.True(t, jsonEqual(t, wantJSON, raw), "the server's document differs from the embedded engine's")
	var d engine.Decision
	require.NoError(t, json.Unmarshal(raw, &d))
	return &d
}
