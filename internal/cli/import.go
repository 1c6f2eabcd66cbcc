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
// command takes.
var importers = map[string]func([]importer.File) (importer.Result, error){
	"claude-code": importer.ClaudeCode,
}

func runImport(_ context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "import", "import claude-code SETTINGS.json...", importExamples)
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if fs.NArg() < 2 {
		return ExitUsage, usagef("usage: tooleval import claude-code FILE... (lowest precedence first)")
	}
	read, ok := importers[fs.Arg(0)]
	if !ok {
		return ExitUsage, usagef("%q: the runtime imported is claude-code (Gemini CLI and Codex rules are not imported yet)", fs.Arg(0))
	}
	var files []importer.File
	for _, name := range fs.Args()[1:] {
		data, err := os.ReadFile(name)
		if err != nil {
			return ExitUsage, usagef("%w", err)
		}
		files = append(files, importer.File{Name: name, Data: data})
	}
	res, err := read(files)
	if errors.Is(err, importer.ErrInvalid) {
		return ExitErrors, fmt.Errorf("%w\n(fix the file, or leave it out)", err)
	}
	if err != nil {
		return ExitUsage, err
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
