package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/hooks"
)

// ServerEnv names the tooleval serve a command hook forwards to when
// --server is not given: http://HOST:PORT or unix:PATH.
const ServerEnv = "TOOLEVAL_SERVER"

// socketName is the socket tooleval serve listens on by default, and a
// command hook looks for, in $XDG_RUNTIME_DIR (a directory only its user
// can enter).
const socketName = "tooleval.sock"

const hookExamples = `  # Claude Code's PreToolUse command hook: the payload on standard input
  tooleval hook claude-code --config deploy/config.json < payload.json

  # the same, answered by a running tooleval serve
  tooleval hook claude-code --server unix:$XDG_RUNTIME_DIR/tooleval.sock < payload.json
`

// defaultSocket is $XDG_RUNTIME_DIR/tooleval.sock, or "" without
// XDG_RUNTIME_DIR.
func defaultSocket() string {
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, socketName)
}

// foundSocket is the default socket when it is a socket owned by this
// user, or "".
func foundSocket() string {
	path := defaultSocket()
	if path == "" {
		return ""
	}
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSocket == 0 {
		return ""
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return ""
	}
	return path
}

// runHook answers one hook: it always writes the runtime's document on
// standard output, and a deny exits 2 with its reason on standard error.
func runHook(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "hook", "hook claude-code|gemini|codex [--server http://HOST:PORT|unix:PATH] [POLICY FLAGS]", hookExamples)
	server := fs.String("server", "", "forward to this tooleval serve (http://HOST:PORT or unix:PATH; default: $"+ServerEnv+", else $XDG_RUNTIME_DIR/"+socketName+" when it is there, else decide here)")
	wait := fs.Duration("server-timeout", 10*time.Second, "how long to wait for tooleval serve's answer before the call is refused")
	policy := addPolicyFlags(fs, nil) // standard input is the payload
	runtime := "claude_code"
	if err := parse(fs, args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK, err
		}
		return writeHookAnswer(s, hooks.Deny(runtime, "tooleval hook: "+err.Error())), nil
	}
	if fs.NArg() != 1 {
		return writeHookAnswer(s, hooks.Deny(runtime, "tooleval hook: name one runtime (claude-code, gemini or codex)")), nil
	}
	runtime, err := hooks.Runtime(fs.Arg(0))
	if err != nil {
		return writeHookAnswer(s, hooks.Deny("claude_code", "tooleval hook: "+err.Error())), nil
	}
	payload, err := io.ReadAll(io.LimitReader(s.In, hooks.MaxPayload+1))
	switch {
	case err != nil:
		return writeHookAnswer(s, hooks.Deny(runtime, "tooleval hook could not read the payload: "+err.Error())), nil
	case len(payload) > hooks.MaxPayload:
		return writeHookAnswer(s, hooks.Deny(runtime, fmt.Sprintf("the hook payload is larger than %d bytes", hooks.MaxPayload))), nil
	}

	target, explicit := *server, true
	if target == "" {
		target = os.Getenv(ServerEnv)
	}
	if target == "" {
		target, explicit = foundSocket(), false
	}
	if target != "" {
		if explicit && (*policy.bundle != "" || *policy.config != "") {
			return writeHookAnswer(s, hooks.Deny(runtime, "tooleval hook: --bundle and --config choose the policy decided here; a tooleval serve ("+target+") decides with its own")), nil
		}
		a, err := forward(ctx, target, fs.Arg(0), payload, *wait)
		if err == nil {
			return writeHookAnswer(s, a), nil
		}
		if explicit {
			return writeHookAnswer(s, hooks.Deny(runtime, "tooleval hook: "+err.Error())), nil
		}
		// A socket found but not answering: decide here.
	}

	d := hooks.NewDecider(hooks.Options{})
	e, err := policy.engine(ctx)
	if err != nil {
		return writeHookAnswer(s, hooks.Deny(runtime, "tooleval hook could not load the policy: "+policy.explain(err).Error())), nil
	}
	d.SetEngine(e, nil)
	return writeHookAnswer(s, d.Answer(ctx, runtime, payload)), nil
}

func forward(ctx context.Context, target, cliRuntime string, payload []byte, wait time.Duration) (*engine.HookAnswer, error) {
	c, err := hooks.NewClient(target, wait)
	if err != nil {
		return nil, err
	}
	return c.Answer(ctx, cliRuntime, payload)
}

// writeHookAnswer writes an answer as a command hook gives it and
// returns the exit code.
func writeHookAnswer(s Streams, a *engine.HookAnswer) int {
	fmt.Fprintf(s.Out, "%s\n", a.Output)
	code, reason := hooks.Exit(a)
	if reason != "" {
		fmt.Fprintln(s.Err, reason)
	}
	return code
}
