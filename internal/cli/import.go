package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tooleval/tooleval/internal/atomicfile"
	"github.com/tooleval/tooleval/internal/importer"
	"github.com/tooleval/tooleval/internal/importer/claudecode"
	"github.com/tooleval/tooleval/internal/importer/codex"
	"github.com/tooleval/tooleval/internal/importer/gemini"
)

// maxImportBytes is the most a file tooleval import reads may hold: a
// runtime's settings or policy files are kilobytes, and an overlay is a
// few times the size of what it carries.
const maxImportBytes = 4 << 20

const importExamples = `  # Claude Code settings files, lowest precedence first (user, project, local, managed)
  tooleval import claude-code inputs/import/claude-code/project.json inputs/import/claude-code/ci.json

  # Codex rules files (Starlark prefix_rule calls), as Codex runs with approval policy on-request
  tooleval import codex --approval-policy on-request inputs/import/codex/default.rules

  # Gemini CLI policy files of the user tier, with an admin policy, as Gemini runs headless
  tooleval import gemini --headless --admin-policy inputs/import/gemini/admin.toml inputs/import/gemini/user.toml

  # Import and check in one go
  tooleval import claude-code inputs/import/claude-code/project.json | tooleval check --config -

  # Write the overlay to a file (replaced only when the import succeeds)
  tooleval import claude-code -o overlay.json inputs/import/claude-code/project.json

The overlay goes to standard output, or to -o FILE: a JSON object that --config, check,
bundle build --config and mcp proxy --config accept. Each rule or setting
that could not be carried over exactly is a located line on standard error,
in the order of the files and of the rules in them,
with what was done instead (always the stricter reading: an allow dropped
or narrowed, a deny or ask widened). docs/import.md says what each
construct becomes.
A file named - is read from standard input. A file over 4 MiB is refused.
Exit status: 0 the overlay was written, 3 a file is not valid settings
(nothing is written), 2 bad usage.
`

// importers are the runtimes tooleval import reads, by the name the
// command takes, given the command's flags.
var importers = map[string]func([]importer.File, importFlags) (importer.Result, error){
	"claude-code": func(files []importer.File, _ importFlags) (importer.Result, error) {
		return claudecode.Import(files)
	},
	"codex": func(files []importer.File, f importFlags) (importer.Result, error) {
		return codex.Import(files, codex.Options{ApprovalPolicy: f.approvalPolicy})
	},
	"gemini": func(files []importer.File, f importFlags) (importer.Result, error) {
		return gemini.Import(files, gemini.Options{ApprovalMode: f.approvalMode, Headless: f.headless,
			Admin: f.admin, NoDefaults: f.noDefaults})
	},
}

// importFlags are the flags of tooleval import that describe the runtime.
type importFlags struct {
	approvalPolicy string // codex
	approvalMode   string // gemini
	headless       bool
	adminPolicies  []string
	admin          []importer.File
	noDefaults     bool
}

func runImport(_ context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "import", "import claude-code SETTINGS.json... | import codex [--approval-policy P] RULES... | import gemini [flags] POLICY.toml...", importExamples)
	var flags importFlags
	output := fs.StringP("output", "o", "", "write the overlay to this file (atomically: an existing file is kept when the import fails) instead of standard output")
	fs.StringVar(&flags.approvalPolicy, "approval-policy", "", "codex: Codex's approval_policy the rules run under: untrusted (the default), on-request, on-failure or never")
	fs.StringVar(&flags.approvalMode, "approval-mode", "", "gemini: Gemini CLI's approval mode: default (the default), autoEdit, plan or yolo")
	fs.BoolVar(&flags.headless, "headless", false, "gemini: Gemini CLI runs non-interactively (gemini -p): ask_user is deny")
	fs.StringArrayVar(&flags.adminPolicies, "admin-policy", nil, "gemini: a policy file of the admin tier (repeatable; the files given as arguments are of the user tier)")
	fs.BoolVar(&flags.noDefaults, "no-default-policies", false, "gemini: leave out the default policies Gemini CLI ships")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if fs.NArg() < 1 {
		return ExitUsage, usagef("usage: tooleval import claude-code FILE... (lowest precedence first), tooleval import codex FILE..., or tooleval import gemini FILE...")
	}
	runtime := fs.Arg(0)
	read, ok := importers[runtime]
	if !ok {
		return ExitUsage, usagef("%q: the runtimes imported are claude-code, codex and gemini%s", runtime, suggestion(runtime, []string{"claude-code", "codex", "gemini"}))
	}
	if flags.approvalPolicy != "" && runtime != "codex" {
		return ExitUsage, usagef("--approval-policy is Codex's: leave it out for %s", runtime)
	}
	if runtime != "gemini" && (flags.approvalMode != "" || flags.headless || len(flags.adminPolicies) > 0 || flags.noDefaults) {
		return ExitUsage, usagef("--approval-mode, --headless, --admin-policy and --no-default-policies are Gemini CLI's: leave them out for %s", runtime)
	}
	if fs.NArg() < 2 && len(flags.adminPolicies) == 0 {
		return ExitUsage, usagef("name the %s files to import", runtime)
	}
	readAll := func(names []string) ([]importer.File, error) {
		var files []importer.File
		stdin := false
		for _, name := range names {
			if name == "-" {
				if stdin {
					return nil, errors.New("standard input (-) can be named once")
				}
				stdin = true
			}
			data, err := readImportFile(name, s.In)
			if err != nil {
				return nil, err
			}
			files = append(files, importer.File{Name: name, Data: data})
		}
		return files, nil
	}
	files, err := readAll(fs.Args()[1:])
	if err != nil {
		return ExitUsage, usagef("%w", err)
	}
	if flags.admin, err = readAll(flags.adminPolicies); err != nil {
		return ExitUsage, usagef("%w", err)
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
	if *output == "" {
		fmt.Fprintf(s.Out, "%s\n", out)
		return ExitOK, nil
	}
	err = atomicfile.Write(*output, 0o644, func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\n", out)
		return err
	})
	if err != nil {
		return ExitUsage, fmt.Errorf("write the overlay: %w", err)
	}
	return ExitOK, nil
}

// readImportFile reads a file to import (- is in), refusing one of
// more than maxImportBytes.
func readImportFile(name string, in io.Reader) ([]byte, error) {
	r := in
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxImportBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > maxImportBytes {
		return nil, fmt.Errorf("%s is over %d MiB, more than a runtime's settings file holds: not imported", name, maxImportBytes>>20)
	}
	return data, nil
}
