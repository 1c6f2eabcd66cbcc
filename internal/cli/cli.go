// Package cli implements the tooleval command line: eval, tools, launch, check,
// diff, import, bundle build, mcp proxy, hook, serve and version. cmd/tooleval only wires it to the process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/keys"
	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/engine"
)

// Exit codes.
const (
	ExitOK      = 0 // every call allowed, the launch valid, nothing to report
	ExitRefused = 1 // a call or tool refused, a warning under check --strict, a change found by diff
	ExitUsage   = 2 // bad usage, unreadable or undecodable input, a decision log event that is not replayable, evaluation failure
	ExitErrors  = 3 // the request or configuration has errors (every call is then refused), a launch is invalid
)

// exitRank orders the exit codes by how much they say.
var exitRank = map[int]int{ExitOK: 0, ExitRefused: 1, ExitErrors: 2, ExitUsage: 3}

// worse returns the exit code that says more: errors over refusals over
// success (usage errors end a command at once).
func worse(a, b int) int {
	if exitRank[b] > exitRank[a] {
		return b
	}
	return a
}

// Streams are the command's standard streams.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// Terminal is true when Out is a terminal (the default format is then
	// the table).
	Terminal bool
	// ErrTerminal is true when Err is a terminal: long work shows its
	// progress there.
	ErrTerminal bool
	// InTerminal is true when In is a terminal: a command about to read
	// standard input says so first instead of waiting silently.
	InTerminal bool
}

// IsTerminal reports whether f is a character device.
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// usageError is a mistake on the command line or in the input; it exits 2.
type usageError struct{ error }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, s Streams, args []string) (int, error)
}

func commands() []command {
	return []command{
		{"eval", "decide a dispatch batch (data.tooleval.decision)", runEval},
		{"tools", "list what each declared tool may do (data.tooleval.tools)", toolsCommand().run},
		{"launch", "validate a sub-agent or fork launch (data.tooleval.launch)", launchCommand().run},
		{"check", "validate the configuration and input documents", runCheck},
		{"verify", "prove a configuration's promises for every request it can produce", runVerify},
		{"diff", "replay requests under two policies and report what changes", runDiff},
		{"import", "read a runtime's permission rules into a configuration overlay", runImport},
		{"bundle", "build the policy bundle (bundle build -o FILE)", runBundle},
		{"mcp", "put the policy in front of an MCP server (mcp proxy)", runMCP},
		{"hook", "answer a runtime's pre-tool hook (claude-code, gemini, codex)", runHook},
		{"serve", "serve the runtimes' hooks over HTTP (loopback or a Unix socket)", runServe},
		{"version", "print the tooleval, bundle and OPA versions", runVersion},
	}
}

const mainUsage = `tooleval decides which tool calls an AI agent, sub-agent or fork may execute.

Usage:
  tooleval <command> [flags]

Commands:
%s
Run 'tooleval <command> --help' for a command's flags and examples.
`

// Run runs the command line args and returns the exit code.
func Run(ctx context.Context, s Streams, args []string) int {
	switch {
	case len(args) >= 2 && args[0] == "help": // help CMD is CMD --help
		args = []string{args[1], "--help"}
	case len(args) == 1 && args[0] == "--version":
		args = []string{"version"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		var list strings.Builder
		for _, c := range commands() {
			fmt.Fprintf(&list, "  %-8s %s\n", c.name, c.summary)
		}
		if len(args) == 0 {
			fmt.Fprintf(s.Err, mainUsage, list.String())
			return ExitUsage
		}
		fmt.Fprintf(s.Out, mainUsage, list.String())
		return ExitOK
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
		if c.name != args[0] {
			continue
		}
		code, err := c.run(ctx, s, args[1:])
		if errors.Is(err, pflag.ErrHelp) {
			return ExitOK
		}
		if err != nil {
			fmt.Fprintf(s.Err, "tooleval %s: %v\n", c.name, err)
			var u usageError
			if errors.As(err, &u) {
				return ExitUsage
			}
			if code == ExitOK {
				return ExitUsage
			}
		}
		return code
	}
	hint, known := commandAliases[strings.ToLower(args[0])]
	if !known {
		hint = suggestion(args[0], names)
	}
	fmt.Fprintf(s.Err, "tooleval: unknown command %q%s\n(the commands: %s; run 'tooleval --help')\n",
		args[0], hint, strings.Join(names, ", "))
	return ExitUsage
}

// newFlags returns a flag set that prints usage and examples on --help.
func newFlags(s Streams, name, synopsis, examples string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("tooleval "+name, pflag.ContinueOnError)
	fs.SetOutput(s.Err)
	fs.Usage = func() {
		fmt.Fprintf(s.Out, "Usage:\n  tooleval %s\n\nFlags:\n%s\nExamples:\n%s", synopsis, fs.FlagUsages(), examples)
	}
	return fs
}

// parse parses args, turning flag errors into usage errors that suggest
// the flag meant and say where the flags are listed.
func parse(fs *pflag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return err
		}
		return usagef("%v%s\n(run '%s --help' for its flags)", err, flagSuggestion(fs, err.Error()), fs.Name())
	}
	return nil
}

