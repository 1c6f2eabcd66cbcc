package tests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The sandbox a generated command runs in under real bash: a directory
// of programs that is the whole PATH, holding
//   - a recording stub for every program the generator names as a
//     payload or an allowed program: a /bin/sh script that appends its
//     program name (the last segment of the path it was run by) and its
//     arguments, NUL-separated and closed by stubEnd, to the log named
//     by $TOOLEVAL_STUB_LOG, and exits 0;
//   - a symbolic link to the real program for every runner (a program
//     that runs another program from its arguments or its input), so
//     that what it runs is looked up on this PATH and lands in a stub.
// bash's builtins run as themselves. Each command runs in a directory of
// its own holding the files the generator names (f, out; s, e.sed, a.awk,
// m.mk, Makefile, p.pl and p.py run a stub in their languages; sbin and
// home/bin link to the stub directory, rp/rm to the rm stub), with a clean environment: PATH,
// HOME, LC_ALL and the log's name, nothing else.

// stubEnd closes one stub record (the generator never writes it).
const stubEnd = "\x1e"

// stubPrograms are the programs that only record that they ran. Some
// are bash builtins too (printf, test, echo, true, [, pwd, kill is not
// one of them): bash runs its builtin, a runner (env, find, xargs)
// reaches the stub.
var stubPrograms = []string{
	"rm", "touch", "git", "ls", "cat", "curl", "id", "mkdir", "chmod", "printf", "test", "[", "echo",
	"true", "false", "pwd", "wc", "head", "grep",
}

// runnerPrograms are real programs that run others, linked into the stub
// directory when the machine has them. Left out: sudo, doas and pkexec
// (absent here; they reset PATH), chroot and nsenter (they leave the
// file system the stubs are in), watch (runs its command forever),
// newgrp (starts an interactive shell), fakeroot and dbus-run-session
// (they need helpers off this PATH: getopt, dbus-daemon).
var runnerPrograms = []string{
	"sh", "bash", "env", "xargs", "find", "sed", "awk", "nice", "timeout", "setarch", "linux64", "x86_64",
	"i386", "stdbuf", "nohup", "ionice", "taskset", "flock", "chrt", "strace", "setsid", "script",
	"prlimit", "unshare", "runuser", "su", "sg", "dash", "perl", "python3", "node", "tar", "make", "zip", "ssh",
	"linux32", "time", "gdb", "split", "sdiff", "run-parts",
}

// runnerPaths are where a runner is taken from when PATH would give a
// launcher that needs more than the stub directory (pyenv's python3 is a
// bash script that runs pyenv).
var runnerPaths = map[string]string{"python3": "/usr/bin/python3"}

// shellSandbox is the stub directory and the scratch space of one run.
type shellSandbox struct {
	root    string          // scratch root: bin/, logs/, cases/
	bin     string          // the PATH
	bash    string          // the real bash
	stdin   string          // the file every command reads as its standard input
	runners map[string]bool // the runners present, by name
	timeout time.Duration   // per command; a timeout is counted, never a failure
}

