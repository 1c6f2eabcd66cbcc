package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/mcpproxy"
)

const mcpUsage = `Usage:
  tooleval mcp proxy [flags] -- COMMAND [ARGS...]
  tooleval mcp proxy [flags] --upstream URL [--listen HOST:PORT]

Commands:
  proxy    serve an MCP server's tools through the policy: tools/list filtered, every tools/call decided

Run 'tooleval mcp proxy --help' for its flags and examples.
`

const mcpProxyExamples = `  # In an mcpServers entry: the filesystem server, behind the policy
  tooleval mcp proxy --server-name filesystem --workspace /home/me/project --layer operator.json -- npx -y @modelcontextprotocol/server-filesystem /home/me/project

  # A tenant's plan from a configuration overlay, with a run budget
  tooleval mcp proxy --server-name github --config deploy.json --tenant acme --max-attempts 200 --max-refusals 20 -- github-mcp-server stdio

  # A Streamable HTTP server, served to clients on 127.0.0.1:8931 over Streamable HTTP
  tooleval mcp proxy --server-name docs --listen 127.0.0.1:8931 --upstream http://127.0.0.1:9000/mcp

The upstream's tools are declared as MCP tools of --server-name (model-visible
name mcp__SERVER__TOOL); the client sees only those the policy lets execute,
under their own names. A refused call never reaches the upstream: it returns
a tool result with isError set and the policy's message. Every decision goes
to the audit log (--audit-log, default standard error; never standard output,
which carries the protocol). SIGHUP (or, with --watch, a change of one of
the files) reloads the bundle, the configuration and the layer files without
restarting the upstream. A policy that cannot be
evaluated withholds every tool and refuses every call. Exit status: 0 when the
client or the upstream ends the session, 2 bad usage or a failure.
`

func runMCP(ctx context.Context, s Streams, args []string) (int, error) {
	if len(args) == 0 {
		fmt.Fprint(s.Err, mcpUsage)
		return ExitUsage, usagef("a subcommand is needed: tooleval mcp proxy")
	}
	switch args[0] {
	case "proxy":
		return runMCPProxy(ctx, s, args[1:])
	case "-h", "--help", "help":
		fmt.Fprint(s.Out, mcpUsage)
		return ExitOK, nil
	}
	return ExitUsage, usagef("unknown subcommand %q%s (run 'tooleval mcp --help')", args[0], suggestion(args[0], []string{"proxy"}))
}

// identityFlags are the agent, layers, workspace, tenant and caller a
// runtime would give the session.
type identityFlags struct {
	agentName *string
	role      *string
	depth     *int
	tenant    *string
	scopes    *[]string
	layers    *[]string
	workspace *string
	readRoots *[]string
}

func addIdentityFlags(fs *pflag.FlagSet) identityFlags {
	return identityFlags{
		agentName: fs.String("agent-name", "", "the agent's name (config.agents selects its definition by it)"),
		role:      fs.String("role", "main", "the agent's role: main, subagent or fork"),
		depth:     fs.Int("depth", 0, "the agent's depth: 0 for the main agent, 1 for its children, ..."),
		tenant:    fs.String("tenant", "", "the tenant whose plan (config.tenants) applies"),
		scopes:    fs.StringArray("scope", nil, "a caller scope (config.scopes); repeatable. Given at all, the scopes narrow the tools"),
		layers:    fs.StringArray("layer", nil, "a JSON file with a layer {\"name\", \"allow\", \"deny\"} or a list of them; repeatable, in order"),
		workspace: fs.String("workspace", "", "the workspace root: path rules apply to the path arguments the configuration names, resolved on this host"),
		readRoots: fs.StringArray("read-root", nil, "a directory outside the workspace that may be read; repeatable"),
	}
}

// agentRoles are the roles the contract gives an agent (agent.role).
var agentRoles = []string{"main", "subagent", "fork"}

