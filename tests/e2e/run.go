package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// Verdict is what a runtime did with one tool call.
type Verdict string

// The verdicts a driver reads.
const (
	Ran     Verdict = "ran"     // the tool ran
	Denied  Verdict = "denied"  // a rule refused it
	Asked   Verdict = "asked"   // the runtime wanted a person's approval (headless: refused)
	Errored Verdict = "error"   // the runtime answered with another error
	Missing Verdict = "missing" // no result came back
)

// Outcome is what a session left: its directory, the workspace, the
// runtime's output and the model server with its recorded requests.
type Outcome struct {
	Dir       string
	Workspace string
	Log       []byte
	Server    *Server
	Results   map[string]Result
}

// Cleanup removes the session's directory.
func (o *Outcome) Cleanup() { _ = os.RemoveAll(o.Dir) }

// baseEnv is the environment every runtime starts with: a temporary HOME,
// the PATH of the test (for bash, node, cat ...), no proxy, nothing else
// of the caller's environment (no keys, no configuration).
func baseEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"CI=1",
		"TMPDIR=" + os.TempDir(),
	}
}

// runProcess runs a runtime to its end, in its own process group (killed
// whole when ctx ends), stdin closed, stdout and stderr together.
func runProcess(ctx context.Context, bin string, args []string, dir string, env []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	w := io.Writer(&out)
	// TOOLEVAL_E2E_LOG_DIR keeps each runtime's output, for a look after the run.
	if logs := os.Getenv("TOOLEVAL_E2E_LOG_DIR"); logs != "" {
		if f, err := os.CreateTemp(logs, filepath.Base(bin)+"-*.log"); err == nil {
			defer f.Close()
			w = io.MultiWriter(&out, f)
		}
	}
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	// What the runtime left running in its group (a shell it started) ends
	// with it.
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if err != nil {
		return out.Bytes(), fmt.Errorf("run %s: %w", filepath.Base(bin), err)
	}
	return out.Bytes(), nil
}

// writeTree writes files (relative path: content) under root.
func writeTree(root string, files map[string]string) error {
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("mkdir %s: %w", rel, err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	return nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
