// Command tooleval evaluates the tooleval tool-call policy: decisions for
// dispatch batches, fork launch validation, configuration checks and
// bundle builds. Run `tooleval --help` for the commands.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/tooleval/tooleval/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Terminal: cli.IsTerminal(os.Stdout), ErrTerminal: cli.IsTerminal(os.Stderr), InTerminal: cli.IsTerminal(os.Stdin)}, os.Args[1:])
	stop()
	os.Exit(code)
}