// validate refuses identity flags the policy would refuse on every call,
// at start, naming what is valid.
func (f identityFlags) validate() error {
	if !slices.Contains(agentRoles, *f.role) {
		return usagef("--role %q is not a role%s: one of %s", *f.role, suggestion(*f.role, agentRoles), strings.Join(agentRoles, ", "))
	}
	if *f.depth < 0 {
		return usagef("--depth %d: a depth is 0 (the main agent) or more", *f.depth)
	}
	if *f.role == "main" && *f.depth != 0 {
		return usagef("--depth %d with --role main: the main agent is at depth 0 (a sub-agent is --role subagent or fork)", *f.depth)
	}
	if *f.role != "main" && *f.depth == 0 {
		return usagef("--role %s at --depth 0: a sub-agent is at depth 1 or more (give --depth)", *f.role)
	}
	return nil
}

// session reads the layer files and returns the session's static part
// (the declared tools come from the upstream).
func (f identityFlags) session(fs *pflag.FlagSet) (engine.SessionConfig, error) {
	config := engine.SessionConfig{
		Agent:  &engine.Agent{Name: *f.agentName, Role: *f.role, Depth: *f.depth},
		Tenant: *f.tenant,
	}
	if fs.Changed("scope") {
		config.Caller = &engine.Caller{Scopes: append([]string{}, *f.scopes...)}
	}
	for _, path := range *f.layers {
		layers, err := readLayers(path)
		if err != nil {
			return config, err
		}
		config.Layers = append(config.Layers, layers...)
	}
	if *f.workspace != "" {
		root, err := hostDirectory(*f.workspace)
		if err != nil {
			return config, fmt.Errorf("--workspace: %w", err)
		}
		config.Workspace = &engine.Workspace{Root: root}
		for _, dir := range *f.readRoots {
			readRoot, err := hostDirectory(dir)
			if err != nil {
				return config, fmt.Errorf("--read-root: %w", err)
			}
			config.Workspace.ReadRoots = append(config.Workspace.ReadRoots, readRoot)
		}
	}
	return config, nil
}

// hostDirectory is dir absolute, with its symbolic links resolved (the
// engine resolves path arguments the same way before comparing).
func hostDirectory(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	return resolved, nil
}

// readLayers reads a layer file: one layer object, or a list of them.
func readLayers(path string) ([]engine.Layer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read layer: %w", err)
	}
	var list []engine.Layer
	if err := decodeStrict(data, &list); err == nil {
		return list, checkLayers(path, list)
	}
	var one engine.Layer
	if err := decodeStrict(data, &one); err != nil {
		return nil, fmt.Errorf("read layer %s: a layer {\"name\", \"allow\", \"deny\"} or a list of them: %w", path, err)
	}
	return []engine.Layer{one}, checkLayers(path, []engine.Layer{one})
}

// decodeStrict decodes one JSON document into v, refusing unknown
// members and anything after the document.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("more than one JSON document")
	}
	return nil
}

func checkLayers(path string, layers []engine.Layer) error {
	for i, l := range layers {
		if l.Name == "" {
			return fmt.Errorf("read layer %s: layer %d has no name", path, i)
		}
	}
	return nil
}