// readInput reads a document from a file, or standard input for "-".
func readInput(s Streams, path string) ([]byte, error) {
	if path == "-" {
		if s.InTerminal {
			fmt.Fprintln(s.Err, "tooleval: reading a JSON document from standard input (end it with Ctrl-D; -i FILE reads a file)")
		}
		data, err := io.ReadAll(s.In)
		if err != nil {
			return nil, usagef("read standard input: %w", err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("read input: %w", err)
	}
	return data, nil
}

// policyFlags are the flags that choose the policy an engine loads.
type policyFlags struct {
	in      io.Reader // --config -: the overlay's reader, nil when standard input is taken
	bundle  *string
	config  *string
	timeout *time.Duration
	key     *string
	keyID   *string
	alg     *string
}

// addPolicyFlags adds the flags that choose the policy; in is where
// --config - reads the overlay from (nil: the command's standard input
// is not free, and --config - is a usage error).
func addPolicyFlags(fs *pflag.FlagSet, in io.Reader) policyFlags {
	return policyFlags{
		in:      in,
		bundle:  fs.String("bundle", "", "bundle directory or tarball (default: the embedded bundle)"),
		config:  fs.String("config", "", "configuration overlay: a JSON object of data.tooleval.config members (tenants, agents, preset, ...), or - for standard input"),
		timeout: fs.Duration("timeout", engine.DefaultEvalTimeout, "how long one evaluation may run before it fails closed (0: no limit)"),
		key:     fs.String("verification-key", "", "verify --bundle's signature: the PEM file of the public key (RSA, ECDSA) or the HMAC secret, as for opa"),
		keyID:   fs.String("verification-key-id", "default", "the id of the --verification-key"),
		alg:     fs.String("signing-alg", "RS256", "the algorithm the bundle is signed with"),
	}
}

// engine loads the engine the flags choose, with any further options.
func (f policyFlags) engine(ctx context.Context, more ...engine.Option) (*engine.Engine, error) {
	config, err := readConfig(*f.config, f.in)
	if err != nil {
		return nil, err
	}
	opts := []engine.Option{engine.WithBundle(*f.bundle), engine.WithConfig(config), engine.WithEvalTimeout(*f.timeout)}
	opts = append(opts, more...)
	if *f.key != "" {
		if *f.bundle == "" {
			return nil, usagef("--verification-key verifies the bundle given with --bundle; the embedded bundle is part of this binary and is not signed")
		}
		// Like opa: a path to a PEM file, or else the HMAC secret itself.
		k, err := keys.NewKeyConfig(*f.key, *f.alg, "")
		if err != nil {
			return nil, usagef("--verification-key: %w", err)
		}
		opts = append(opts, engine.WithVerificationKey(engine.VerificationKey{ID: *f.keyID, Key: k.Key, Algorithm: *f.alg}))
	}
	e, err := engine.New(ctx, opts...)
	switch {
	case err == nil:
		return e, nil
	case errors.Is(err, engine.ErrIncompleteBundle):
		return nil, fmt.Errorf("%w\n(rebuild the bundle from a complete policy directory: make bundle, or tooleval bundle build)", err)
	case *f.key != "":
		return nil, fmt.Errorf("%w\n(the bundle must be signed with the key given by --verification-key: opa build --signing-key ...)", err)
	}
	return nil, err
}

// readConfig reads the configuration overlay at path, or from in for
// "-"; none when path is empty.
func readConfig(path string, in io.Reader) (engine.Config, error) {
	switch {
	case path == "":
		return nil, nil
	case path == "-" && in == nil:
		return nil, usagef("-: this command's standard input is not free for the configuration (give a file)")
	case path == "-":
		data, err := io.ReadAll(in)
		if err != nil {
			return nil, fmt.Errorf("read config from standard input: %w", err)
		}
		return engine.ParseConfig(data, "from standard input")
	}
	c, err := engine.ReadConfig(path)
	if err != nil {
		if hint, ok := policyFileHints[filepath.Ext(path)]; ok {
			if _, statErr := os.Stat(path); statErr == nil {
				return nil, fmt.Errorf("%w\n(%s looks like %s, not a tooleval configuration (JSON): import it first: %s -o overlay.json %s)", err, path, hint.what, hint.command, path)
			}
		}
	}
	return c, err
}

// policyFileHints are, by file extension, the runtimes' own policy files
// a configuration flag may be given by mistake, and their import.
var policyFileHints = map[string]struct{ what, command string }{
	".toml":  {"a Gemini CLI policy file", "tooleval import gemini"},
	".rules": {"a Codex rules file", "tooleval import codex"},
}

// explain adds what to do next to an evaluation error.
func (f policyFlags) explain(err error) error {
	if errors.Is(err, engine.ErrEvalTimeout) {
		return fmt.Errorf("%w\n(the input is too large to decide within --timeout %s: raise it, or --timeout 0 for no limit)", err, *f.timeout)
	}
	return err
}
