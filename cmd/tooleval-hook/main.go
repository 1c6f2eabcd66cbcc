// Command tooleval-hook is a runtime's command hook that asks a running
// tooleval serve: `tooleval-hook claude-code|gemini|codex [--server
// TARGET]` reads the payload on standard input and answers as `tooleval
// hook` does. It holds no policy engine, so it starts in milliseconds;
// with no tooleval serve answering it refuses the call (tooleval hook
// decides in-process instead). docs/hooks.md shows both.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/internal/hookwire"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string) int {
	fs := pflag.NewFlagSet("tooleval-hook", pflag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	server := fs.String("server", "", "the tooleval serve to ask (http://HOST:PORT or unix:PATH; default: $"+hookwire.ServerEnv+", else $XDG_RUNTIME_DIR/"+hookwire.SocketName+")")
	wait := fs.Duration("server-timeout", 10*time.Second, "how long to wait for tooleval serve's answer before the call is refused")
	deny := func(runtime, message string) int {
		return hookwire.Write(os.Stdout, os.Stderr, hookwire.Denial(runtime, "tooleval-hook: "+message))
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return deny("claude_code", err.Error())
	}
	if fs.NArg() != 1 {
		return deny("claude_code", "name one runtime (claude-code, gemini or codex)")
	}
	runtime, err := hookwire.Runtime(fs.Arg(0))
	if err != nil {
		return deny("claude_code", err.Error())
	}
	payload, err := hookwire.ReadPayload(os.Stdin)
	if err != nil {
		return deny(runtime, err.Error())
	}
	target, _ := hookwire.Target(*server)
	if target == "" {
		return deny(runtime, fmt.Sprintf("no tooleval serve to ask (give --server, set $%s, or run tooleval serve on $XDG_RUNTIME_DIR/%s)", hookwire.ServerEnv, hookwire.SocketName))
	}
	a, err := hookwire.Forward(ctx, target, fs.Arg(0), payload, *wait)
	if err != nil {
		return deny(runtime, err.Error())
	}
	return hookwire.Write(os.Stdout, os.Stderr, a)
}
