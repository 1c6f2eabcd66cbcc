// Command gen writes the Unicode table that the Rego canonicalization
// reads (data.tooleval.unicode) from the Go reference in package canonical.
//
// Usage:
//
//	go run ./internal/canonical/gen -o policies/tooleval/unicode/data.json
package main

import (
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/tooleval/tooleval/internal/canonical"
)

func main() {
	out := pflag.StringP("output", "o", "", "file to write (default: standard output)")
	pflag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	data, err := canonical.MarshalTable(canonical.BuildTable())
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(data)
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}
