package hooks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tooleval/tooleval/engine"
)

// The hook benchmarks (docs/performance.md, "Hooks"): a command hook
// end to end, process start included, against tooleval serve running,
// and Claude Code's http hook at a configuration of 100 tools, each
// beside a trivial hook that answers a fixed allow. Each reports the
// median (p50-ms) and 90th percentile (p90-ms) of its iterations.
//
//	go test -run '^$' -bench Hook -benchtime 200x ./internal/hooks/

// benchConfig declares 100 tools: an allow list of 100 names and a
// command rule, the global policy a deployment of that size keeps.
func benchConfig() engine.Config {
	allow := []any{map[string]any{"tool": "Bash", "command_prefix": "ls"}}
	for i := range 99 {
		allow = append(allow, fmt.Sprintf("tool_%03d", i))
	}
	return engine.Config{
		"preset": "claude_code",
		"hooks":  map[string]any{"workspace": "cwd"},
		"tools":  map[string]any{"allow": allow, "deny": []any{map[string]any{"tool": "Bash", "command_prefix": "git push"}}},
	}
}

// build builds a Go program into dir.
func build(b *testing.B, dir, name, pkg string) string {
	b.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// trivialHook writes and builds a program that reads its payload and
// prints a fixed allow ({}).
func trivialHook(b *testing.B, dir string) string {
	b.Helper()
	src := filepath.Join(dir, "trivial")
	if err := os.MkdirAll(src, 0o755); err != nil {
		b.Fatal(err)
	}
	main := "package main\n\nimport (\n\t\"io\"\n\t\"os\"\n)\n\nfunc main() {\n\t_, _ = io.ReadAll(os.Stdin)\n\t_, _ = os.Stdout.WriteString(\"{}\\n\")\n}\n"
	for name, data := range map[string]string{"main.go": main, "go.mod": "module trivial\n\ngo 1.22\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "trivial-hook")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build the trivial hook: %v\n%s", err, out)
	}
	return bin
}

// percentiles reports the median and 90th percentile of ds.
func percentiles(b *testing.B, ds []time.Duration) {
	b.Helper()
	if len(ds) == 0 {
		return
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(ds[len(ds)/2]), "p50-ms")
	b.ReportMetric(ms(ds[len(ds)*9/10]), "p90-ms")
}

// runHook execs a command hook with the payload on standard input.
func runHook(b *testing.B, payload []byte, name string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(payload)
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil || !strings.HasPrefix(out.String(), "{") {
		b.Fatalf("%s: %v: %q", name, err, out.String())
	}
	return d
}

// BenchmarkCommandHook: Claude Code's command hook, process start
// included, asking a running tooleval serve over its Unix socket: the
// lean tooleval-hook and tooleval hook, beside a trivial program printing
// a fixed allow.
func BenchmarkCommandHook(b *testing.B) {
	dir := b.TempDir()
	tooleval := build(b, dir, "tooleval", "../../cmd/tooleval")
	lean := build(b, dir, "tooleval-hook", "../../cmd/tooleval-hook")
	trivial := trivialHook(b, dir)
	config := filepath.Join(dir, "config.json")
	data, _ := jsonOf(benchConfig())
	if err := os.WriteFile(config, data, 0o600); err != nil {
		b.Fatal(err)
	}
	socket := filepath.Join(dir, "serve.sock")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serve := exec.CommandContext(ctx, tooleval, "serve", "--socket", socket, "--config", config, "--audit-log", filepath.Join(dir, "audit.log"))
	if err := serve.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cancel(); _ = serve.Wait() }()
	waitHealthy(b, socket)
	payload := fixture(b, "claude_code_pretooluse.json", nil)

	b.Run("tooleval-hook", func(b *testing.B) {
		ds := make([]time.Duration, 0, b.N)
		for range b.N {
			ds = append(ds, runHook(b, payload, lean, "claude-code", "--server", "unix:"+socket))
		}
		percentiles(b, ds)
	})
	b.Run("tooleval", func(b *testing.B) {
		ds := make([]time.Duration, 0, b.N)
		for range b.N {
			ds = append(ds, runHook(b, payload, tooleval, "hook", "claude-code", "--server", "unix:"+socket))
		}
		percentiles(b, ds)
	})
	b.Run("trivial", func(b *testing.B) {
		ds := make([]time.Duration, 0, b.N)
		for range b.N {
			ds = append(ds, runHook(b, payload, trivial))
		}
		percentiles(b, ds)
	})
}

func waitHealthy(b *testing.B, socket string) {
	b.Helper()
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}}}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if resp, err := c.Get("http://serve/health"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatal("tooleval serve did not become healthy")
}

// httpWarmUp is how many calls BenchmarkHTTPHook makes to each server
// before it times any.
const httpWarmUp = 50

// BenchmarkHTTPHook: Claude Code's http hook, a POST on loopback to a
// running tooleval serve --listen (its audit log to a file) at a
// configuration of 100 tools, beside a server answering a fixed allow.
func BenchmarkHTTPHook(b *testing.B) {
	dir := b.TempDir()
	tooleval := build(b, dir, "tooleval", "../../cmd/tooleval")
	config := filepath.Join(dir, "config.json")
	data, _ := jsonOf(benchConfig())
	if err := os.WriteFile(config, data, 0o600); err != nil {
		b.Fatal(err)
	}
	serveURL := startServe(b, tooleval, "--listen", "127.0.0.1:0", "--config", config, "--audit-log", filepath.Join(dir, "audit.log"))
	trivial := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	}))
	defer trivial.Close()
	payload := fixture(b, "claude_code_pretooluse.json", nil)
	for _, target := range []struct{ name, url string }{
		{"tooleval-serve", serveURL},
		{"trivial", trivial.URL},
	} {
		b.Run(target.name, func(b *testing.B) {
			url := target.url + "/v1/hooks/claude-code"
			client := &http.Client{}
			post := func() time.Duration {
				start := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(payload))
				if err != nil {
					b.Fatal(err)
				}
				var out bytes.Buffer
				_, _ = out.ReadFrom(resp.Body)
				resp.Body.Close()
				d := time.Since(start)
				if out.String() != "{}" {
					b.Fatalf("%s answered %s", target.name, out.String())
				}
				return d
			}
			// Untimed: a serve that has answered a few calls, as one in
			// use has (its session compiled, its heap grown).
			for range httpWarmUp {
				post()
			}
			ds := make([]time.Duration, 0, b.N)
			for range b.N {
				ds = append(ds, post())
			}
			percentiles(b, ds)
		})
	}
}

// startServe runs tooleval serve with args until the benchmark ends and
// returns the http://HOST:PORT it says it serves.
func startServe(b *testing.B, tooleval string, args ...string) string {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	serve := exec.CommandContext(ctx, tooleval, append([]string{"serve"}, args...)...)
	serve.Cancel = func() error { return serve.Process.Signal(os.Interrupt) }
	stderr, err := serve.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cancel(); _ = serve.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "serving "); ok {
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return strings.Fields(rest)[0]
		}
	}
	b.Fatal("tooleval serve did not say where it serves")
	return ""
}

func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }
