package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/atomicfile"
	"github.com/tooleval/tooleval/internal/diff"
	"github.com/tooleval/tooleval/internal/inputs"
)

const diffExamples = `  # What would this configuration change on the example requests?
  tooleval diff --candidate config:inputs/configured/profiles/config.json inputs/*.json

  # A bundle under review against the one in production, over a decision log
  tooleval diff --base bundle:prod.tar.gz --candidate bundle:review.tar.gz decisions.log

  # This repository's policy at a git revision against the working tree's
  tooleval diff --base git:HEAD --candidate bundle:policies inputs/*.json --format json

  # A self-contained HTML report (no network fetches)
  tooleval diff --candidate config:inputs/configured/profiles/config.json inputs/*.json --format html -o build/diff.html

A policy is embedded (the bundle in this binary, the default base),
bundle:PATH (a bundle directory or tarball), config:FILE (a configuration
overlay for the embedded bundle) or git:REV (this repository's policies/ at
a revision). A PATH ending in .tar.gz or naming a directory, and a FILE
ending in .json, may be given without the prefix.

A corpus is input files, directories (their .json, .jsonl and .log files),
JSON Lines, or OPA decision logs (the console or file output of OPA's
decision log plugin, or the engine's audit log; events of
data.tooleval.decision are replayed). What a log's mask removed is never
guessed. Of a call whose arguments or workspace were masked, a refusal by
name (an exclusion, a deny entry, an allow list without it, an undeclared
tool) holds whatever they held, and a side that passed every name-level
check passed it whatever they held: so a call one side refuses by name
and the other lets through by name is a change. When the base is the
bundle revision that wrote the log (every revision the event records
equals the base's, which is neither "dev" nor "-dirty", and the base is
no config: overlay), the verdict the log recorded stands for the base's.
The other masked calls, and every call of a request whose caller,
requester or handoff was masked, are listed as not replayable, with why.

Each changed call shows why each side decided it (the check that refused
it, or the list entries that matched, with where they come from). Ids and
names are shown with every character outside printable ASCII escaped
(se\u200barch) and quoted when they hold a space (" search "). The report
names both policies by resolved revision (git commit, bundle revision,
and for an overlay the SHA-256 of its canonical JSON: sorted keys, no
white space) and the time it was made. The HTML report holds every table
in the HTML itself; its script only filters.

Exit status: 0 nothing changes, 1 something changes, 2 bad usage, an
unreadable corpus or policy, or an evaluation failure, 3 the candidate's
configuration has errors (listed on standard error; nothing is replayed).
`

// configErrors are the errors of a policy's configuration alone (the
// check of an empty request).
func configErrors(ctx context.Context, p diff.Policy) ([]engine.Problem, error) {
	c, err := p.Engine.Check(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("check the configuration: %w", err)
	}
	return c.Errors, nil
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func runDiff(ctx context.Context, s Streams, args []string) (int, error) {
	fs := newFlags(s, "diff", "diff [--base POLICY] --candidate POLICY [--format table|json|html] [-o FILE] CORPUS...", diffExamples)
	base := fs.String("base", "embedded", "the policy in force: embedded, bundle:PATH, config:FILE or git:REV")
	candidate := fs.String("candidate", "", "the policy to compare with it (same forms)")
	format := fs.StringP("format", "f", "table", "output format: table, json or html")
	output := fs.StringP("output", "o", "", "write the report to FILE instead of standard output")
	timeout := fs.Duration("timeout", engine.DefaultEvalTimeout, "how long one evaluation may run (0: no limit)")
	if err := parse(fs, args); err != nil {
		return ExitUsage, err
	}
	if *candidate == "" {
		return ExitUsage, usagef("give the policy to compare with --candidate (embedded, bundle:PATH, config:FILE or git:REV)")
	}
	if fs.NArg() == 0 {
		return ExitUsage, usagef("give the requests to replay: input files, directories, JSON Lines or OPA decision logs (- for standard input)")
	}
	if _, err := outputFormat(*format, false, []string{"table", "json", "html"}); err != nil {
		return ExitUsage, err
	}
	requests, err := inputs.Read(fs.Args(), s.In, inputs.DecisionEntryPoints...)
	if err != nil {
		return ExitUsage, usagef("%w", err)
	}
	repo, err := os.Getwd()
	if err != nil {
		return ExitUsage, err
	}
	opts := []engine.Option{engine.WithEvalTimeout(*timeout)}
	basePolicy, cleanBase, err := diff.Open(ctx, *base, repo, opts...)
	if err != nil {
		return ExitUsage, usagef("--base %w", err)
	}
	defer cleanBase()
	candidatePolicy, cleanCandidate, err := diff.Open(ctx, *candidate, repo, opts...)
	if err != nil {
		return ExitUsage, usagef("--candidate %w", err)
	}
	defer cleanCandidate()
	// A candidate with configuration errors would refuse every call: say
	// so up front instead of reporting every call as a change.
	if problems, err := configErrors(ctx, candidatePolicy); err != nil {
		return ExitUsage, fmt.Errorf("--candidate %s: %w", *candidate, err)
	} else if len(problems) > 0 {
		fmt.Fprintf(s.Err, "tooleval diff: the candidate %s has %d configuration %s, which refuse every call; nothing was replayed (tooleval check says more):\n", *candidate, len(problems), pluralWord(len(problems), "error", "errors"))
		for _, p := range problems {
			fmt.Fprintf(s.Err, "  %s: %s%s\n", p.Code(), p.Message(), location(p))
		}
		return ExitErrors, nil
	}
	if problems, err := configErrors(ctx, basePolicy); err != nil {
		return ExitUsage, fmt.Errorf("--base %s: %w", *base, err)
	} else if len(problems) > 0 {
		fmt.Fprintf(s.Err, "tooleval diff: note: the base %s has %d configuration %s, which refuse every call it decides\n", *base, len(problems), pluralWord(len(problems), "error", "errors"))
	}

	var progress func(done, total int)
	if s.ErrTerminal {
		progress = func(done, total int) {
			if done == total || done%100 == 0 {
				fmt.Fprintf(s.Err, "\rreplayed %d of %d requests", done, total)
				if done == total {
					fmt.Fprintln(s.Err)
				}
			}
		}
	}
	report, err := diff.Replay(ctx, basePolicy, candidatePolicy, requests, diff.Options{Progress: progress})
	if err != nil {
		return ExitUsage, err
	}
	writeReport := func(out io.Writer) error {
		switch *format {
		case "json":
			return diff.WriteJSON(out, report)
		case "html":
			return diff.WriteHTML(ctx, out, report, basePolicy, candidatePolicy)
		default:
			return diff.WriteTable(out, report)
		}
	}
	if *output != "" {
		// A failed report leaves an existing file as it was.
		err = atomicfile.Write(*output, 0o644, writeReport)
	} else {
		err = writeReport(s.Out)
	}
	if err != nil {
		return ExitUsage, fmt.Errorf("write the report: %w", err)
	}
	if report.Changed() {
		return ExitRefused, nil
	}
	return ExitOK, nil
}
