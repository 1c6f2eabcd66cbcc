package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// docBlocks returns the fenced code blocks of a language in a document.
func docBlocks(t *testing.T, doc, lang string) []string {
	t.Helper()
	re := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```")
	var out []string
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestHooksDocRuns runs every command docs/hooks.md shows, with the
// configuration it shows, and every hook command and URL of its settings
// snippets against them: the sh lines must be exactly the ones run here
// (the loopback ports are replaced by free ones).
func TestHooksDocRuns(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/hooks.md")
	require.NoError(t, err)
	doc := string(data)

	var shown []string
	for _, block := range docBlocks(t, doc, "sh") {
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			shown = append(shown, line)
		}
	}
	const (
		serveSocket = "tooleval serve --config deploy/config.json"
		lean        = "tooleval-hook claude-code < payload.json"
		inProcess   = "tooleval hook claude-code --config deploy/config.json < payload.json"
		serveListen = "tooleval serve --listen 127.0.0.1:8787 --config deploy/config.json"
		bundleBuild = "tooleval bundle build --config deploy/config.json -o tooleval.tar.gz"
		opaRun      = "opa run --server --addr 127.0.0.1:8181 --bundle tooleval.tar.gz --set default_decision=tooleval/hooks/claude_code"
	)
	require.ElementsMatch(t, []string{serveSocket, lean, inProcess, serveListen, bundleBuild, opaRun}, shown)
	// The examples of tooleval hook --help and serve --help are lines run here.
	for _, command := range []string{"hook", "serve"} {
		help, _, code := harness.CLI(t, "", command, "--help")
		require.Equal(t, 0, code)
		_, examples, found := strings.Cut(help, "\nExamples:\n")
		require.True(t, found)
		for _, line := range strings.Split(examples, "\n") {
			if line = strings.TrimSpace(line); strings.HasPrefix(line, "tooleval ") {
				require.Contains(t, shown, line, "tooleval %s --help", command)
			}
		}
	}

	// The workspace: the configuration the document shows, a payload, the
	// binaries on PATH.
	dir := t.TempDir()
	jsonBlocks := docBlocks(t, doc, "json")
	require.NotEmpty(t, jsonBlocks)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "deploy"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "deploy", "config.json"), []byte(jsonBlocks[0]), 0o600))
	payloads := map[string][]byte{}
	for name, file := range map[string]string{"claude-code": "claude_code_pretooluse.json", "gemini": "gemini_beforetool.json", "codex": "codex_pretooluse.json"} {
		raw, err := os.ReadFile(filepath.Join("../internal/hooks/testdata", file))
		require.NoError(t, err)
		var p map[string]any
		require.NoError(t, json.Unmarshal(raw, &p))
		p["tool_input"] = map[string]any{"command": "git push origin main"}
		payloads[name], err = json.Marshal(p)
		require.NoError(t, err)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "payload.json"), payloads["claude-code"], 0o600))
	binDir := filepath.Join(dir, "bin")
	require.NoError(t, os.MkdirAll(binDir, 0o755))
	tooleval, err := harness.BuildCLI()
	require.NoError(t, err)
	opa, err := harness.OPABinary()
	require.NoError(t, err)
	out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "tooleval-hook"), "../cmd/tooleval-hook").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.NoError(t, os.Symlink(tooleval, filepath.Join(binDir, "tooleval")))
	require.NoError(t, os.Symlink(opa, filepath.Join(binDir, "opa")))
	runtimeDir := filepath.Join(dir, "run")
	require.NoError(t, os.Mkdir(runtimeDir, 0o700))
	env := append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_RUNTIME_DIR="+runtimeDir, "TOOLEVAL_SERVER=")

	shell := func(line string, stdin []byte) (string, string, int) {
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = dir, env
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return stdout.String(), stderr.String(), exit.ExitCode()
		}
		require.NoError(t, err, line)
		return stdout.String(), stderr.String(), 0
	}
	background := func(line string) {
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, "sh", "-c", "exec "+line)
		cmd.Dir, cmd.Env = dir, env
		var output harness.SyncBuffer
		cmd.Stdout, cmd.Stderr = &output, &output
		require.NoError(t, cmd.Start(), line)
		t.Cleanup(func() {
			cancel()
			_ = cmd.Wait()
		})
	}
	isDeny := func(out string) {
		t.Helper()
		var doc struct {
			Output struct {
				Decision string `json:"permissionDecision"`
			} `json:"hookSpecificOutput"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
		require.Equal(t, "deny", doc.Output.Decision, out)
	}

	// tooleval hook decides in-process with the flags shown.
	stdout, stderr, code := shell(inProcess, nil)
	require.Equal(t, 2, code, stderr)
	isDeny(stdout)

	// tooleval serve on the default socket, and tooleval-hook asking it.
	background(serveSocket)
	socket := filepath.Join(runtimeDir, "tooleval.sock")
	waitFor(t, func() bool { _, err := os.Stat(socket); return err == nil })
	stdout, stderr, code = shell(lean, nil)
	require.Equal(t, 2, code, stderr)
	isDeny(stdout)
	require.Contains(t, stderr, `denied by layer "global_policy"`)

	// The settings snippets' hook commands, each with its runtime's payload.
	snippets := strings.Join(append(jsonBlocks, docBlocks(t, doc, "toml")...), "\n")
	for _, runtime := range []string{"claude-code", "gemini", "codex"} {
		command := "tooleval-hook " + runtime
		require.Contains(t, snippets, `"`+command+`"`)
		stdout, _, code := shell(command, payloads[runtime])
		require.Equal(t, 2, code, runtime)
		require.Contains(t, stdout, `"deny"`, runtime)
	}

	// tooleval serve on a loopback port, and the http hook's URL.
	serveAddr := harness.FreeAddr(t)
	background(strings.Replace(serveListen, "127.0.0.1:8787", serveAddr, 1))
	url := regexp.MustCompile(`"url": "http://127.0.0.1:8787(/v1/hooks/claude-code)"`).FindStringSubmatch(doc)
	require.Len(t, url, 2, "the http hook snippet")
	served := postWhenUp(t, "http://"+serveAddr+url[1], payloads["claude-code"])
	isDeny(served)

	// A stock OPA server with the bundle built from the same overlay.
	_, stderr, code = shell(bundleBuild, nil)
	require.Equal(t, 0, code, stderr)
	opaAddr := harness.FreeAddr(t)
	background(strings.Replace(opaRun, "127.0.0.1:8181", opaAddr, 1) + " --log-level error --skip-version-check")
	require.Contains(t, doc, "`url` set to `http://127.0.0.1:8181/`")
	answered := postWhenUp(t, "http://"+opaAddr+"/", payloads["claude-code"])
	require.JSONEq(t, served, answered, "OPA answers as tooleval serve does")
}

// waitFor polls until ok, for at most two minutes.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// postWhenUp POSTs body to url once the server there accepts
// connections, and returns the answer's body (status 200).
func postWhenUp(t *testing.T, url string, body []byte) string {
	t.Helper()
	host := strings.SplitN(strings.TrimPrefix(url, "http://"), "/", 2)[0]
	waitFor(t, func() bool {
		c, err := net.DialTimeout("tcp", host, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	var out []byte
	waitFor(t, func() bool {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		out, err = io.ReadAll(resp.Body)
		return err == nil && resp.StatusCode == http.StatusOK
	})
	return string(out)
}
