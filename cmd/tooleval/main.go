// Command tooleval evaluates the tooleval tool-call policy: decisions for
// dispatch batches, fork launch validation, configuration checks and
// bundle builds. Run `tooleval --help` for the commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/tooleval/tooleval/internal/cli"
)

func main() {
	// SIGTERM, as a service manager stops serve or mcp proxy, ends the
	// work as an interrupt does: what is queued (serve's audit records)
	// is written before the process exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Terminal: cli.IsTerminal(os.Stdout), ErrTerminal: cli.IsTerminal(os.Stderr), InTerminal: cli.IsTerminal(os.Stdin)}, os.Args[1:])
	stop()
	os.Exit(code)
}
