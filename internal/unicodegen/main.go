// Command unicodegen writes the generated Unicode tables the Rego policy
// reads, since the Rego cannot call golang.org/x/text: the per-code-point
// canonical mapping (data.tooleval.unicode, from package
// engine/canonical) and the TS #39 skeleton table of the confusable-name
// check (data.tooleval.unicode.skeleton, from package internal/skeleton).
//
// Usage (`go generate ./internal/unicodegen`, or `make generate`):
//
//	go run ./internal/unicodegen --canonical policies/tooleval/unicode/data.json \
//	    --skeleton policies/tooleval/unicode/skeleton/data.json
//
// A table whose flag is empty is written to standard output.
package main

//go:generate go run . --canonical ../../policies/tooleval/unicode/data.json --skeleton ../../policies/tooleval/unicode/skeleton/data.json

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/engine/canonical"
	"github.com/tooleval/tooleval/internal/skeleton"
)

func main() {
	canonicalOut := pflag.String("canonical", "", "file to write the canonical mapping table to (default: standard output)")
	skeletonOut := pflag.String("skeleton", "", "file to write the skeleton table to (default: standard output)")
	pflag.Parse()
	if err := run(*canonicalOut, *skeletonOut); err != nil {
		fmt.Fprintln(os.Stderr, "unicodegen:", err)
		os.Exit(1)
	}
}

// run writes both tables, the canonical mapping first.
func run(canonicalOut, skeletonOut string) error {
	table, err := canonical.MarshalTable(canonical.BuildTable())
	if err != nil {
		return fmt.Errorf("canonical table: %w", err)
	}
	if err := write(canonicalOut, table); err != nil {
		return fmt.Errorf("canonical table: %w", err)
	}
	skeletons, err := skeleton.Marshal(skeleton.BuildTable())
	if err != nil {
		return fmt.Errorf("skeleton table: %w", err)
	}
	if err := write(skeletonOut, skeletons); err != nil {
		return fmt.Errorf("skeleton table: %w", err)
	}
	return nil
}

// write writes data to the file out, or to standard output when out is
// empty.
func write(out string, data []byte) error {
	if out == "" {
		_, err := os.Stdout.Write(data)
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}
