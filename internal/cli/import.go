package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/tooleval/tooleval/internal/importer"
)

const importExamples = `  # Claude Code settings files, lowest precedence first (user, project, local, managed)
  tooleval import claude-code inputs/import/claude-code/project.json inputs/import/claude-code/ci.json

  # Codex rules files (Starlark prefix_rule calls), as Codex runs with approval policy on-request
  tooleval import codex --approval-policy on-request inputs/import/codex/default.rules

  # Import and check in one go
  tooleval import claude-code inputs/import/claude-code/project.json | tooleval check --config -

The overlay goes to standard output: a JSON object that --config, check,
bundle build --config and mcp proxy --config accept. Each rule or setting
that could not be carried over exactly is a located line on standard error,
with what was done instead (always the stricter reading: an allow dropped
or narrowed, a deny or ask widened). docs/import.md says what each
construct becomes.
Exit status: 0 the overlay was written, 3 a file is not valid settings
(nothing is written), 2 bad usage.
`

// importers are the runtimes tooleval import reads, by the name the
// command takes, given the command's flags.
var importers = map[string]func([]importer.File, importFlags) (importer.Result, error){
	"claude-code": func(files []importer.File, _ importFlags) (importer.Result, error) {
		return importer.ClaudeCode(files)
	},
	"codex": func(files []importer.File, f importFlags) (importer.Result, error) {
		return importer.Codex(files, importer.CodexOptions{ApprovalPolicy: f.approvalPolicy})
	},
}

// importFlags are the flags of tooleval import that describe the runtime.
type importFlags struct {
	approvalPolicy string
}

func runImport(_ context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "import", "import claude-code SETTINGS.json... | import codex [--approval-policy P] RULES...", importExamples)
	var flags importFlags
	fs.StringVar(&flags.approvalPolicy, "approval-policy", "", "codex: Codex's approval_policy the rules run under: untrusted (the default), on-request, on-failure or never")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if fs.NArg() < 2 {
		return ExitUsage, usagef("usage: tooleval import claude-code FILE... (lowest precedence first), or tooleval import codex FILE...")
	}
	read, ok := importers[fs.Arg(0)]
	if !ok {
		return ExitUsage, usagef("%q: the runtimes imported are claude-code and codex (Gemini CLI policies are not imported yet)", fs.Arg(0))
	}
	if flags.approvalPolicy != "" && fs.Arg(0) != "codex" {
		return ExitUsage, usagef("--approval-policy is Codex's: leave it out for %s", fs.Arg(0))
	}
	var files []importer.File
	for _, name := range fs.Args()[1:] {
		data, err := os.ReadFile(name)
		if err != nil {
			return ExitUsage, usagef("%w", err)
		}
		files = append(files, importer.File{Name: name, Data: data})
	}
	res, err := read(files, flags)
	if errors.Is(err, importer.ErrInvalid) {
		return ExitErrors, fmt.Errorf("%w\n(fix the file, or leave it out)", err)
	}
	if err != nil {
		return ExitUsage, usagef("%w", err)
	}
	out, err := json.MarshalIndent(res.Overlay, "", "  ")
	if err != nil {
		return ExitUsage, fmt.Errorf("write the overlay: %w", err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(s.Err, "tooleval import: %s\n", n)
	}
	fmt.Fprintf(s.Out, "%s\n", out)
	return ExitOK, nil
}
