package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/hooks"
	"github.com/tooleval/tooleval/internal/hookwire"
	"github.com/tooleval/tooleval/internal/mcpproxy"
)

const serveExamples = `  # on the default socket, $XDG_RUNTIME_DIR/tooleval.sock, with a deployment's overlay
  tooleval serve --config deploy/config.json

  # on a loopback port, for Claude Code's http hook (POST /v1/hooks/claude-code)
  tooleval serve --listen 127.0.0.1:8787 --config deploy/config.json
`

// runServe serves the hooks of the runtimes over HTTP until ctx ends.
func runServe(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "serve", "serve [--listen HOST:PORT | --socket PATH] [POLICY FLAGS] [--watch] [--audit-log FILE] [--max-attempts N] [--max-refusals N]", serveExamples)
	listen := fs.String("listen", "", "serve on this loopback HOST:PORT")
	socket := fs.String("socket", "", "serve on this Unix socket (mode 0600; default: $XDG_RUNTIME_DIR/"+hookwire.SocketName+" when --listen is not given)")
	auditPath := fs.String("audit-log", "", "append the audit log (JSON Lines, one record per decision, masked as OPA's decision log) to FILE (default: standard error)")
	maxAttempts := fs.Int64("max-attempts", 0, "refuse every call of a runtime session after this many calls (0: no cap)")
	maxRefusals := fs.Int64("max-refusals", 0, "refuse every call of a runtime session once this many of its calls were refused (0: no cap)")
	maxSessions := fs.Int("max-sessions", hooks.DefaultMaxSessions, "keep at most this many sessions and run budgets (the least recently used goes first)")
	idle := fs.Duration("idle-timeout", hooks.DefaultIdleTimeout, "drop a session or run budget unused for this long")
	watch := fs.Bool("watch", false, "reload when --bundle or --config changes, as on SIGHUP (replace files atomically)")
	policy := addPolicyFlags(fs, nil)
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if fs.NArg() > 0 {
		return ExitUsage, usagef("unexpected arguments %q", fs.Args())
	}
	if percent, ok := serveGCPercent(os.Getenv); ok {
		debug.SetGCPercent(percent)
	}
	listener, where, err := serveListener(*listen, *socket)
	if err != nil {
		return ExitUsage, err
	}
	defer listener.Close()

	audit, closeAudit, err := mcpproxy.OpenAuditLog(*auditPath, s.Err)
	if err != nil {
		return ExitUsage, usagef("--audit-log: %w", err)
	}
	defer closeAudit()
	// Records are masked and written after the answer, in order, none
	// dropped; those queued are written before serve exits.
	auditQueue := engine.NewAuditQueue(slog.New(slog.NewJSONHandler(audit, nil)), 0)
	defer auditQueue.Close()
	d := hooks.NewDecider(hooks.Options{
		MaxAttempts: *maxAttempts, MaxRefusals: *maxRefusals, MaxSessions: *maxSessions, IdleTimeout: *idle,
	})
	load := func(ctx context.Context) error {
		e, err := policy.engine(ctx, engine.WithAuditQueue(auditQueue))
		d.SetEngine(e, err)
		return err
	}
	if err := load(ctx); err != nil {
		return ExitUsage, policy.explain(err)
	}
	reload := func() {
		if err := load(ctx); err != nil {
			fmt.Fprintf(s.Err, "tooleval serve: reload failed, the policy in force stays: %v\n", err)
			return
		}
		fmt.Fprintf(s.Err, "tooleval serve: reloaded (revision %s)\n", d.Engine().Revision())
	}

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	hangUps := make(chan os.Signal, 1)
	signal.Notify(hangUps, syscall.SIGHUP)
	defer signal.Stop(hangUps)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-hangUps:
				reload()
			}
		}
	}()
	if *watch {
		var files []string
		for _, f := range []string{*policy.bundle, *policy.config} {
			if f != "" {
				files = append(files, f)
			}
		}
		if err := watchFiles(ctx, files, 200*time.Millisecond, reload); err != nil {
			return ExitUsage, usagef("--watch: %w", err)
		}
	}

	server := &http.Server{Handler: hooks.Handler(d), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()
	fmt.Fprintf(s.Err, "tooleval serve: serving %s (revision %s)\n", where, d.Engine().Revision())
	if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return ExitUsage, err
	}
	return ExitOK, nil
}

// serveListener listens on a loopback address or a Unix socket (the
// default socket when neither is given).
func serveListener(listen, socket string) (net.Listener, string, error) {
	switch {
	case listen != "" && socket != "":
		return nil, "", usagef("give --listen or --socket, not both")
	case listen != "":
		if err := mcpproxy.LoopbackOnly(listen); err != nil {
			return nil, "", usagef("--listen: %w", err)
		}
		l, err := net.Listen("tcp", listen)
		if err != nil {
			return nil, "", usagef("--listen: %w", err)
		}
		return l, "http://" + l.Addr().String(), nil
	}
	if socket == "" {
		if socket = hookwire.DefaultSocket(); socket == "" {
			return nil, "", usagef("no place to serve: give --listen HOST:PORT or --socket PATH (XDG_RUNTIME_DIR is not set)")
		}
	}
	// A socket left by a server that is gone is replaced; one that
	// answers is not.
	if info, err := os.Lstat(socket); err == nil && info.Mode()&os.ModeSocket != 0 {
		if c, err := net.DialTimeout("unix", socket, time.Second); err == nil {
			c.Close()
			return nil, "", usagef("--socket %s: a server is already listening there", socket)
		}
		_ = os.Remove(socket)
	}
	old := syscall.Umask(0o177)
	l, err := net.Listen("unix", socket)
	syscall.Umask(old)
	if err != nil {
		return nil, "", usagef("--socket: %w", err)
	}
	return l, "unix:" + socket, nil
}

// serveGCPercent is the garbage collector's target percentage serve
// sets unless GOGC is set: a decision allocates about 0.25 MB against a
// live heap of the compiled policy, and collecting at 4× rather than 2×
// the live heap takes about a tenth off an http hook's p50 for about 75
// MB more resident memory (docs/performance.md).
func serveGCPercent(getenv func(string) string) (int, bool) {
	if getenv("GOGC") != "" {
		return 0, false // the operator's setting stands
	}
	return 400, true
}
