package cli

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/internal/hooks"
	"github.com/tooleval/tooleval/internal/hookwire"
)

// ServerEnv names the tooleval serve a command hook forwards to when
// --server is not given.
const ServerEnv = hookwire.ServerEnv

const hookExamples = `  # Claude Code's PreToolUse command hook, decided here: the payload on standard input
  tooleval hook claude-code --config deploy/config.json < payload.json
`

// runHook answers one hook: it always writes the runtime's document on
// standard output, and a deny exits 2 with its reason on standard error.
func runHook(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "hook", "hook claude-code|gemini|codex [--server http://HOST:PORT|unix:PATH] [POLICY FLAGS]", hookExamples)
	server := fs.String("server", "", "forward to this tooleval serve (http://HOST:PORT or unix:PATH; default: $"+ServerEnv+", else $XDG_RUNTIME_DIR/"+hookwire.SocketName+" when it is there, else decide here)")
	wait := fs.Duration("server-timeout", 10*time.Second, "how long to wait for tooleval serve's answer before the call is refused")
	policy := addPolicyFlags(fs, nil) // standard input is the payload
	runtime := "claude_code"
	if err := parse(fs, args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK, err
		}
		return writeHookAnswer(s, hookwire.Denial(runtime, "tooleval hook: "+err.Error())), nil
	}
	if fs.NArg() != 1 {
		return writeHookAnswer(s, hookwire.Denial(runtime, "tooleval hook: name one runtime (claude-code, gemini or codex)")), nil
	}
	runtime, err := hookwire.Runtime(fs.Arg(0))
	if err != nil {
		return writeHookAnswer(s, hookwire.Denial("claude_code", "tooleval hook: "+err.Error())), nil
	}
	payload, err := hookwire.ReadPayload(s.In)
	if err != nil {
		return writeHookAnswer(s, hookwire.Denial(runtime, err.Error())), nil
	}

	target, explicit := hookwire.Target(*server)
	chosen := *policy.bundle != "" || *policy.config != ""
	if target != "" && !explicit && chosen {
		target = "" // --bundle or --config choose the policy: decide here
	}
	if target != "" {
		if chosen {
			return writeHookAnswer(s, hookwire.Denial(runtime, "tooleval hook: --bundle and --config choose the policy decided here; a tooleval serve ("+target+") decides with its own")), nil
		}
		a, err := hookwire.Forward(ctx, target, fs.Arg(0), payload, *wait)
		if err == nil {
			return writeHookAnswer(s, a), nil
		}
		if explicit {
			return writeHookAnswer(s, hookwire.Denial(runtime, "tooleval hook: "+err.Error())), nil
		}
		// A socket found but not answering: decide here.
	}

	d := hooks.NewDecider(hooks.Options{})
	e, err := policy.engine(ctx)
	if err != nil {
		return writeHookAnswer(s, hookwire.Denial(runtime, "tooleval hook could not load the policy: "+policy.explain(err).Error())), nil
	}
	d.SetEngine(e, nil)
	return writeHookAnswer(s, d.Answer(ctx, runtime, payload)), nil
}

// writeHookAnswer writes an answer as a command hook gives it and
// returns the exit code.
func writeHookAnswer(s Streams, a *hookwire.Answer) int {
	return hookwire.Write(s.Out, s.Err, a)
}