// newShellSandbox builds the stub directory under t.TempDir(), or skips
// the test when the machine has no bash.
func newShellSandbox(t *testing.T) *shellSandbox {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("no bash on this machine: %v", err)
	}
	root := t.TempDir()
	s := &shellSandbox{root: root, bin: filepath.Join(root, "bin"), bash: bash,
		stdin: filepath.Join(root, "stdin"), runners: map[string]bool{}, timeout: 120 * time.Second}
	for _, dir := range []string{s.bin, filepath.Join(root, "logs"), filepath.Join(root, "cases")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub := "#!/bin/sh\nprintf '%s\\0' \"${0##*/}\" \"$@\" '" + stubEnd + "' >> \"$TOOLEVAL_STUB_LOG\"\n"
	for _, p := range stubPrograms {
		if err := os.WriteFile(filepath.Join(s.bin, p), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range runnerPrograms {
		real, err := exec.LookPath(p)
		if path, ok := runnerPaths[p]; ok {
			real, err = exec.LookPath(path)
		}
		if err != nil {
			continue
		}
		if err := os.Symlink(real, filepath.Join(s.bin, p)); err != nil {
			t.Fatal(err)
		}
		s.runners[p] = true
	}
	if err := os.WriteFile(s.stdin, []byte("y\nf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// stubRun is one run of a stub: its program name and arguments.
type stubRun struct {
	Program string
	Args    []string
}

func (r stubRun) String() string {
	return strings.Join(append([]string{r.Program}, r.Args...), " ")
}

// execResult is what running one command did.
type execResult struct {
	Runs     []stubRun
	TimedOut bool
}

// runAll runs every command under bash, at most parallel at a time, and
// returns what each did, in order.
func (s *shellSandbox) runAll(t *testing.T, commands []string, parallel int) []execResult {
	t.Helper()
	results := make([]execResult, len(commands))
	errs := make([]error, len(commands))
	work := make(chan int)
	var wg sync.WaitGroup
	for range max(1, parallel) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i], errs[i] = s.run(context.Background(), i, commands[i])
			}
		}()
	}
	for i := range commands {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return results
}

// shellExecParallel is how many bash processes run at once.
func shellExecParallel() int { return 2 * runtime.NumCPU() }

// run runs command number i in a fresh directory and reads its log. Its
// process group is killed when bash has ended and its output is closed
// (background jobs included, up to WaitDelay), or at the timeout.
func (s *shellSandbox) run(ctx context.Context, i int, command string) (execResult, error) {
	dir := filepath.Join(s.root, "cases", fmt.Sprint(i))
	log := filepath.Join(s.root, "logs", fmt.Sprint(i))
	if err := s.prepareCase(dir); err != nil {
		return execResult{}, err
	}
	stdin, err := os.Open(s.stdin)
	if err != nil {
		return execResult{}, fmt.Errorf("case %d: %w", i, err)
	}
	defer stdin.Close()
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bash, "-c", command)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + s.bin, "HOME=" + filepath.Join(dir, "home"), "LC_ALL=C", "TOOLEVAL_STUB_LOG=" + log}
	cmd.Stdin = stdin
	var out bytes.Buffer // a pipe: Wait waits for every process that holds it
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 30 * time.Second
	runErr := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) && !errors.Is(runErr, exec.ErrWaitDelay) {
		return execResult{}, fmt.Errorf("case %d: bash -c %q: %w", i, command, runErr)
	}
	data, err := os.ReadFile(log)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return execResult{}, fmt.Errorf("case %d: %w", i, err)
	}
	// the soak runs many: keep the scratch space small
	if err := errors.Join(os.RemoveAll(dir), os.RemoveAll(log)); err != nil {
		return execResult{}, fmt.Errorf("case %d: %w", i, err)
	}
	return execResult{Runs: parseStubLog(data), TimedOut: ctx.Err() != nil}, nil
}

// prepareCase makes a command's directory: the files the generator names.
func (s *shellSandbox) prepareCase(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		return fmt.Errorf("case directory: %w", err)
	}
	files := map[string]string{"f": "x\n", "s": "rm -f f\n", "out": "", "e.sed": "1e rm -f f\n",
		"a.awk": "BEGIN{system(\"rm -f f\")}\n", "m.mk": "all:\n\trm -f f\n", "Makefile": "all:\n\ttouch p\n",
		"p.pl": "system(\"rm -f f\");\n", "p.py": "import os\nos.system(\"rm -f f\")\n"}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return fmt.Errorf("case directory: %w", err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "rp"), 0o755); err != nil {
		return fmt.Errorf("case directory: %w", err)
	}
	links := map[string]string{"sbin": s.bin, "home/bin": s.bin, "rp/rm": filepath.Join(s.bin, "rm")}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			return fmt.Errorf("case directory: %w", err)
		}
	}
	return nil
}

// parseStubLog reads the complete records of a stub log (a record cut
// short by a kill is dropped).
func parseStubLog(data []byte) []stubRun {
	var runs []stubRun
	records := strings.Split(string(data), stubEnd+"\x00")
	for _, record := range records[:len(records)-1] { // the last one is not closed
		if !strings.HasSuffix(record, "\x00") {
			continue // interleaved with a record cut short
		}
		fields := strings.Split(strings.TrimSuffix(record, "\x00"), "\x00")
		runs = append(runs, stubRun{Program: fields[0], Args: fields[1:]})
	}
	return runs
}