func runMCPProxy(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "mcp proxy", "mcp proxy --server-name NAME [POLICY FLAGS] [IDENTITY FLAGS] [--audit-log FILE] [--watch] (-- COMMAND [ARGS...] | --upstream URL) [--listen HOST:PORT]", mcpProxyExamples)
	serverName := fs.String("server-name", "", "the raw MCP server name the policy sees, the S of mcp__S__* (required)")
	upstreamURL := fs.String("upstream", "", "the upstream's Streamable HTTP endpoint, instead of a command after --")
	listen := fs.String("listen", "", "serve clients over Streamable HTTP on HOST:PORT instead of standard input and output")
	auditPath := fs.String("audit-log", "", "append the audit log (JSON Lines, one record per decision) to FILE (default: standard error)")
	maxAttempts := fs.Int64("max-attempts", 0, "refuse every call after this many calls over the proxy's lifetime (0: no cap)")
	maxRefusals := fs.Int64("max-refusals", 0, "refuse every call once this many calls were refused over the proxy's lifetime (0: no cap)")
	askTimeout := fs.Duration("ask-timeout", mcpproxy.DefaultAskTimeout, "how long a call the policy asks about waits for the person's answer (MCP elicitation) before it is refused")
	watch := fs.Bool("watch", false, "reload when --bundle, --config or a --layer file changes, as on SIGHUP (replace files atomically)")
	policy := addPolicyFlags(fs, nil) // standard input is the MCP transport
	identity := addIdentityFlags(fs)
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	command := fs.Args()
	switch {
	case *serverName == "":
		return ExitUsage, usagef("--server-name is required: the raw MCP server name the policy's mcp__S__* patterns name")
	case strings.Contains(*serverName, "__"):
		return ExitUsage, usagef("--server-name %q contains \"__\": no mcp__S__* pattern could name it (S ends at the first __)", *serverName)
	case len(command) > 0 && *upstreamURL != "":
		return ExitUsage, usagef("give the upstream either as a command after -- or as --upstream URL, not both")
	case len(command) == 0 && *upstreamURL == "":
		return ExitUsage, usagef("no upstream: give its command after -- (stdio) or --upstream URL (Streamable HTTP)")
	case fs.ArgsLenAtDash() > 0:
		return ExitUsage, usagef("unexpected arguments before --: %q", command[:fs.ArgsLenAtDash()])
	}
	if err := identity.validate(); err != nil {
		return ExitUsage, err
	}
	if _, err := identity.session(fs); err != nil {
		return ExitUsage, usageError{err}
	}
	// A --config the proxy cannot read is a mistake at start, as a --layer
	// is; on a reload either keeps the policy in force.
	if _, err := readConfig(*policy.config, nil); err != nil {
		return ExitUsage, usagef("--config: %w", err)
	}
	if *listen != "" {
		if err := mcpproxy.LoopbackOnly(*listen); err != nil {
			return ExitUsage, usagef("--listen: %w", err)
		}
	}

	audit, closeAudit, err := mcpproxy.OpenAuditLog(*auditPath, s.Err)
	if err != nil {
		return ExitUsage, usagef("--audit-log: %w", err)
	}
	defer closeAudit()
	auditLog := slog.New(slog.NewJSONHandler(audit, nil))
	log := slog.New(slog.NewJSONHandler(s.Err, nil))

	var guard *engine.RunGuard
	if *maxAttempts > 0 || *maxRefusals > 0 {
		guard = engine.NewRunGuard(*maxAttempts, *maxRefusals)
	}
	load := func(ctx context.Context) (*mcpproxy.Policy, error) {
		session, err := identity.session(fs)
		if err != nil {
			return nil, err
		}
		e, err := policy.engine(ctx, engine.WithAuditLogger(auditLog))
		if err != nil {
			return nil, err
		}
		return &mcpproxy.Policy{Engine: e, Session: session}, nil
	}

	// Caught from here on: SIGHUP's default action ends the process.
	hangUps := make(chan os.Signal, 1)
	signal.Notify(hangUps, syscall.SIGHUP)
	defer signal.Stop(hangUps)

	upstream := mcpproxy.UpstreamTransport(command, *upstreamURL, *identity.workspace, s.Err)
	proxy, err := mcpproxy.Start(ctx, upstream, mcpproxy.Options{
		ServerName: *serverName, Load: load, Guard: guard, Log: log, Audit: auditLog, AskTimeout: *askTimeout,
	})
	if err != nil {
		return ExitUsage, err
	}
	defer proxy.Close()

	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go proxy.ReloadOn(ctx, hangUps)
	if *watch {
		files := append([]string{}, *identity.layers...)
		for _, f := range []string{*policy.bundle, *policy.config} {
			if f != "" {
				files = append(files, f)
			}
		}
		if err := watchFiles(ctx, files, 200*time.Millisecond, func() { _ = proxy.Reload(ctx) }); err != nil {
			return ExitUsage, usagef("--watch: %w", err)
		}
	}

	var listener net.Listener
	if *listen != "" {
		// Only a loopback address is accepted (checked above).
		if listener, err = net.Listen("tcp", *listen); err != nil {
			return ExitUsage, usagef("--listen: %w", err)
		}
		fmt.Fprintf(s.Err, "tooleval mcp proxy: serving Streamable HTTP on http://%s/\n", listener.Addr())
	}
	if err := proxy.Serve(ctx, listener, s.In, s.Out); err != nil {
		return ExitUsage, err
	}
	return ExitOK, nil
}
